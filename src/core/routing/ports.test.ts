import { describe, expect, it } from 'vitest';
import { sidePorts } from './ports.js';

// A hub and three sources in the rank above it, left to right, and one far to the left a rank below the others.
const hub = { x: 200, y: 200, width: 120, height: 40 };
const obstacles = [hub, { x: 0, y: 0, width: 80, height: 40 }, { x: 200, y: 0, width: 80, height: 40 }, { x: 400, y: 0, width: 80, height: 40 }, { x: 0, y: 100, width: 80, height: 40 }];

describe('ports spread along a side', () => {
  it('spreads the ends meant for one side evenly about its middle, in the order their other ends lie', () => {
    const ports = sidePorts(obstacles, [3, 1, 2].map((from) => ({ from, to: 0, toSide: 'top' as const })), () => true);
    expect(ports.map((end) => end.toPort)).toEqual([{ side: 'top', at: 290 }, { side: 'top', at: 230 }, { side: 'top', at: 260 }]);
    expect(ports.every((end) => end.fromPort === undefined)).toBe(true);
  });

  it('sets the source lying more steeply above a node’s left side on the upper port, so the two routes do not cross', () => {
    // Both lie above and left of the side's middle, as far out: the higher one's route turns down into the side above the other's.
    const left = sidePorts(obstacles, [1, 4].map((from) => ({ from, to: 0, toSide: 'left' as const })), () => true);
    expect(left.map((end) => end.toPort!.at)).toEqual([213, 227]);
  });

  it('leaves a side with one end, a side too short for its ends and an obstacle not spread at the middle', () => {
    const one = sidePorts(obstacles, [{ from: 1, to: 0, toSide: 'top' }, { from: 2, to: 0, toSide: 'left' }], () => true);
    expect(one).toEqual([{}, {}]);
    const short = { ...hub, height: 30 };
    expect(sidePorts([short, ...obstacles.slice(1)], [1, 2, 3].map((from) => ({ from, to: 0, toSide: 'left' as const })), () => true)).toEqual([{}, {}, {}]);
    expect(sidePorts(obstacles, [1, 2].map((from) => ({ from, to: 0, toSide: 'top' as const })), (obstacle) => obstacle !== 0)).toEqual([{}, {}]);
  });
});
