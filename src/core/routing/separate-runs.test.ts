import { describe, expect, it } from 'vitest';
import { countCrossings, sharedRuns } from '../quality/check.js';
import { FAN_SPACING, RUN_SPACING, separateRuns } from './separate-runs.js';

// Two shapes on the left, two on the right, a channel between x = 100 and x = 300 that both routes go down.
const shapes = [
  { x: 0, y: 0, width: 100, height: 40 },
  { x: 0, y: 200, width: 100, height: 40 },
  { x: 300, y: 0, width: 100, height: 40 },
  { x: 300, y: 200, width: 100, height: 40 },
];
/** a → b on the left and c → d on the right: both go down the middle of the channel at x = 200, on one line. */
const crossing = [
  { points: [{ x: 100, y: 20 }, { x: 200, y: 20 }, { x: 200, y: 220 }, { x: 100, y: 220 }], ends: ['a', 'b'] },
  { points: [{ x: 300, y: 20 }, { x: 200, y: 20 }, { x: 200, y: 220 }, { x: 300, y: 220 }], ends: ['c', 'd'] },
];

describe('separating runs', () => {
  it('moves the shared legs of routes with different ends apart, and keeps their ends where they attach', () => {
    expect(sharedRuns(crossing.map((line) => line.points))).not.toEqual([]);
    const [one, two] = separateRuns(crossing, shapes);
    expect(sharedRuns([one!, two!])).toEqual([]);
    expect(Math.abs(one![1]!.x - two![1]!.x)).toBe(RUN_SPACING);
    for (const [moved, line] of [[one!, crossing[0]!], [two!, crossing[1]!]] as const) {
      expect(moved[0]).toEqual(line.points[0]);
      expect(moved[moved.length - 1]).toEqual(line.points[line.points.length - 1]);
      // Still right-angled.
      expect(moved.slice(1).every((p, i) => p.x === moved[i]!.x || p.y === moved[i]!.y)).toBe(true);
    }
  });

  it('sets the two ways of a back-and-forth pair wider apart than other runs, where the channel has room', () => {
    // a to b and b to a down one line (an orchestrator stage's pause and resume): at RUN_SPACING each head touched the other line.
    const there = { points: [{ x: 100, y: 20 }, { x: 200, y: 20 }, { x: 200, y: 220 }, { x: 100, y: 220 }], ends: ['a', 'b'], meaning: 'pause', slideEnds: true };
    const back = { points: [...there.points].reverse(), ends: ['b', 'a'], meaning: 'resume', slideEnds: true };
    const [one, two] = separateRuns([there, back], shapes);
    expect(Math.abs(one![1]!.x - two![1]!.x)).toBeGreaterThan(2 * RUN_SPACING);
    expect(sharedRuns([one!, two!])).toEqual([]);
    // Alike (neither labelled, a socket's Reading and Connected) they are still two arrows, not one trunk with two heads.
    const [plain, plainBack] = separateRuns([{ ...there, meaning: '' }, { ...back, meaning: '' }], shapes);
    expect(sharedRuns([plain!, plainBack!])).toEqual([]);
  });

  it('parts an arrow into a point of a shape from one leaving that point, however short the shared stretch', () => {
    // A refresh token's "Yes" into a decision's left corner and its "No — genuine reuse" out of the same corner:
    // 36 px of one line, under the mixed-trunk length, read as one line through the decision.
    const decision = { x: 200, y: 0, width: 100, height: 40 };
    const above = { x: 0, y: -200, width: 100, height: 40 };
    const below = { x: 0, y: 200, width: 100, height: 40 };
    const into = { points: [{ x: 50, y: -160 }, { x: 50, y: 20 }, { x: 200, y: 20 }], ends: ['above', 'decision'], slideEnds: true, meaning: 'Yes' };
    const out = { points: [{ x: 200, y: 20 }, { x: 164, y: 20 }, { x: 164, y: 220 }, { x: 100, y: 220 }], ends: ['decision', 'below'], slideEnds: true, meaning: 'No' };
    const [a, b] = separateRuns([into, out], [decision, above, below]);
    expect(a![a!.length - 1]).not.toEqual(b![0]);
    expect(sharedRuns([a!, b!])).toEqual([]);
  });

  it('puts each leg on the side its shapes are, so the legs into the shapes do not overlap or cross', () => {
    const [one, two] = separateRuns(crossing, shapes);
    expect(one![1]!.x).toBeLessThan(two![1]!.x);
    expect(countCrossings([one!, two!])).toBe(0);
  });

  it('leaves routes that share an end together, as a trunk', () => {
    const trunk = crossing.map((line, i) => ({ ...line, ends: i === 0 ? ['a', 'b'] : ['c', 'b'] }));
    expect(separateRuns(trunk, shapes)).toEqual(trunk.map((line) => line.points));
  });

  it('moves apart routes into one shape that say different things, past a short merge; alike ones stay a trunk', () => {
    const trunk = crossing.map((line, i) => ({ ...line, ends: i === 0 ? ['a', 'b'] : ['c', 'b'] }));
    const labelled = trunk.map((line, i) => ({ ...line, meaning: i === 0 ? 'approves' : 'rejects' }));
    const [one, two] = separateRuns(labelled, shapes);
    expect(sharedRuns([one!, two!])).toEqual([]);
    const alike = trunk.map((line) => ({ ...line, meaning: 'depends on' }));
    expect(separateRuns(alike, shapes)).toEqual(alike.map((line) => line.points));
  });

  it('moves apart two relations out of one shape whose middle legs meet on one line away from it, however short (Northwind’s orders)', () => {
    // Orders' ship_via jogs down into shippers on the line employee_id takes down to employees, for 20 px: read as one
    // line going on to either table, not as a fan out of orders.
    const tables = [
      { x: 0, y: 0, width: 100, height: 200 },
      { x: 300, y: 100, width: 100, height: 40 },
      { x: 300, y: 300, width: 100, height: 200 },
    ];
    const keys = [
      { points: [{ x: 100, y: 60 }, { x: 280, y: 60 }, { x: 280, y: 120 }, { x: 300, y: 120 }], ends: ['orders', 'shippers'], meaning: 'ship_via' },
      { points: [{ x: 100, y: 100 }, { x: 280, y: 100 }, { x: 280, y: 400 }, { x: 300, y: 400 }], ends: ['orders', 'employees'], meaning: 'employee_id' },
    ];
    const [shipVia, employeeId] = separateRuns(keys, tables);
    expect(shipVia![1]!.x).not.toBe(employeeId![1]!.x);
  });

  it('slides a layout\'s ends along their sides, moving a hub\'s trunk as one, when the shared legs are end legs', () => {
    // A sits above B with a straight edge between them; A's edge to D leaves A's bottom middle, where E's edge into B
    // arrives: 50 px of one line that reads as A → B twice. Every leg here ends on a shape.
    const boxes = { a: { x: 0, y: 0, width: 100, height: 40 }, e: { x: 250, y: 0, width: 100, height: 40 }, b: { x: 0, y: 300, width: 100, height: 40 }, d: { x: 250, y: 300, width: 100, height: 40 } };
    const lines = [
      { points: [{ x: 50, y: 40 }, { x: 50, y: 300 }], ends: ['a', 'b'], slideEnds: true },
      { points: [{ x: 50, y: 40 }, { x: 50, y: 150 }, { x: 300, y: 150 }, { x: 300, y: 300 }], ends: ['a', 'd'], slideEnds: true },
      { points: [{ x: 300, y: 40 }, { x: 300, y: 100 }, { x: 50, y: 100 }, { x: 50, y: 300 }], ends: ['e', 'b'], slideEnds: true },
    ];
    expect(sharedRuns(lines.map((line) => line.points))).toContainEqual({ a: 1, b: 2, length: 50 });
    // As drawn by a layout that fixes its ends, nothing can move.
    const fixed = lines.map(({ points, ends }) => ({ points, ends }));
    expect(separateRuns(fixed, Object.values(boxes))).toEqual(fixed.map((line) => line.points));

    const [ab, ad, eb] = separateRuns(lines, Object.values(boxes));
    expect(sharedRuns([ad!, eb!])).toEqual([]);
    // A's two edges still leave from one point, straight down; the ends stay on the sides they were on.
    expect(ab![0]).toEqual(ad![0]);
    expect(ab![0]!.x).toBe(ab![1]!.x);
    for (const [point, box] of [[ab![0]!, boxes.a], [ab![1]!, boxes.b], [eb![3]!, boxes.b]] as const) {
      expect(point.x).toBeGreaterThan(box.x);
      expect(point.x).toBeLessThan(box.x + box.width);
    }
    // Two arrows reaching one side spread along it (FAN_SPACING): at RUN_SPACING their heads touched.
    expect(Math.abs(ab![1]!.x - eb![3]!.x)).toBe(FAN_SPACING);
  });

  it('moves a new route off one drawn already, which keeps every point', () => {
    // c → d is a stored arrow (fixed); a → b, routed now, went down its middle leg.
    const lines = [crossing[0]!, { ...crossing[1]!, fixed: true }];
    const [moved, kept] = separateRuns(lines, shapes);
    expect(kept).toEqual(crossing[1]!.points);
    expect(sharedRuns([moved!, kept!])).toEqual([]);
    // On its own side of the drawn leg, one spacing away; its ends where they attach.
    expect(moved![1]!.x).toBe(200 - RUN_SPACING);
    expect([moved![0], moved![3]]).toEqual([crossing[0]!.points[0], crossing[0]!.points[3]]);
    // Two drawn lines running together stay as they are: neither is the new one.
    const both = crossing.map((line) => ({ ...line, fixed: true }));
    expect(separateRuns(both, shapes)).toEqual(crossing.map((line) => line.points));
  });

  it('squeezes the legs into a narrow channel without grazing the shapes on either side', () => {
    /** Shapes left and right of x = 200, `gap` apart, and a → b, c → d both down the middle. */
    const channel = (gap: number) => {
      const [left, right] = [200 - gap / 2, 200 + gap / 2];
      const shapes = [0, 200].flatMap((y) => [{ x: 0, y, width: left, height: 40 }, { x: right, y, width: 100, height: 40 }]);
      const lines = [
        { points: [{ x: left, y: 20 }, { x: 200, y: 20 }, { x: 200, y: 220 }, { x: left, y: 220 }], ends: ['a', 'b'] },
        { points: [{ x: right, y: 20 }, { x: 200, y: 20 }, { x: 200, y: 220 }, { x: right, y: 220 }], ends: ['c', 'd'] },
      ];
      return { shapes, lines };
    };
    // 16 px between the shapes, 6 px kept from each: 4 px, room for two legs 4 px apart.
    const narrow = channel(16);
    const [one, two] = separateRuns(narrow.lines, narrow.shapes);
    expect([one![1]!.x, two![1]!.x]).toEqual([198, 202]);
    // 12 px between them: no room at all, and the legs stay where they were.
    const closed = channel(12);
    expect(separateRuns(closed.lines, closed.shapes)).toEqual(closed.lines.map((line) => line.points));
  });

  it("moves apart two relations between one pair of tables whose own labels hug their shared leg, the labels moving with them", () => {
    // AdventureWorks: SalesOrderHeader's BillToAddressID and ShipToAddressID to Address, routed alike, each end label
    // 4 px off the shared leg, one above and one below: each line's label hemmed the other in, one line for 1,141 px.
    const [header, address] = [{ x: 1290, y: 1834, width: 432, height: 231 }, { x: 2779, y: 749, width: 196, height: 109 }];
    const route = [{ x: 1722, y: 1944 }, { x: 2484, y: 1944 }, { x: 2484, y: 804 }, { x: 2779, y: 804 }];
    const [billTo, shipTo] = [{ x: 2091, y: 1922, width: 24, height: 18 }, { x: 2091, y: 1948, width: 24, height: 18 }];
    const lines = [
      { points: route, ends: ['header', 'address'], slideEnds: true, meaning: 'BillToAddressID', own: [billTo] },
      { points: route, ends: ['header', 'address'], slideEnds: true, meaning: 'ShipToAddressID', own: [shipTo] },
    ];
    const [bill, ship] = separateRuns(lines, [header, address, billTo, shipTo]);
    // The legs out of the header are apart, each on the side of its own label.
    expect(bill![0]!.y).toBeLessThan(ship![0]!.y);
    expect(Math.abs(bill![0]!.y - ship![0]!.y)).toBeGreaterThanOrEqual(RUN_SPACING);
    // Without their own labels set apart, each is a wall to its line: nothing moves.
    const hemmed = separateRuns(lines.map(({ own: _, ...line }) => line), [header, address, billTo, shipTo]);
    expect(hemmed[0]![0]!.y).toBe(hemmed[1]![0]!.y);
  });

  it('parts the foreign keys leaving one side of a table by their cardinalities’ width, each label by its own end (Chinook’s track)', () => {
    // Track's three keys leave its bottom middle, where the router ends every route, and turn to album, genre and
    // media type below: heads 10 px apart left their "0..*" on one another.
    const track = { x: 200, y: 0, width: 200, height: 100 };
    const below = [0, 300, 600].map((x) => ({ x, y: 300, width: 150, height: 60 }));
    const cardinality = { width: 30, height: 18 };
    const lines = below.map((box, i) => ({
      points: [{ x: 300, y: 100 }, { x: 300, y: 200 }, { x: box.x + 75, y: 200 }, { x: box.x + 75, y: 300 }],
      ends: ['track', `t${i}`],
      slideEnds: true,
      meaning: `key ${i}`,
      endLabel: cardinality,
    }));
    const starts = separateRuns(lines, [track, ...below]).map((points) => points[0]!.x).sort((a, b) => a - b);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(cardinality.width);
  });

  it('parts two labelled ends at one point though their routes part at once (Chinook’s invoice line)', () => {
    const line = { x: 200, y: 0, width: 200, height: 100 };
    const [invoice, track] = [{ x: 0, y: 300, width: 150, height: 60 }, { x: 450, y: 300, width: 150, height: 60 }];
    const lines = [invoice, track].map((box, i) => ({
      points: [{ x: 300, y: 100 }, { x: 300, y: 112 }, { x: box.x + 75, y: 112 }, { x: box.x + 75, y: 300 }],
      ends: ['line', `t${i}`],
      slideEnds: true,
      meaning: `key ${i}`,
      endLabel: { width: 30, height: 18 },
    }));
    const [a, b] = separateRuns(lines, [line, invoice, track]);
    expect(Math.abs(a![0]!.x - b![0]!.x)).toBeGreaterThanOrEqual(30);
  });
});
