import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { intakeScene } from '../scene/intake.js';
import { codeToScene, CONVERTERS, detectNotation, FROM_CODE_MAX_BYTES, supportedNotations } from './index.js';

const fixtures = new URL('../../../test/fixtures/', import.meta.url);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a rejection');
}

describe('detectNotation', () => {
  for (const converter of CONVERTERS) {
    it(`recognises every ${converter.id} corpus input as ${converter.id}`, () => {
      const folder = new URL(`${converter.id}/`, fixtures);
      for (const file of readdirSync(folder).filter((name) => name !== 'NOTICE.md')) {
        expect([file, detectNotation(readFileSync(new URL(file, folder), 'utf8'))]).toEqual([file, converter.id]);
      }
    });
  }

  it('recognises nothing in prose or an empty input', () => {
    expect(detectNotation('Hello, this is a shopping list: eggs, milk.')).toBeUndefined();
    expect(detectNotation('')).toBeUndefined();
  });
});

describe('codeToScene', () => {
  it('detects, parses, lays out and draws, returning what it read and what it approximated', async () => {
    const result = await codeToScene('digraph { rankdir=LR; a -> b:p1 [label="calls"] }');
    expect(result.notation).toBe('dot');
    expect(result.warnings).toEqual(['edges to node ports (node:port) attach to the whole node']);
    expect(result.elements.map((element) => element.type).sort()).toEqual(['arrow', 'ellipse', 'ellipse', 'text']);
    expect(intakeScene(result.elements).elements).toHaveLength(4);
    const a = result.elements.find((element) => element.id === result.elementIds.nodes.get('a'))!;
    const b = result.elements.find((element) => element.id === result.elementIds.nodes.get('b'))!;
    expect(Number(b.x)).toBeGreaterThan(Number(a.x) + Number(a.width));
  });

  it('uses the notation asked for instead of detecting', async () => {
    const error = await failure(codeToScene('digraph { a -> b }', { notation: 'compose' }));
    expect(error.code).toBe('parse_error');
  });

  it('answers unsupported_notation listing the supported notations', async () => {
    const error = await failure(codeToScene('just some words'));
    expect(error.code).toBe('unsupported_notation');
    expect(error.details).toEqual({ supported: supportedNotations() });
    expect(error.message).toContain(`supported notations: ${supportedNotations().join(', ')}`);
    expect((await failure(codeToScene('a -> b', { notation: 'mermaid' }))).code).toBe('unsupported_notation');
  });

  it('refuses code over 1 MiB', async () => {
    const error = await failure(codeToScene(`digraph { ${'a -> b; '.repeat(FROM_CODE_MAX_BYTES / 8 + 1)} }`));
    expect(error.code).toBe('payload_too_large');
  });

  it('passes a syntax error through with its line and column', async () => {
    const error = await failure(codeToScene('digraph {\n a -> -> b\n}'));
    expect(error).toMatchObject({ code: 'parse_error', details: { line: 2, column: 7 } });
  });
});
