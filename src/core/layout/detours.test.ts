import { describe, expect, it } from 'vitest';
import { mermaidNotation } from '../notations/mermaid/index.js';
import { plantumlNotation } from '../notations/plantuml/index.js';
import { terraformNotation } from '../notations/terraform/index.js';
import { boxesOverlap } from '../export/geometry.js';
import { besideRoute, BoxGrid, crosses, RouteLegs } from './detours.js';
import { layoutGraph } from './elk.js';
import type { Box, Point } from './types.js';

/** A VPC whose elastic IP, outside it, depends on the internet gateway inside it (terraform-aws-vpc's NAT pattern). */
const NAT_BEHIND_GATEWAY = `resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "public" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.1.0/24"
}
resource "aws_subnet" "private" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.2.0/24"
}
resource "aws_internet_gateway" "gw" {
  vpc_id = aws_vpc.main.id
}
resource "aws_route_table" "public" {
  vpc_id = aws_vpc.main.id
  route {
    cidr_block = "0.0.0.0/0"
    gateway_id = aws_internet_gateway.gw.id
  }
}
resource "aws_route_table_association" "public" {
  subnet_id      = aws_subnet.public.id
  route_table_id = aws_route_table.public.id
}
resource "aws_eip" "nat" {
  domain     = "vpc"
  depends_on = [aws_internet_gateway.gw]
}
resource "aws_nat_gateway" "nat" {
  allocation_id = aws_eip.nat.id
  subnet_id     = aws_subnet.public.id
}
resource "aws_route_table" "private" {
  vpc_id = aws_vpc.main.id
  route {
    cidr_block     = "0.0.0.0/0"
    nat_gateway_id = aws_nat_gateway.nat.id
  }
}
resource "aws_route_table_association" "private" {
  subnet_id      = aws_subnet.private.id
  route_table_id = aws_route_table.private.id
}
`;

const length = (points: readonly Point[]) => points.slice(1).reduce((sum, p, i) => sum + Math.abs(p.x - points[i]!.x) + Math.abs(p.y - points[i]!.y), 0);

/** Distance from a point to a right-angle leg. */
function toLeg(p: Point, a: Point, b: Point): number {
  const x = Math.min(Math.max(p.x, Math.min(a.x, b.x)), Math.max(a.x, b.x));
  const y = Math.min(Math.max(p.y, Math.min(a.y, b.y)), Math.max(a.y, b.y));
  return Math.hypot(p.x - x, p.y - y);
}

describe('rerouteDetours', () => {
  it('draws an edge that ELK led round the outside of a container by a short way, its label beside the new route', async () => {
    const graph = await terraformNotation.toGraph(NAT_BEHIND_GATEWAY);
    const laid = await layoutGraph(graph);
    const index = graph.edges.findIndex((edge) => edge.from === 'aws_eip.nat' && edge.to === 'aws_internet_gateway.gw');
    expect(index).toBeGreaterThanOrEqual(0);
    const edge = laid.edges.find((e) => e.index === index)!;
    const [eip, gateway] = ['aws_eip.nat', 'aws_internet_gateway.gw'].map((id) => laid.nodes.find((node) => node.id === id)!);
    const walk = Math.abs(eip!.x + eip!.width / 2 - (gateway!.x + gateway!.width / 2)) + Math.abs(eip!.y + eip!.height / 2 - (gateway!.y + gateway!.height / 2));
    // ELK's route went up past the VPC's top and back down its side: 2,000 px for a 560 px walk.
    expect(length(edge.points)).toBeLessThan(1.5 * walk);
    const [label] = edge.labels;
    expect(label?.text).toBe('depends on');
    // Beside the new route: its centre within half its size (and a gap) of a leg.
    const centre = { x: label!.x + label!.width / 2, y: label!.y + label!.height / 2 };
    const distance = Math.min(...edge.points.slice(1).map((b, k) => toLeg(centre, edge.points[k]!, b)));
    expect(distance).toBeLessThan(Math.max(label!.width, label!.height) / 2 + 12);
  });

  it('puts the labels of two rerouted back edges into one state beside each other, not on one spot', async () => {
    // Two states far down a chain each go back to the first one with a long label: ELK leads both round the outside,
    // both are drawn again up one side, and the second label was placed where the first already sat.
    const graph = await mermaidNotation.toGraph(`stateDiagram-v2
      [*] --> idle
      idle --> held: a stop arrives while an order may still run
      held --> held: the new order could not be sent
      held --> releasing: new order sent, or the deadline passed
      releasing --> releasing: no answer yet, retry
      releasing --> released: resume sent, or not needed
      releasing --> idle: the operator paused the vehicle
      released --> idle: vehicle reports running, or deadline passed`);
    const laid = await layoutGraph(graph);
    const labels = laid.edges.flatMap((edge) => edge.labels).filter((label) => label.text.trim() !== '');
    const overlapping = labels.flatMap((a, i) => labels.slice(i + 1).filter((b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height).map((b) => [a.text, b.text]));
    expect(overlapping).toEqual([]);
  });
});

describe('an edge ELK leads out of its source away from its target (java-design-patterns commander)', () => {
  // Commander uses each service, and each service, in a package of its own, extends Service beside Commander: the
  // service packages sit below, and ELK led every `--|> Service` out of the service's bottom and round its package.
  const code = [
    '@startuml',
    'package app {',
    '  class Commander',
    '  class Service',
    '  class Database',
    '}',
    ...['payment', 'shipping', 'messaging'].flatMap((name) => [`package ${name} {`, `  class ${name}Service`, `  class ${name}Database`, '}']),
    ...['payment', 'shipping', 'messaging'].flatMap((name) => [`Commander --> "-${name}" ${name}Service`, `${name}Service --|> Service`, `${name}Database --|> Database`]),
    'Service --> Database',
    '@enduml',
  ].join('\n');

  it('is drawn again from the side facing its target, no longer than a walk between them and a little', async () => {
    const graph = plantumlNotation.toGraph(code);
    const laid = await layoutGraph(graph);
    const box = (id: string) => laid.nodes.find((node) => node.id === id)!;
    const centre = (id: string): Point => ({ x: box(id).x + box(id).width / 2, y: box(id).y + box(id).height / 2 });
    let checked = 0;
    for (const edge of laid.edges) {
      const { from, to } = graph.edges[edge.index]!;
      if (graph.edges[edge.index]!.endArrowhead !== 'triangle-outline') continue;
      checked++;
      const [a, b] = [centre(from), centre(to)];
      expect(length(edge.points), `${from} --|> ${to}`).toBeLessThanOrEqual(1.2 * (Math.abs(a.x - b.x) + Math.abs(a.y - b.y)) + 600);
    }
    expect(checked).toBe(6);
  });
});

describe('besideRoute', () => {
  it('puts a label beside a leg of its own route, not on a trunk another route runs along (kube-prometheus-stack: "runs runs")', () => {
    // The operator's two "runs" arrows leave it on one line, then part: one down to Prometheus, one on to Alertmanager.
    const toPrometheus: Point[] = [
      { x: 220, y: 230 },
      { x: 430, y: 230 },
      { x: 430, y: 380 },
    ];
    const toAlertmanager: Point[] = [
      { x: 220, y: 230 },
      { x: 490, y: 230 },
      { x: 490, y: 172 },
      { x: 700, y: 172 },
    ];
    const label = { text: 'runs', x: 0, y: 0, width: 40, height: 18, placement: 'center' } as const;
    const first = besideRoute(label, toPrometheus, [], new RouteLegs([toAlertmanager]));
    const second = besideRoute(label, toAlertmanager, [first], new RouteLegs([toPrometheus]));
    // Beside the drop to Prometheus and the last leg to Alertmanager, where the trunk had both, side by side.
    expect(first.x).toBeGreaterThan(430);
    expect(first.y).toBeGreaterThan(230);
    expect(second.x).toBeGreaterThan(490);
    expect(second.y + second.height).toBeLessThanOrEqual(172);
  });

  it('finds room for the labels of three foreign keys run side by side between two tables, none on another (Camunda: batch → job definition)', () => {
    // Three routes 8 px apart from one table's side to the next table's, each with its column's name as middle label.
    const tables = [
      { x: -200, y: 60, width: 200, height: 100 },
      { x: 300, y: 60, width: 200, height: 100 },
    ];
    const routes: Point[][] = [100, 108, 116].map((y) => [
      { x: 0, y },
      { x: 300, y },
    ]);
    const taken: Box[] = [...tables];
    const placed = ['SEED_JOB_DEF_ID_', 'MONITOR_JOB_DEF_ID_', 'BATCH_JOB_DEF_ID_'].map((text, i) => {
      const label = besideRoute({ text, x: 0, y: 0, width: 140, height: 18, placement: 'center' }, routes[i]!, taken, new RouteLegs(routes.filter((_, k) => k !== i)));
      taken.push(label);
      return label;
    });
    for (const [i, label] of placed.entries()) {
      for (const other of [...tables, ...placed.slice(i + 1)]) expect(boxesOverlap(label, other), `${label.text} on another`).toBe(false);
    }
  });
});

describe('crosses', () => {
  it('tells a slanted leg (a note’s leader) from a box in the corner of its bounding box, which it misses', () => {
    // The leader of an order lifecycle's note ran from Fork_PostPayment down to the note; a transition's label
    // beside it, under the leader's bounding box but clear of the line, was held off as if crossed.
    const [p, q] = [{ x: 240, y: 690 }, { x: 505, y: 780 }];
    expect(crosses(p, q, { x: 250, y: 740, width: 120, height: 20 })).toBe(false);
    expect(crosses(p, q, { x: 360, y: 720, width: 60, height: 20 })).toBe(true);
    expect(crosses({ x: 0, y: 10 }, { x: 100, y: 10 }, { x: 40, y: 0, width: 20, height: 20 })).toBe(true);
  });
});

describe('BoxGrid', () => {
  it('answers as a test of every box: boxes across cells, on cell borders, at negative places, touching but not overlapping', () => {
    // Boxes on and across the 128 px cells, some touching each other edge to edge (not an overlap), some far off.
    const boxes: Box[] = [
      { x: 0, y: 0, width: 128, height: 128 },
      { x: -300, y: -40, width: 20, height: 500 },
      { x: 250, y: 250, width: 600, height: 18 },
      { x: 1000, y: 5, width: 1, height: 1 },
    ];
    const grid = new BoxGrid(boxes);
    const places: Box[] = [];
    for (let x = -400; x <= 1100; x += 37) for (let y = -100; y <= 600; y += 29) for (const [width, height] of [[1, 1], [60, 18], [128, 128], [300, 40]] as const) places.push({ x, y, width, height });
    places.push({ x: 128, y: 0, width: 10, height: 10 }, { x: 0, y: 128, width: 10, height: 10 }, { x: -280, y: 0, width: 5, height: 5 });
    const disagree = places.filter((place) => grid.overlaps(place) !== boxes.some((box) => boxesOverlap(place, box)));
    expect(disagree).toEqual([]);
    // A box added later counts as those given at first.
    grid.add({ x: 500, y: 500, width: 40, height: 40 });
    expect(grid.overlaps({ x: 530, y: 530, width: 100, height: 100 })).toBe(true);
    expect(grid.overlaps({ x: 540, y: 540, width: 100, height: 100 })).toBe(false);
  });
});
