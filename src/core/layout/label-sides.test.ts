import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mermaidNotation } from '../notations/mermaid/index.js';
import { layoutGraph } from './elk.js';
import { LABEL_ROOM } from './hubs.js';
import type { Box, Point } from './types.js';

/** Distance from a box to a polyline of right-angle legs. */
function distance(box: Box, points: readonly Point[]): number {
  let best = Infinity;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1]!, points[i]!];
    const gapX = Math.max(0, box.x - Math.max(a.x, b.x), Math.min(a.x, b.x) - (box.x + box.width));
    const gapY = Math.max(0, box.y - Math.max(a.y, b.y), Math.min(a.y, b.y) - (box.y + box.height));
    best = Math.min(best, Math.hypot(gapX, gapY));
  }
  return best;
}

describe('keepLabelsBesideOwnEdges', () => {
  it('moves a label hemmed in by another edge to the free side of its own (a print job\'s state machine)', async () => {
    const source = readFileSync(new URL('../../../test/fixtures/mermaid/print-job-emphasis-state.mmd', import.meta.url), 'utf8');
    const laid = await layoutGraph(await mermaidNotation.toGraph(source));
    // The long back edge's label stood a few px from its edge and 17 px from Warming up → Rendering.
    for (const text of ['User closes without stapling']) {
      const edge = laid.edges.find((e) => e.labels.some((label) => label.text === text))!;
      const label = edge.labels.find((l) => l.text === text)!;
      const own = distance(label, edge.points);
      const others = Math.min(...laid.edges.filter((e) => e !== edge).map((e) => distance(label, e.points)));
      expect(own).toBeLessThan(LABEL_ROOM);
      expect(others).toBeGreaterThanOrEqual(LABEL_ROOM);
    }
  });
});
