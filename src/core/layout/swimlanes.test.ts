import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { plantumlNotation } from '../notations/plantuml/index.js';
import { layoutEngineFor } from './engine.js';

const uml = (lines: string[]) => `@startuml\n${lines.join('\n')}\n@enduml\n`;

describe('PlantUML swimlanes as columns (issue 27, eclipse-tractusx IRS supply-chain activity)', () => {
  // The flow crosses from lane to lane and back, as the IRS notification flow does between the OEM and its supplier.
  const code = uml([
    '|OEM - IRS|',
    'start',
    ':register investigation job;',
    ':create supplier-request;',
    '|DiscoveryService|',
    ':return EDCBaseUrl for passed BPN;',
    '|OEM - IRS|',
    ':send supplier-request notification;',
    '|Tier 1 - SubmodelServer|',
    ':response 201 on success;',
    ':send supplier-response notification;',
    '|OEM - IRS|',
    ':receive supplier-response over callbackUrl;',
    'stop',
  ]);

  it('puts the lanes side by side in the order written, full height, each step inside its own lane', async () => {
    const graph = plantumlNotation.toGraph(code);
    const laid = await layoutEngineFor(graph)(graph);
    const lanes = graph.groups.map((group) => laid.groups.find((laidGroup) => laidGroup.id === group.id)!);
    expect(lanes.map((lane) => lane.y)).toEqual([0, 0, 0]);
    for (let i = 1; i < lanes.length; i++) expect(lanes[i]!.x).toBeCloseTo(lanes[i - 1]!.x + lanes[i - 1]!.width);
    for (const node of graph.nodes) {
      const box = laid.nodes.find((laidNode) => laidNode.id === node.id)!;
      const lane = laid.groups.find((group) => group.id === node.parent)!;
      expect(box.x).toBeGreaterThanOrEqual(lane.x);
      expect(box.x + box.width).toBeLessThanOrEqual(lane.x + lane.width);
      expect(box.y + box.height).toBeLessThanOrEqual(lane.y + lane.height);
    }
  });

  it('runs the flow down the page in the order written, each edge from its step to the next', async () => {
    const graph = plantumlNotation.toGraph(code);
    const laid = await layoutEngineFor(graph)(graph);
    const top = (label: string) => laid.nodes.find((node) => node.id === graph.nodes.find((n) => n.label === label)!.id)!.y;
    const steps = ['register investigation job', 'create supplier-request', 'return EDCBaseUrl for passed BPN', 'send supplier-request notification', 'response 201 on success', 'send supplier-response notification', 'receive supplier-response over callbackUrl'];
    for (let i = 1; i < steps.length; i++) expect(top(steps[i]!)).toBeGreaterThan(top(steps[i - 1]!));
    for (const edge of laid.edges) {
      const { from, to } = graph.edges[edge.index]!;
      const [a, b] = [laid.nodes.find((node) => node.id === from)!, laid.nodes.find((node) => node.id === to)!];
      const [first, last] = [edge.points[0]!, edge.points[edge.points.length - 1]!];
      // Each end on its shape's outline (within a hair), so the arrow reads from step to step.
      expect(first.x).toBeGreaterThanOrEqual(a.x - 2);
      expect(first.x).toBeLessThanOrEqual(a.x + a.width + 2);
      expect(last.y).toBeGreaterThanOrEqual(b.y - 2);
      expect(last.y).toBeLessThanOrEqual(b.y + b.height + 2);
    }
  });
});

describe('PlantUML partitions the flow leaves its lane in (issue 27: one box per lane, as PlantUML draws them)', () => {
  const code = uml(['|Customer|', 'start', ':Browse;', 'partition Checkout {', '  :Fill cart;', '  |Shop|', '  :Reserve stock;', '  :Charge card;', '  |Customer|', '  :Confirm;', '}', '|Shop|', ':Ship;', 'stop']);
  const graph = plantumlNotation.toGraph(code);
  const byLabel = (label: string) => graph.nodes.find((node) => node.label === label)!;

  it('keeps each step in the lane it was written in, inside that lane’s part of the partition', () => {
    const lane = (name: string) => graph.groups.find((group) => group.kind === 'swimlane' && group.label === name)!.id;
    const partIn = (name: string) => graph.groups.find((group) => group.label === 'Checkout' && group.parent === lane(name))!;
    expect(partIn('Shop').continues).toBe(partIn('Customer').id);
    expect(['Fill cart', 'Confirm'].map((label) => byLabel(label).parent)).toEqual([partIn('Customer').id, partIn('Customer').id]);
    expect(['Reserve stock', 'Charge card'].map((label) => byLabel(label).parent)).toEqual([partIn('Shop').id, partIn('Shop').id]);
  });

  it('frames each part round its steps, within its lane, all parts as high, the flow still running down in order', async () => {
    const laid = await layoutEngineFor(graph)(graph);
    const box = (id: string) => [...laid.nodes, ...laid.groups].find((item) => item.id === id)!;
    const parts = graph.groups.filter((group) => group.label === 'Checkout').map((group) => ({ frame: box(group.id), lane: box(group.parent!), members: graph.nodes.filter((node) => node.parent === group.id).map((node) => box(node.id)) }));
    expect(parts).toHaveLength(2);
    expect(parts[0]!.frame.y).toBe(parts[1]!.frame.y);
    expect(parts[0]!.frame.height).toBe(parts[1]!.frame.height);
    for (const { frame, lane, members } of parts) {
      expect(frame.x).toBeGreaterThanOrEqual(lane.x);
      expect(frame.x + frame.width).toBeLessThanOrEqual(lane.x + lane.width);
      for (const member of members) {
        expect(member.x).toBeGreaterThan(frame.x);
        expect(member.x + member.width).toBeLessThan(frame.x + frame.width);
        expect(member.y).toBeGreaterThan(frame.y);
        expect(member.y + member.height).toBeLessThan(frame.y + frame.height);
      }
    }
    const steps = ['Browse', 'Fill cart', 'Reserve stock', 'Charge card', 'Confirm', 'Ship'].map((label) => box(byLabel(label).id).y);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
  });
});

describe('PlantUML nested partitions the flow leaves its lane in', () => {
  it('frames the inner partition inside the outer one in every lane it reaches, as PlantUML does', async () => {
    const graph = plantumlNotation.toGraph(uml(['|A|', 'start', 'partition Outer {', '  :a1;', '  partition Inner {', '    :a2;', '    |B|', '    if (ok?) then (yes)', '      :b1;', '    else (no)', '      |C|', '      :c1;', '    endif', '  }', '  |A|', '  :a3;', '}', 'stop']));
    const laid = await layoutEngineFor(graph)(graph);
    const frame = (label: string, lane: string) => {
      const laneId = graph.groups.find((group) => group.kind === 'swimlane' && group.label === lane)!.id;
      const inLane = (id: string | undefined): boolean => id === laneId || (id !== undefined && inLane(graph.groups.find((group) => group.id === id)?.parent));
      const group = graph.groups.find((g) => g.label === label && inLane(g.parent))!;
      return laid.groups.find((g) => g.id === group.id)!;
    };
    for (const lane of ['A', 'B', 'C']) {
      const [outer, inner] = [frame('Outer', lane), frame('Inner', lane)];
      expect(inner.x).toBeGreaterThan(outer.x);
      expect(inner.x + inner.width).toBeLessThan(outer.x + outer.width);
      expect(inner.y).toBeGreaterThan(outer.y);
      expect(inner.y + inner.height).toBeLessThan(outer.y + outer.height);
    }
  });
});

describe('PlantUML swimlanes whose flow Graphviz places (IRS ESR certificate activity)', () => {
  // Notes beside steps ask for a side (`toward`), which sends the flow to Graphviz: the lanes were then drawn as boxes
  // round wherever their steps fell, IRS's four steps a box beside the main column, SupplyOnAPI a box half-way down.
  const code = readFileSync(new URL('../../../test/fixtures/plantuml-open/irs-esr-certificates-activity.puml', import.meta.url), 'utf8');

  it('still draws the lanes as full-height columns side by side, each step in its own lane', async () => {
    const graph = plantumlNotation.toGraph(code);
    const laid = await layoutEngineFor(graph, 'plantuml')(graph);
    const top = graph.groups.filter((group) => group.parent === undefined);
    const lanes = top.map((group) => laid.groups.find((laidGroup) => laidGroup.id === group.id)!);
    expect(lanes).toHaveLength(4);
    expect(lanes.map((lane) => lane.y)).toEqual([0, 0, 0, 0]);
    expect(new Set(lanes.map((lane) => lane.height)).size).toBe(1);
    for (let i = 1; i < lanes.length; i++) expect(lanes[i]!.x).toBeCloseTo(lanes[i - 1]!.x + lanes[i - 1]!.width);
    const parentOf = new Map([...graph.groups, ...graph.nodes].map((item) => [item.id, item.parent]));
    const laneOf = (id: string): string => (parentOf.get(id) === undefined ? id : laneOf(parentOf.get(id)!));
    for (const node of laid.nodes) {
      const lane = lanes.find((laidLane) => laidLane.id === laneOf(node.id))!;
      expect(node.x).toBeGreaterThanOrEqual(lane.x);
      expect(node.x + node.width).toBeLessThanOrEqual(lane.x + lane.width);
    }
  });
});
