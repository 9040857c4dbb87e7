/**
 * A scene in a few lines, for AI clients that just wrote it: what each shape is called and where it sits, what each
 * arrow joins. A 12-box diagram's full scene is ~4,000 tokens of defaults echoed back; its summary is a few hundred.
 */
import { boundsOf } from './binding-geometry.js';
import type { Element } from './schema.js';

export interface SceneSummary {
  elementCount: number;
  /** The drawing's extent: [x, y, width, height]. */
  bounds: [number, number, number, number];
  /** Shapes and free text. */
  shapes: Array<{ id: string; type: string; text?: string; box: [number, number, number, number]; icon?: string }>;
  arrows: Array<{ id: string; from?: string; to?: string; text?: string }>;
  /** Lines, drawings, images, code and maths: counted by type. */
  other: Record<string, number>;
}

const LINKS = new Set(['arrow', 'line']);
const FREE = new Set(['freedraw', 'highlight', 'image', 'embed', 'math', 'code']);

export function summarizeScene(elements: readonly Element[]): SceneSummary {
  const summary: SceneSummary = { elementCount: elements.length, bounds: [0, 0, 0, 0], shapes: [], arrows: [], other: {} };
  const round = (v: number) => Math.round(v);
  for (const e of elements) {
    const loose = e as Element & { text?: string; icon?: { ref: string }; startBinding?: { elementId: string }; endBinding?: { elementId: string } };
    if (e.type === 'arrow') {
      summary.arrows.push({
        id: e.id,
        ...(loose.startBinding ? { from: loose.startBinding.elementId } : {}),
        ...(loose.endBinding ? { to: loose.endBinding.elementId } : {}),
        ...(loose.text ? { text: loose.text } : {}),
      });
    } else if (LINKS.has(e.type) || FREE.has(e.type)) {
      summary.other[e.type] = (summary.other[e.type] ?? 0) + 1;
    } else {
      summary.shapes.push({
        id: e.id,
        type: e.type,
        ...(loose.text ? { text: loose.text } : {}),
        box: [round(e.x), round(e.y), round(e.width), round(e.height)],
        ...(loose.icon ? { icon: loose.icon.ref } : {}),
      });
    }
  }
  if (elements.length > 0) {
    const b = boundsOf(elements.flatMap((e) => [{ x: e.x, y: e.y }, { x: e.x + e.width, y: e.y + e.height }]));
    summary.bounds = [round(b.x), round(b.y), round(b.width), round(b.height)];
  }
  return summary;
}
