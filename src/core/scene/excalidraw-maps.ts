import type { Arrowhead } from './constants.js';
import { dictionary } from '../dictionary.js';

/**
 * Field tables between the native schema and Excalidraw (0.18 on npm, and master's renames on the way in).
 *
 * Arrowheads, native → Excalidraw 0.18 (written on export):
 *
 * | native            | Excalidraw            | note                                                       |
 * |-------------------|-----------------------|------------------------------------------------------------|
 * | none              | null                  |                                                            |
 * | arrow             | arrow                 |                                                            |
 * | triangle          | triangle              |                                                            |
 * | triangle-outline  | triangle_outline      |                                                            |
 * | circle            | circle                |                                                            |
 * | diamond           | diamond               |                                                            |
 * | diamond-outline   | diamond_outline       |                                                            |
 * | bar               | bar                   |                                                            |
 * | crows-foot        | crowfoot_many         | ER "many"                                                  |
 * | crows-foot-bar    | crowfoot_one_or_many  | ER "one or many"                                           |
 * | double-bar        | crowfoot_one          | ER "exactly one"                                           |
 * | circle-bar        | crowfoot_one          | lossy: 0.18 has no "zero or one" (master: cardinality_zero_or_one)   |
 * | circle-crows-foot | crowfoot_many         | lossy: 0.18 has no "zero or many" (master: cardinality_zero_or_many) |
 *
 * The lossy ends keep their native value in customData, so a file exported here comes back unchanged.
 */
export const EXCALIDRAW_ARROWHEAD_MAP: Readonly<Record<Arrowhead, string | null>> = {
  none: null,
  arrow: 'arrow',
  triangle: 'triangle',
  'triangle-outline': 'triangle_outline',
  circle: 'circle',
  diamond: 'diamond',
  'diamond-outline': 'diamond_outline',
  bar: 'bar',
  'crows-foot': 'crowfoot_many',
  'crows-foot-bar': 'crowfoot_one_or_many',
  'double-bar': 'crowfoot_one',
  'circle-bar': 'crowfoot_one',
  'circle-crows-foot': 'crowfoot_many',
};

/** Excalidraw → native, for every name 0.18, master and legacy files use. */
export const ARROWHEAD_FROM_EXCALIDRAW: Readonly<Record<string, Arrowhead>> = dictionary({
  arrow: 'arrow',
  bar: 'bar',
  dot: 'circle', // legacy name
  circle: 'circle',
  circle_outline: 'circle', // no outlined circle natively
  triangle: 'triangle',
  triangle_outline: 'triangle-outline',
  diamond: 'diamond',
  diamond_outline: 'diamond-outline',
  crowfoot_one: 'double-bar',
  crowfoot_many: 'crows-foot',
  crowfoot_one_or_many: 'crows-foot-bar',
  cardinality_one: 'double-bar',
  cardinality_exactly_one: 'double-bar',
  cardinality_many: 'crows-foot',
  cardinality_one_or_many: 'crows-foot-bar',
  cardinality_zero_or_one: 'circle-bar',
  cardinality_zero_or_many: 'circle-crows-foot',
});

/** Excalidraw font ids: 1 Virgil, 5 Excalifont (hand-drawn); 3 Cascadia, 8 Comic Shanns (monospace); the rest are sans. */
export const FONT_FROM_EXCALIDRAW: Readonly<Record<number, 'hand' | 'normal' | 'code'>> = dictionary({
  1: 'hand',
  2: 'normal',
  3: 'code',
  5: 'hand',
  6: 'normal',
  7: 'normal',
  8: 'code',
  9: 'normal',
  10: 'normal',
});
/** Written on export: the current default of each family (Excalifont, Nunito, Cascadia). */
export const FONT_TO_EXCALIDRAW = { hand: 5, normal: 6, code: 3 } as const;

export const ROUGHNESS_FROM_EXCALIDRAW = ['clean', 'sketch', 'scribble'] as const;
export const ROUGHNESS_TO_EXCALIDRAW = { clean: 0, sketch: 1, scribble: 2 } as const;

/** Excalidraw has hachure, cross-hatch, solid and zigzag; the other native fills take the nearest. */
export const FILL_TO_EXCALIDRAW = {
  hachure: 'hachure',
  'cross-hatch': 'cross-hatch',
  solid: 'solid',
  zigzag: 'zigzag',
  dots: 'cross-hatch',
  dashed: 'hachure',
  'zigzag-line': 'zigzag',
} as const;
