import { describe, expect, it } from 'vitest';
import { titleFromCode } from './title.js';

describe('a default name from the code', () => {
  it('takes the title the code gives itself', () => {
    expect(titleFromCode('---\ntitle: Checkout flow\n---\nflowchart LR\n  a --> b')).toBe('Checkout flow');
    expect(titleFromCode('sequenceDiagram\n  title Sign-in\n  A->>B: hi')).toBe('Sign-in');
    expect(titleFromCode('@startuml\ntitle "Order states"\n[*] --> New\n@enduml')).toBe('Order states');
    expect(titleFromCode('digraph Payments {\n  a -> b\n}')).toBe('Payments');
    expect(titleFromCode('title: {label: Edge network}\na -> b')).toBe('Edge network');
  });

  it('falls back to a heading comment on the first line, never a directive', () => {
    expect(titleFromCode('# Shop stack\nservices:\n  web:\n    image: nginx\n')).toBe('Shop stack');
    expect(titleFromCode('-- Billing schema\nCREATE TABLE a (id int);')).toBe('Billing schema');
    expect(titleFromCode('# yaml-language-server: $schema=https://x\nservices: {}')).toBeUndefined();
    expect(titleFromCode('# syntax=docker/dockerfile:1\n')).toBeUndefined();
  });

  it('gives nothing for code that names itself nothing, or only a default graph name', () => {
    expect(titleFromCode('digraph G {\n a -> b\n}')).toBeUndefined();
    expect(titleFromCode('services:\n  web:\n    image: nginx\n')).toBeUndefined();
    expect(titleFromCode('')).toBeUndefined();
  });
});
