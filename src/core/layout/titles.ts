/**
 * Container titles clear of the edges: ELK routes an edge into a container through its top padding wherever it
 * likes, so in a top-down layout the edges entering a container cut through its title (C4's "Apache Tomcat", a VPC
 * in Terraform). Each title slides right along its band to the first gap wide enough to hold it; layout widens a
 * container whose band has none (elk.ts).
 */
import { CONTAINER_MIN_WIDTH, FONT, SPACING } from './drawing-rules.js';
import { measureText, type TextSize } from './measure.js';
import { wrapText } from './node-size.js';
import type { GraphIR } from '../graph/types.js';
import type { Box, LaidOutGraph, Point } from './types.js';

/** A container's title as drawn: wrapped past twice the container's minimum width, and its size. */
export function containerTitle(label: string): { text: string } & TextSize {
  const text = wrapText(label, CONTAINER_MIN_WIDTH * 2, FONT.containerTitle).join('\n');
  return { text, ...measureText(text, FONT.containerTitle, FONT.family) };
}


/** Room kept between a title and an edge passing beside it. */
const TITLE_CLEARANCE = 8;
/**
 * An arrowhead's reach around its tip: back along the edge and to each side (render/arrowheads.ts draws a head
 * 12 + 3 × stroke width long, up to half that to each side: 18 and 9 px at the default width 2). A head whose tip
 * is on a node just under the band stands in the band, and is wider than its line.
 */
const HEAD_LENGTH = 20;
const HEAD_HALF_WIDTH = 10;

/** The x-ranges where a segment or box enters the band [top, bottom]. */
function blockedRange(a: Point, b: Point, top: number, bottom: number): [number, number] | undefined {
  if (Math.max(a.y, b.y) < top || Math.min(a.y, b.y) > bottom) return undefined;
  return [Math.min(a.x, b.x) - TITLE_CLEARANCE, Math.max(a.x, b.x) + TITLE_CLEARANCE];
}

/** The x-range an arrowhead at `tip`, reached along the segment from `from`, covers in the band [top, bottom]. */
function headRange(from: Point, tip: Point, top: number, bottom: number): [number, number] | undefined {
  const upright = Math.abs(tip.x - from.x) < Math.abs(tip.y - from.y);
  const reachY = upright ? HEAD_LENGTH : HEAD_HALF_WIDTH;
  const reachX = (upright ? HEAD_HALF_WIDTH : HEAD_LENGTH) + TITLE_CLEARANCE;
  if (tip.y + reachY < top || tip.y - reachY > bottom) return undefined;
  return [tip.x - reachX, tip.x + reachX];
}

/**
 * The x in [from, to − width] nearest `at` whose span [x, x + width] misses every blocked range, if any (from `from`
 * on: the leftmost).
 */
export function nearestGap(blocked: readonly [number, number][], from: number, to: number, width: number, at = from): number | undefined {
  let best: number | undefined;
  let start = from;
  const consider = (end: number) => {
    if (end - start < width) return;
    const x = Math.min(Math.max(at, start), end - width);
    if (best === undefined || Math.abs(x - at) < Math.abs(best - at)) best = x;
  };
  for (const [lo, hi] of [...blocked].sort((p, q) => p[0] - q[0])) {
    consider(Math.min(lo, to));
    start = Math.max(start, hi);
  }
  consider(to);
  return best;
}

/**
 * Moves each container's title to the nearest stretch of its band no edge or edge label crosses. A title with no such
 * stretch stays, and `blocked` gives its container id and a width that would leave the title room beside the edges.
 */
export function placeTitles(laid: LaidOutGraph, graph?: Pick<GraphIR, 'edges'>): { laid: LaidOutGraph; blocked: Map<string, number> } {
  const blocked = new Map<string, number>();
  // An edge laid out but not drawn (Mermaid `~~~`, D2 `opacity: 0`) crosses no title.
  const drawn = laid.edges.filter((edge) => graph?.edges[edge.index]?.hidden !== true);
  const segments = drawn.flatMap((edge) => edge.points.slice(1).map((to, i) => [edge.points[i]!, to] as const));
  const labels: Box[] = drawn.flatMap((edge) => edge.labels);
  // Either end may carry a head: the router does not know which, and a tail's room costs little.
  const ends = drawn.filter((edge) => edge.points.length > 1).flatMap(({ points }) => [[points[1]!, points[0]!], [points[points.length - 2]!, points[points.length - 1]!]] as const);
  const groups = laid.groups.map((group) => {
    const { title } = group;
    const top = title.y;
    const bottom = title.y + title.height;
    const crossed = [
      ...segments.map(([a, b]) => blockedRange(a, b, top, bottom)),
      ...labels.map((label) => blockedRange({ x: label.x, y: label.y }, { x: label.x + label.width, y: label.y + label.height }, top, bottom)),
      ...ends.map(([from, tip]) => headRange(from, tip, top, bottom)),
    ].filter((range): range is [number, number] => range !== undefined);
    // A title set at its container's middle (Graphviz's clusters) moves to the nearest gap either way.
    const inset = Math.min(title.x - group.x, SPACING.containerPadding);
    const x = nearestGap(crossed, group.x + inset, group.x + group.width - inset, title.width, title.x);
    if (x === undefined) blocked.set(group.id, group.width + title.width + TITLE_CLEARANCE);
    return x === undefined || x === title.x ? group : { ...group, title: { ...title, x } };
  });
  return { laid: { ...laid, groups }, blocked };
}
