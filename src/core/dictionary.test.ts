import colorNames from 'color-name';
import { describe, expect, it } from 'vitest';
import { dictionary, ownValue } from './dictionary.js';

describe('lookup tables read with user text', () => {
  const SHAPES: Record<string, string> = dictionary({ box: 'rectangle', cylinder: 'database' });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('finds nothing for %s', (key) => {
    expect(SHAPES[key]).toBeUndefined();
    expect(key in SHAPES).toBe(false);
    expect(ownValue(colorNames, key)).toBeUndefined();
  });

  it('still finds its own keys, and lists only them', () => {
    expect(SHAPES.box).toBe('rectangle');
    expect(Object.keys(SHAPES)).toEqual(['box', 'cylinder']);
    expect(ownValue(colorNames, 'red')).toEqual([255, 0, 0]);
  });
});
