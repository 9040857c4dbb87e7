/**
 * Several ports per side: where k routes are to end on one side of a shape, their ends are spread over it at
 * 1/(k + 1) of its length each, as ELK distributes a side's ports and Graphviz's ortho gives a side several ports,
 * ordered by which way each route's other end lies so that they do not cross beside the shape. Without ports the router
 * ends every route at a side's middle, where a fan-in's routes met in one point.
 */
import type { Box } from '../layout/types.js';
import type { Port, Side } from './orthogonal.js';

/** Ports on one side stand at most this far apart, around its middle: a wide container's ends stay near its middle. */
const PORT_PITCH_MAX = 40;
/** …and at least this far, or the side keeps one end for all (half again the gap under which arrowheads pile into a wedge). */
const PORT_PITCH_MIN = 12;

/** A route to be found between two obstacles, with the side each end is meant to be on (undefined: any side). */
export interface EndSides {
  from: number;
  to: number;
  fromSide?: Side;
  toSide?: Side;
}

/** The ports each route's ends are given (undefined: the end has its side to itself, or may not be spread). */
export interface EndPorts {
  fromPort?: Port;
  toPort?: Port;
}

/**
 * The ports of the ends meant for a side of an obstacle that `spreads` allows, when several are, per route (in the
 * order given): along the side in the order of the angle at which each other end's centre lies, seen from the side's
 * middle. So routes from a rank above into a node's top keep their sources' order, and of two sources above and to the
 * left of a node's left side, the nearer (steeper) one's route turns in above the further one's, not across it.
 */
export function sidePorts(obstacles: readonly Box[], routes: readonly (EndSides | undefined)[], spreads: (obstacle: number) => boolean): EndPorts[] {
  const bySide = new Map<string, { route: number; at: 'fromPort' | 'toPort'; other: Box }[]>();
  routes.forEach((ends, route) => {
    if (ends === undefined || ends.from === ends.to) return;
    for (const [own, other, side, at] of [[ends.from, ends.to, ends.fromSide, 'fromPort'], [ends.to, ends.from, ends.toSide, 'toPort']] as const) {
      if (side === undefined || !spreads(own)) continue;
      const key = `${own}\u0000${side}`;
      bySide.set(key, [...(bySide.get(key) ?? []), { route, at, other: obstacles[other]! }]);
    }
  });
  const ports: EndPorts[] = routes.map(() => ({}));
  for (const [key, ends] of bySide) {
    if (ends.length < 2) continue;
    const [own, side] = key.split('\u0000') as [string, Side];
    const box = obstacles[Number(own)]!;
    const across = side === 'top' || side === 'bottom';
    const [lo, length] = across ? [box.x, box.width] : [box.y, box.height];
    const pitch = Math.min(PORT_PITCH_MAX, length / (ends.length + 1));
    if (pitch < PORT_PITCH_MIN) continue;
    const middle = lo + length / 2;
    const facing = side === 'top' ? -1 : side === 'bottom' ? 1 : side === 'left' ? -1 : 1;
    const edge = side === 'top' ? box.y : side === 'bottom' ? box.y + box.height : side === 'left' ? box.x : box.x + box.width;
    const angle = (other: Box) => {
      const [along, out] = across ? [other.x + other.width / 2, other.y + other.height / 2] : [other.y + other.height / 2, other.x + other.width / 2];
      return Math.atan2(along - middle, (out - edge) * facing);
    };
    // Stable: two edges between one pair keep the order they were given on both of their ends, so they do not cross.
    const ordered = [...ends].sort((a, b) => angle(a.other) - angle(b.other));
    ordered.forEach(({ route, at }, i) => (ports[route]![at] = { side, at: Math.round(middle + (i - (ordered.length - 1) / 2) * pitch) }));
  }
  return ports;
}
