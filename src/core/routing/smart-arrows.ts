/**
 * `smart` arrows: the server draws their path. On every intake (create and update) each smart arrow bound at both
 * ends is routed from its start shape to its end shape around every other element, so it follows shapes that move.
 * The route decides where the ends attach (the middle of a side), so stored focus points are outputs, not inputs.
 */
import type { Box, Point } from '../layout/types.js';
import { boxContains } from '../export/geometry.js';
import { boundsOf } from '../scene/binding-geometry.js';
import { LINEAR_TYPES, STROKE_TYPES } from '../scene/constants.js';
import { RUN_SPACING, separateRuns, type RoutedLine } from './separate-runs.js';
import { OrthogonalRouter, SIDE_FOCUS, simplifyPolyline, type RouteRequest } from './orthogonal.js';

/** The fields routing reads from a validated element. */
export interface RoutableElement extends Box {
  id: string;
  type: string;
  arrowShape?: string;
  startBinding?: { elementId: string };
  endBinding?: { elementId: string };
  points?: readonly Point[];
}

export interface SmartRoute {
  points: Point[];
  startFocus: Point;
  endFocus: Point;
}

export interface SmartRouting {
  /** Arrow id → its new path and the focus points of its ends. */
  routes: Map<string, SmartRoute>;
  /** Arrow id → why it was routed only roughly, for the intake's warnings. */
  problems: Map<string, string>;
}

/** Arrows, lines and strokes are not obstacles; everything else an arrow can bind to is. */
const NOT_OBSTACLES = new Set<string>([...LINEAR_TYPES, ...STROKE_TYPES]);

/** Borders may touch and rounding may leave a hair: the quality checker's tolerance. */
const TOLERANCE = 1;
const contains = (outer: Box, inner: Box) => boxContains(outer, inner, TOLERANCE);

/** How far beyond a new route a drawn one is looked at: a few channels' width, all its legs may move across. */
const DRAWN_REACH = 5 * RUN_SPACING;

/**
 * Routes every smart arrow of a scene but those in `keep`, which keep their stored route. Containers (frames
 * included) that hold an end may be crossed; everything else is avoided. An arrow not bound at both ends is left as
 * drawn, silently: it is a smart arrow being drawn (an Excalidraw import, a client mid-edit), routed once both ends
 * are bound, as Excalidraw does with its elbow arrows. The arrows drawn already (kept smart ones, those a layout or
 * a client drew) stay as they are; a new route running along one is moved apart from it.
 */
export function routeSmartArrows(elements: readonly RoutableElement[], keep: ReadonlySet<string> = new Set()): SmartRouting {
  const routes = new Map<string, SmartRoute>();
  const problems = new Map<string, string>();
  const smart = elements.filter((e) => e.type === 'arrow' && e.arrowShape === 'smart' && !keep.has(e.id));
  if (smart.length === 0) return { routes, problems };

  const obstacles = elements.filter((e) => !NOT_OBSTACLES.has(e.type));
  const obstacleIndex = new Map(obstacles.map((e, index) => [e.id, index]));
  const requests: Array<{ arrow: RoutableElement; request: RouteRequest }> = [];
  /** Per end shape: the obstacles around it and inside it, which its arrows may cross. */
  const nearby = new Map<number, number[]>();
  const through = (end: number): number[] => {
    let list = nearby.get(end);
    if (list === undefined) {
      const box = obstacles[end]!;
      list = [];
      obstacles.forEach((other, index) => {
        if (index !== end && (contains(other, box) || contains(box, other))) list!.push(index);
      });
      nearby.set(end, list);
    }
    return list;
  };

  for (const arrow of smart) {
    const from = arrow.startBinding && obstacleIndex.get(arrow.startBinding.elementId);
    const to = arrow.endBinding && obstacleIndex.get(arrow.endBinding.elementId);
    // Unknown or linear binding targets are reported by the intake itself.
    if (from === undefined || to === undefined) continue;
    requests.push({ arrow, request: { from, to, through: [...new Set([...through(from), ...through(to)])] } });
  }
  if (requests.length === 0) return { routes, problems };

  const router = new OrthogonalRouter(obstacles, requests.flatMap(({ request }) => [request.from, request.to]));
  // Arrows drawn already stay as they are: new routes keep off their lines where there is another way.
  const drawn = drawnArrows(elements, new Set(requests.map(({ arrow }) => arrow.id)));
  const spans = requests.map(({ request }) => boundsOf([obstacles[request.from]!, obstacles[request.to]!].flatMap(corners)));
  const indexOf = (id: string | undefined) => (id === undefined ? undefined : obstacleIndex.get(id)) ?? -1;
  for (const line of near(drawn, spans, 2 * DRAWN_REACH)) router.avoid(line.points, indexOf(line.start), indexOf(line.end));
  for (const { arrow, request } of requests) {
    const route = router.route(request);
    if (route) {
      routes.set(arrow.id, route);
      continue;
    }
    problems.set(arrow.id, 'no route around the other shapes; drawn as a plain right-angle connection');
    routes.set(arrow.id, fallbackRoute(obstacles[request.from]!, obstacles[request.to]!));
  }
  // Routes of different ends led through one channel are moved apart in it, and off the arrows drawn already near
  // them; their ends stay where they attach.
  const routed = requests.filter(({ arrow }) => routes.has(arrow.id));
  const lines: RoutedLine[] = routed.map(({ arrow, request }) => ({ points: routes.get(arrow.id)!.points, ends: [obstacles[request.from]!.id, obstacles[request.to]!.id] }));
  lines.push(...near(drawn, lines.map(({ points }) => boundsOf(points)), DRAWN_REACH));
  separateRuns(lines, obstacles).slice(0, routed.length).forEach((points, i) => {
    const id = routed[i]!.arrow.id;
    routes.set(id, { ...routes.get(id)!, points });
  });
  return { routes, problems };
}

/** An arrow or line drawn already, with the ids of the shapes its ends are bound to (if they are). */
type DrawnLine = { points: readonly Point[]; start: string | undefined; end: string | undefined; bounds: Box };

/** The arrows and lines not routed now, with their points: fixed lines for the routing. */
function drawnArrows(elements: readonly RoutableElement[], routed: ReadonlySet<string>): DrawnLine[] {
  const drawn: DrawnLine[] = [];
  for (const e of elements) {
    if ((e.type !== 'arrow' && e.type !== 'line') || routed.has(e.id) || e.points === undefined || e.points.length < 2) continue;
    drawn.push({ points: e.points, start: e.startBinding?.elementId, end: e.endBinding?.elementId, bounds: boundsOf(e.points) });
  }
  return drawn;
}

/**
 * Of the drawn lines, those whose bounds come within `reach` of one of `boxes` (where new routes run): only those can
 * share a channel with them, so an edit routing one arrow in a large drawing looks at its neighbourhood, not at
 * every arrow's legs.
 */
function near(drawn: readonly DrawnLine[], boxes: readonly Box[], reach: number): Array<RoutedLine & DrawnLine> {
  const around = boxes.map((b) => ({ x: b.x - reach, y: b.y - reach, width: b.width + 2 * reach, height: b.height + 2 * reach }));
  return drawn
    .filter(({ bounds: b }) => around.some((r) => b.x <= r.x + r.width && r.x <= b.x + b.width && b.y <= r.y + r.height && r.y <= b.y + b.height))
    .map((line) => ({ ...line, ends: [line.start, line.end].filter((id): id is string => id !== undefined), fixed: true }));
}

const corners = (box: Box): Point[] => [{ x: box.x, y: box.y }, { x: box.x + box.width, y: box.y + box.height }];

/** When every way is blocked: leave the start's side facing the end, one bend, into the end's facing side. */
function fallbackRoute(from: Box, to: Box): SmartRoute {
  const dx = to.x + to.width / 2 - (from.x + from.width / 2);
  const dy = to.y + to.height / 2 - (from.y + from.height / 2);
  const horizontal = Math.abs(dx) >= Math.abs(dy);
  const startFocus = horizontal ? SIDE_FOCUS[dx >= 0 ? 'right' : 'left'] : SIDE_FOCUS[dy >= 0 ? 'bottom' : 'top'];
  const endFocus = horizontal ? SIDE_FOCUS[dx >= 0 ? 'left' : 'right'] : SIDE_FOCUS[dy >= 0 ? 'top' : 'bottom'];
  const a = { x: from.x + startFocus.x * from.width, y: from.y + startFocus.y * from.height };
  const b = { x: to.x + endFocus.x * to.width, y: to.y + endFocus.y * to.height };
  const mid = horizontal ? (a.x + b.x) / 2 : (a.y + b.y) / 2;
  const points = horizontal ? [a, { x: mid, y: a.y }, { x: mid, y: b.y }, b] : [a, { x: a.x, y: mid }, { x: b.x, y: mid }, b];
  return { points: simplifyPolyline(points), startFocus, endFocus };
}
