import { describe, expect, it } from 'vitest';
import { parseColor, readableStroke, textContrast } from './contrast.js';

describe('textContrast', () => {
  it('gives the WCAG ratios: 21 for black on white, 1 for a colour on itself, order-independent', () => {
    expect(textContrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(textContrast('#fff', '#ffffff')).toBeCloseTo(1, 5);
    expect(textContrast('#ffffff', '#000')).toBeCloseTo(21, 5);
    // Orange note text on its pale yellow fill.
    expect(textContrast('#f08c00', '#fff9db')).toBeCloseTo(2.34, 2);
  });

  it('reads a transparent fill as the white canvas and blends translucent colours', () => {
    expect(textContrast('#000000', 'transparent')).toBeCloseTo(21, 5);
    expect(textContrast('#000000', '#00000000')).toBeCloseTo(21, 5);
    expect(parseColor('#00000080')![3]).toBeCloseTo(0.5, 2);
  });

  it('has nothing to read in fully transparent text (D2 opacity 0 hides it on purpose): no ratio', () => {
    expect(textContrast('#00000000', '#ffffff')).toBeUndefined();
    // A transparent border is no text colour: the label still gets one that reads (the caller keeps hidden text hidden).
    expect(readableStroke('#00000000', '#ffffff')).toBe('#1e1e1e');
  });

  it('is undefined for something that is not a colour', () => {
    expect(textContrast('red', '#ffffff')).toBeUndefined();
  });
});

describe('readableStroke', () => {
  it('keeps a stroke that reads on its fill', () => {
    expect(readableStroke('#364fc7', '#dbe4ff')).toBe('#364fc7');
    expect(readableStroke('#1e1e1e', 'transparent')).toBe('#1e1e1e');
  });

  it('swaps a faint stroke for a dark one on light fills and a light one on dark fills', () => {
    expect(readableStroke('#ffffff', '#ffffff')).toBe('#1e1e1e'); // DOT style=filled,color=white
    expect(readableStroke('#f08c00', '#fff9db')).toBe('#1e1e1e'); // sequence note
    expect(readableStroke('#e67700', '#fff3bf')).toBe('#1e1e1e'); // ConfigMap / Secret
    expect(readableStroke('#ffffff', 'transparent')).toBe('#1e1e1e');
    expect(readableStroke('#1e1e1e', '#343a40')).toBe('#ffffff');
    expect(readableStroke('#000080', '#000000')).toBe('#ffffff');
  });
});
