import type { Arrowhead } from '../scene/constants.js';
import type { Point } from '../scene/schema.js';
import type { Figure } from './draw.js';
import type { PathEnd } from './paths.js';

/**
 * The thirteen arrowheads as figures at a path end, pointing along the path's direction there. The ER heads follow
 * crow's foot notation, read from the entity outwards: the bar (one) nearest the entity, then the circle (zero) or
 * the foot (many). Outlined heads are filled with the paper colour so the line under them does not show through.
 */

export interface HeadPart {
  figure: Figure;
  /** `ink`: the stroke colour; `paper`: the background; undefined: stroke only. */
  fill?: 'ink' | 'paper';
}

/** Head length for a stroke width: big enough to read at 1 px, not a blob at 8 px. */
export const headSize = (strokeWidth: number): number => 12 + 3 * strokeWidth;

export function arrowheadParts(kind: Arrowhead, end: PathEnd, size: number): HeadPart[] {
  const { point: tip, direction: u } = end;
  const n = { x: -u.y, y: u.x };
  /** A point `back` along the path from the tip and `side` across it. */
  const at = (back: number, side = 0): Point => ({ x: tip.x - u.x * back + n.x * side, y: tip.y - u.y * back + n.y * side });
  const line = (...points: Point[]): HeadPart => ({ figure: { kind: 'polyline', points } });
  const bar = (back: number): HeadPart => line(at(back, size * 0.45), at(back, -size * 0.45));
  const circle = (back: number, diameter: number): HeadPart => ({ figure: { kind: 'circle', center: at(back), diameter }, fill: 'paper' });
  const foot = (): HeadPart => line(at(0, size * 0.5), at(size * 0.9), at(0, -size * 0.5));
  const triangle = (fill: 'ink' | 'paper'): HeadPart => ({ figure: { kind: 'polygon', points: [tip, at(size, size * 0.42), at(size, -size * 0.42)] }, fill });
  const diamond = (fill: 'ink' | 'paper'): HeadPart => ({
    figure: { kind: 'polygon', points: [tip, at(size * 0.6, size * 0.32), at(size * 1.2), at(size * 0.6, -size * 0.32)] },
    fill,
  });
  switch (kind) {
    case 'none':
      return [];
    case 'arrow':
      return [line(at(size, size * 0.45), tip, at(size, -size * 0.45))];
    case 'triangle':
      return [triangle('ink')];
    case 'triangle-outline':
      return [triangle('paper')];
    case 'circle':
      return [{ figure: { kind: 'circle', center: at(size * 0.35), diameter: size * 0.7 }, fill: 'ink' }];
    case 'diamond':
      return [diamond('ink')];
    case 'diamond-outline':
      return [diamond('paper')];
    case 'bar':
      return [bar(size * 0.4)];
    case 'crows-foot':
      return [foot()];
    case 'crows-foot-bar':
      return [foot(), bar(size * 1.25)];
    case 'double-bar':
      return [bar(size * 0.4), bar(size * 0.8)];
    case 'circle-bar':
      return [bar(size * 0.4), circle(size * 1.05, size * 0.6)];
    case 'circle-crows-foot':
      return [foot(), circle(size * 1.25, size * 0.6)];
  }
}
