import { describe, expect, it } from 'vitest';
import type { GraphIR } from '../graph/types.js';
import { CONTAINER_MIN_WIDTH, FONT, ROLE_COLORS } from '../layout/drawing-rules.js';
import { layoutGraph } from '../layout/elk.js';
import { checkScene } from '../quality/check.js';
import { figureBox } from './constants.js';
import { graphToScene, type GeneratedElement } from './from-graph.js';
import { intakeScene } from './intake.js';

const graph = (part: Partial<GraphIR>): GraphIR => ({ layout: 'layered', direction: 'DOWN', nodes: [], edges: [], groups: [], warnings: [], ...part });

async function draw(input: GraphIR) {
  const scene = graphToScene(input, await layoutGraph(input));
  return { ...scene, byId: new Map(scene.elements.map((element) => [element.id, element as GeneratedElement & Record<string, unknown>])) };
}

const shop = graph({
  groups: [{ id: 'net', label: 'network backend', kind: 'network' }],
  nodes: [
    { id: 'web', label: 'web', kind: 'service', iconHint: 'nginx' },
    { id: 'api', label: 'api', kind: 'service', parent: 'net' },
    { id: 'db', label: 'orders', kind: 'database', parent: 'net', iconRef: 'aws/Amazon RDS' },
    { id: 'start', label: 'is it up?', kind: 'decision' },
  ],
  edges: [
    { id: 'e1', from: 'web', to: 'api', label: 'REST' },
    { id: 'e2', from: 'api', to: 'db', startArrowhead: 'circle', endArrowhead: 'crows-foot', style: { strokeStyle: 'dashed' } },
    { id: 'e3', from: 'start', to: 'web' },
    { id: 'e4', from: 'web', to: 'net' },
  ],
});

describe('graphToScene', () => {
  it('draws containers as rectangles wider than 420 px with a standalone title text inside the top', async () => {
    const { byId, elementIds } = await draw(shop);
    const net = byId.get(elementIds.groups.get('net')!)!;
    expect(net.type).toBe('rectangle');
    expect(net.width).toBeGreaterThanOrEqual(CONTAINER_MIN_WIDTH);
    const title = [...byId.values()].find((element) => element.type === 'text' && element.text === 'network backend')!;
    expect(title.y).toBeGreaterThan(Number(net.y));
    expect(Number(title.y) + Number(title.height)).toBeLessThan(Number(byId.get('api')!.y));
  });

  it('draws the diagram title above everything, at the left edge, larger than container titles', async () => {
    const plain = await draw(shop);
    const { elements, byId, parents } = await draw({ ...shop, title: 'Shop backend' });
    const title = byId.get('diagram-title')!;
    expect(title).toMatchObject({ type: 'text', text: 'Shop backend', textAlign: 'left' });
    expect(title.fontSize).toBeGreaterThan(FONT.containerTitle);
    const rest = elements.filter((element) => element !== title);
    expect(title.x).toBe(Math.min(...rest.map((element) => Number(element.x))));
    expect(title.y).toBe(Math.min(...plain.elements.map((element) => Number(element.y))));
    // Everything else moved down as one, clear of the title; arrows and their points moved with their shapes.
    const shift = Number(byId.get('net')!.y) - Number(plain.byId.get('net')!.y);
    expect(Number(title.y) + Number(title.height)).toBeLessThan(Math.min(...rest.map((element) => Number(element.y))));
    for (const element of rest) {
      const before = plain.byId.get(element.id)!;
      expect(element.y).toBeCloseTo(Number(before.y) + shift, 1);
      if ('points' in element) expect(element.points).toEqual((before as typeof element).points!.map((p) => ({ x: p.x, y: expect.closeTo(p.y + shift, 1) })));
    }
    expect(checkScene(elements, parents).violations).toEqual([]);
    expect(intakeScene(elements).warnings).toEqual([]);
  });

  it('wraps a long title no wider than the drawing allows, and gives it an id of its own', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const { byId } = await draw(graph({ title: long, nodes: [{ id: 'diagram-title', label: 'a node', kind: 'service' }] }));
    expect(byId.get('diagram-title')!.type).toBe('rectangle');
    const title = byId.get('diagram-title-2')!;
    expect(String(title.text).split('\n').length).toBeGreaterThan(1);
    expect(String(title.text).replace(/\n/g, ' ')).toBe(long);
    expect(Number(title.width)).toBeLessThanOrEqual(CONTAINER_MIN_WIDTH * 2);
  });

  it('colours nodes by role and picks the shape from the kind', async () => {
    const { byId } = await draw(shop);
    expect(byId.get('db')).toMatchObject({ type: 'cylinder', text: 'orders', ...ROLE_COLORS.database, iconRef: 'aws/Amazon RDS' });
    expect(byId.get('api')).toMatchObject({ type: 'rectangle', corner: 'rounded', ...ROLE_COLORS.service });
    expect(byId.get('start')).toMatchObject({ type: 'diamond' });
  });

  it('puts a label drawn as a text of its own (a border colour that cannot carry it) under the node\'s icon, not across it (D2 grid-padding pods)', async () => {
    const { byId } = await draw(graph({ nodes: [{ id: 'pod', label: 'NEXT POD 1', kind: 'generic', iconRef: 'brands/Next.js', style: { strokeColor: '#aeb5bd', fillColor: '#ececec' } }] }));
    const box = byId.get('pod')!;
    const label = byId.get('pod-label')!;
    expect(box).toMatchObject({ iconRef: 'brands/Next.js' });
    expect(label).toMatchObject({ type: 'text', text: 'NEXT POD 1' });
    // The icon takes the top of the box (iconBand): the label starts below the box's middle and ends inside it.
    expect(label.y).toBeGreaterThan(box.y! + box.height! / 2);
    expect(label.y! + label.height!).toBeLessThanOrEqual(box.y! + box.height!);
  });

  it('keeps a label its author made invisible (D2 opacity 0: the docs\' pizza layers) invisible, not darkened to be read', async () => {
    const hidden = '#00000000';
    const { byId } = await draw(graph({ nodes: [{ id: 'garnish', label: 'Random garnish', kind: 'generic', style: { strokeColor: hidden, fillColor: hidden, textColor: hidden } }] }));
    const labelled = [...byId.values()].filter((e) => (e as { text?: string }).text === 'Random garnish');
    expect(labelled.map((e) => e.strokeColor)).toEqual([hidden]);
  });

  it('still writes a readable label on a shape drawn without a border (D2 stroke-width 0): only hidden text stays hidden', async () => {
    const { byId } = await draw(graph({ nodes: [{ id: 'cell', label: 'Tokyo', kind: 'generic', style: { strokeColor: '#00000000', fillColor: '#ffffff' } }] }));
    const labelled = [...byId.values()].filter((e) => (e as { text?: string }).text === 'Tokyo');
    expect(labelled.map((e) => e.strokeColor)).toEqual(['#1e1e1e']);
  });

  it('darkens a labelled shape whose role stroke (its text colour) would not read on its fill; a border colour the notation set is kept, its label a readable text of its own', async () => {
    const { byId } = await draw(
      graph({
        nodes: [
          { id: 'white', label: 'a0', kind: 'generic', style: { strokeColor: '#ffffff', fillColor: '#ffffff' } },
          { id: 'cm', label: 'settings', kind: 'config' },
          { id: 'dark', label: 'night', kind: 'generic', style: { strokeColor: '#000000', fillColor: '#212529' } },
          { id: 'svc', label: 'api', kind: 'service' },
        ],
      }),
    );
    expect(byId.get('white')).toMatchObject({ strokeColor: '#ffffff', fillColor: '#ffffff' });
    expect(byId.get('white')).not.toHaveProperty('text');
    expect(byId.get('white-label')).toMatchObject({ type: 'text', text: 'a0', strokeColor: '#1e1e1e', groupIds: ['white-box'] });
    expect(byId.get('cm')).toMatchObject({ strokeColor: '#1e1e1e', fillColor: ROLE_COLORS.config.fillColor });
    expect(byId.get('dark')).toMatchObject({ strokeColor: '#000000', fillColor: '#212529' });
    expect(byId.get('dark-label')).toMatchObject({ type: 'text', text: 'night', strokeColor: '#ffffff' });
    expect(byId.get('svc')).toMatchObject(ROLE_COLORS.service);
  });

  it("writes a person's label under its figure, on the paper, whatever the figure is filled with (Mermaid C4 UpdateElementStyle)", async () => {
    const { byId } = await draw(
      graph({
        nodes: [
          { id: 'red', label: 'Customer A\n[Person]', kind: 'user', shape: 'person', style: { strokeColor: '#ff0000', fillColor: '#808080', textColor: '#ff0000' } },
          { id: 'pale', label: 'Customer B\n[Person]', kind: 'user', shape: 'person', style: { strokeColor: '#ffff00', fillColor: '#808080' } },
        ],
      }),
    );
    // Red reads on white: the label stays on the shape, in red, where the renderer puts it under the figure.
    expect(byId.get('red')).toMatchObject({ type: 'person', text: 'Customer A\n[Person]', strokeColor: '#ff0000' });
    // Yellow does not: the label is a text of its own, under the figure, not across its middle.
    const pale = byId.get('pale')!;
    const label = byId.get('pale-label')!;
    expect(label).toMatchObject({ type: 'text', text: 'Customer B\n[Person]' });
    expect(label.y).toBeGreaterThanOrEqual(figureBox('person', pale as { x: number; y: number; width: number; height: number }).labelTop);
  });

  it("turns a line coming down beside a person's figure into the figure at its arms, not onto the name's shoulder in the air (a C4 bank customer)", async () => {
    // Three providers over a person whose name and description make its box 270 px wide: laid out side by side, the
    // outer two lines came down 75 px either side of the figure and ended on the top of its name.
    const customer = { id: 'user', label: 'Клиент банка\n[Person]\nПолучает критичные уведомления', kind: 'user' as const, shape: 'person' };
    const input = graph({
      nodes: [customer, ...['email', 'push', 'sms'].map((id) => ({ id, label: `${id} provider`, kind: 'external' as const }))],
      edges: ['email', 'push', 'sms'].map((id) => ({ id: `to-${id}`, from: id, to: 'user', label: id })),
    });
    const { elements, byId } = await draw(input);
    const person = byId.get('user')! as unknown as { x: number; y: number; width: number; height: number };
    const figure = figureBox('person', person);
    const ends = (elements.filter((element) => element.type === 'arrow') as Array<{ points: { x: number; y: number }[] }>).map((arrow) => arrow.points.at(-1)!);
    expect(ends).toHaveLength(3);
    for (const end of ends) {
      expect(end.x).toBeGreaterThanOrEqual(figure.x - 1);
      expect(end.x).toBeLessThanOrEqual(figure.x + figure.width + 1);
      expect(end.y).toBeLessThan(figure.labelTop);
    }
    expect(checkScene(intakeScene(elements).elements).violations).toEqual([]);
  });

  it('binds every arrow at both ends, where its end points touch the shapes', async () => {
    const { elements, byId } = await draw(shop);
    const arrows = elements.filter((element) => element.type === 'arrow') as Array<Extract<GeneratedElement, { type: 'arrow' }>>;
    expect(arrows).toHaveLength(4);
    for (const arrow of arrows) {
      const points = arrow.points!;
      for (const [binding, point] of [
        [arrow.startBinding!, points[0]!],
        [arrow.endBinding!, points[points.length - 1]!],
      ] as const) {
        const shape = byId.get(binding.elementId)!;
        expect(point.x).toBeCloseTo(Number(shape.x) + binding.focus!.x * Number(shape.width), 0);
        expect(point.y).toBeCloseTo(Number(shape.y) + binding.focus!.y * Number(shape.height), 0);
      }
      expect(arrow.arrowShape).toBe(['straight', 'elbow', 'multipoint'][Math.min(points.length, 4) - 2]);
    }
    expect(arrows[1]).toMatchObject({ startArrowhead: 'circle', endArrowhead: 'crows-foot', strokeStyle: 'dashed' });
    expect(arrows[0]).toMatchObject({ startArrowhead: 'none', endArrowhead: 'arrow' });
    // e4 ends on the container itself.
    expect(arrows[3]!.endBinding!.elementId).toBe('net');
  });

  it('ends arrows on a diamond where its outline is, not at the corner of its box', async () => {
    const { elements, byId } = await draw(shop);
    const arrow = elements.find((element) => element.id === 'e3') as Extract<GeneratedElement, { type: 'arrow' }>;
    const diamond = byId.get('start')!;
    const start = arrow.points![0]!;
    const [cx, cy, hw, hh] = [Number(diamond.x) + Number(diamond.width) / 2, Number(diamond.y) + Number(diamond.height) / 2, Number(diamond.width) / 2, Number(diamond.height) / 2];
    // On the outline |dx|/hw + |dy|/hh = 1.
    expect(Math.abs(start.x - cx) / hw + Math.abs(start.y - cy) / hh).toBeCloseTo(1, 1);
  });

  it('places edge labels as text elements that overlap no shape', async () => {
    const { elements, parents } = await draw(shop);
    expect(elements.find((element) => element.type === 'text' && element.text === 'REST')).toBeDefined();
    expect(checkScene(elements, parents).violations).toEqual([]);
  });

  it('keeps a final state\'s dot inside the composite state its ring is in, so the checker finds no overlap', async () => {
    // A composite state's own [*] end: the ring was in the composite, the bull's-eye's dot (a second ellipse) was not,
    // and the checker reported the composite overlapping that dot.
    const scene = await draw(
      graph({
        groups: [{ id: 'First', label: 'First', kind: 'generic' }],
        nodes: [
          { id: 'fir', label: 'fir', kind: 'generic', parent: 'First' },
          { id: 'First_end', label: '', kind: 'end', parent: 'First' },
        ],
        edges: [{ id: 'e', from: 'fir', to: 'First_end' }],
      }),
    );
    const dot = scene.elements.find((element) => element.id.endsWith('-dot'));
    expect(dot).toBeDefined();
    expect(scene.parents.get(dot!.id)).toBe(scene.parents.get(scene.elementIds.nodes.get('First_end')!));
    expect(checkScene(scene.elements, scene.parents).violations).toEqual([]);
  });

  it('draws a table as a box with a header, a rule and its rows as columns (keys, names, types) that move together', async () => {
    const { elements } = await draw(graph({ nodes: [{ id: 'users', label: 'users', kind: 'entity', rows: ['PK    id  int', '      email_address  text', 'FK    team_id  bigint'] }] }));
    const [box, header, rule, keys, names, types] = elements as [GeneratedElement, GeneratedElement, GeneratedElement, GeneratedElement, GeneratedElement, GeneratedElement];
    expect(box).toMatchObject({ id: 'users', type: 'rectangle' });
    expect(box!.text).toBeUndefined();
    expect(header).toMatchObject({ type: 'text', text: 'users' });
    expect(rule).toMatchObject({ type: 'line' });
    // A column a text, a line a row: each type starts at one x, past the longest name.
    expect(keys).toMatchObject({ type: 'text', text: 'PK\n\nFK', textAlign: 'left' });
    expect(names).toMatchObject({ type: 'text', text: 'id\nemail_address\nteam_id', textAlign: 'left' });
    expect(types).toMatchObject({ type: 'text', text: 'int\ntext\nbigint', textAlign: 'left' });
    const right = (e: GeneratedElement) => Number(e.x) + Number(e.width);
    expect(Number(names.x)).toBeGreaterThan(right(keys));
    expect(Number(types.x)).toBeGreaterThan(right(names));
    expect(names.y).toBe(keys.y);
    expect(types.y).toBe(keys.y);
    expect(right(types)).toBeLessThanOrEqual(right(box));
    const group = (box as { groupIds: string[] }).groupIds;
    for (const part of [header, rule, keys, names, types]) expect((part as { groupIds: string[] }).groupIds).toEqual(group);
  });

  it('keeps a table whose rows are no columns (no type) as one text of rows', async () => {
    const { elements } = await draw(graph({ nodes: [{ id: 'notes', label: 'notes', kind: 'entity', rows: ['first thought', 'second thought'] }] }));
    expect(elements.filter((e) => e.type === 'text').map((e) => e.text)).toEqual(['notes', 'first thought\nsecond thought']);
  });

  it('makes unique, safe element ids even when graph ids collide or are odd', async () => {
    const { elements, elementIds } = await draw(
      graph({
        groups: [{ id: 'db', label: 'db net' }],
        nodes: [
          { id: 'db', label: 'db', kind: 'database', parent: 'db' },
          { id: '/usr/lib/x y', label: 'x', kind: 'generic' },
        ],
        edges: [{ id: 'db', from: '/usr/lib/x y', to: 'db' }],
      }),
    );
    const ids = elements.map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(elementIds.groups.get('db')).toBe('db');
    expect(elementIds.nodes.get('db')).toBe('db-2');
    expect(elementIds.nodes.get('/usr/lib/x y')).toBe('usr-lib-x-y');
  });

  it('produces elements the native schema accepts unchanged in place', async () => {
    const { elements } = await draw(shop);
    const intake = intakeScene(elements);
    expect(intake.warnings).toEqual([]);
    // The intake recomputes bound ends from the shapes: they must come out where layout put them.
    type Arrow = { id: string; points: Array<{ x: number; y: number }> };
    const route = (arrow: Arrow) => arrow.points.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) }));
    const arrows = elements.filter((element) => element.type === 'arrow') as unknown as Arrow[];
    for (const arrow of arrows) {
      const stored = intake.elements.find((element) => element.id === arrow.id) as unknown as Arrow;
      expect(route(stored)).toEqual(route(arrow));
    }
  });
});
