import { describe, expect, it } from 'vitest';
import { intakeScene } from '../scene/intake.js';
import type { Element, ElementInput } from '../scene/schema.js';
import { drawGraph } from '../notations/index.js';
import { sqlNotation } from '../notations/sql/index.js';
import { recoverGraph } from './graph-recovery.js';

const scene = (elements: ElementInput[]): Element[] => intakeScene(elements).elements;
const box = (id: string, x: number, y: number, extra: Partial<ElementInput> = {}) =>
  ({ id, type: 'rectangle', x, y, width: 160, height: 80, ...extra }) as ElementInput;

describe('recoverGraph on a hand-drawn scene', () => {
  // Two services in a container titled by the text above it; an unbound arrow that stops short of both boxes, with
  // a label on its middle and a multiplicity near its end; a table; a note nobody points at.
  const elements = scene([
    { id: 'title', type: 'text', x: 0, y: -40, text: 'Backend', fontSize: 20 },
    { id: 'vpc', type: 'rectangle', x: 0, y: 0, width: 600, height: 200 },
    box('api', 40, 60),
    box('db', 400, 60, { type: 'cylinder' }),
    { id: 'call', type: 'arrow', points: [{ x: 206, y: 100 }, { x: 394, y: 100 }], strokeStyle: 'dashed' },
    { id: 'reads', type: 'text', x: 270, y: 80, text: 'reads', fontSize: 14 },
    { id: 'many', type: 'text', x: 375, y: 104, text: '0..*', fontSize: 12 },
    { id: 'users', type: 'rectangle', x: 0, y: 400, width: 200, height: 120 },
    { id: 'users-head', type: 'text', x: 60, y: 405, text: 'users', fontSize: 16 },
    { id: 'users-rule', type: 'line', points: [{ x: 0, y: 430 }, { x: 200, y: 430 }] },
    { id: 'users-rows', type: 'text', x: 10, y: 440, text: 'PK id int\nname text', fontSize: 14 },
    { id: 'note', type: 'text', x: 900, y: 900, text: 'remember to shard' },
    { id: 'pen', type: 'freedraw', points: [{ x: 900, y: 0 }, { x: 950, y: 20 }] },
  ]);
  const graph = recoverGraph(elements);

  it('finds the nodes with their shapes, the table with its rows, and the container with its title', () => {
    expect(graph.nodes.map((n) => [n.id, n.shape, n.label, n.parent])).toEqual([
      ['api', 'rectangle', '', 'vpc'],
      ['db', 'cylinder', '', 'vpc'],
      ['users', 'rectangle', 'users', undefined],
    ]);
    expect(graph.nodes[2]!.rows).toEqual(['PK id int', 'name text']);
    expect(graph.groups).toMatchObject([{ id: 'vpc', label: 'Backend' }]);
  });

  it('reads an unbound arrow from the shapes its ends touch, with its label and end label', () => {
    expect(graph.edges).toEqual([
      expect.objectContaining({ id: 'call', from: 'api', to: 'db', label: 'reads', endLabel: '0..*', style: { strokeColor: '#1e1e1e', strokeStyle: 'dashed' } }),
    ]);
    expect(graph.direction).toBe('RIGHT');
  });

  it('records which element each label, title, table row and rule is part of', () => {
    expect(Object.fromEntries(graph.parts)).toEqual({ title: 'vpc', reads: 'call', many: 'call', 'users-head': 'users', 'users-rule': 'users', 'users-rows': 'users' });
  });

  it('reports free text and drawings instead of dropping them silently', () => {
    expect(graph.warnings).toEqual([
      'element "note" (text): free text "remember to shard" is on no shape or arrow, so it is not exported',
      'element "pen" (freedraw): freehand drawings are not exported',
    ]);
  });
});

describe('recoverGraph ends and groups', () => {
  it('makes text an arrow is bound to a node, and reports an arrow that joins nothing', () => {
    const graph = recoverGraph(
      scene([
        { id: 'you', type: 'text', x: 0, y: 0, text: 'You' },
        box('app', 0, 200),
        { id: 'uses', type: 'arrow', startBinding: { elementId: 'you' }, endBinding: { elementId: 'app' } },
        { id: 'stray', type: 'arrow', points: [{ x: 600, y: 600 }, { x: 700, y: 600 }] },
      ]),
    );
    expect(graph.nodes.map((n) => [n.id, n.shape, n.label])).toEqual([
      ['you', 'text', 'You'],
      ['app', 'rectangle', ''],
    ]);
    expect(graph.edges.map((e) => [e.from, e.to])).toEqual([['you', 'app']]);
    expect(graph.direction).toBe('DOWN');
    expect(graph.warnings).toEqual(['element "stray" (arrow): neither end touches a shape, so it joins nothing and is not exported']);
  });

  it('nests frames and containing shapes, and draws an empty frame as a box', () => {
    const graph = recoverGraph(
      scene([
        { id: 'cloud', type: 'frame', x: 0, y: 0, width: 1000, height: 600, name: 'AWS' },
        { id: 'vpc', type: 'rectangle', x: 20, y: 40, width: 500, height: 300, text: 'VPC' },
        box('web', 60, 100),
        { id: 'empty', type: 'frame', x: 2000, y: 0, width: 300, height: 300, name: 'Later' },
      ]),
    );
    expect(graph.groups.map((g) => [g.id, g.label, g.parent])).toEqual([
      ['cloud', 'AWS', undefined],
      ['vpc', 'VPC', 'cloud'],
    ]);
    expect(graph.nodes.map((n) => [n.id, n.label, n.parent])).toEqual([
      ['web', '', 'vpc'],
      ['empty', 'Later', undefined],
    ]);
  });

  it('prefers the stamped icon and keeps arrowheads, stroke width and sketchiness', () => {
    const [a, b, arrow] = scene([
      box('a', 0, 0, { iconRef: 'aws/Amazon S3', roughness: 'clean' }),
      box('b', 0, 300, { roughness: 'clean' }),
      { id: 'ab', type: 'arrow', startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' }, startArrowhead: 'diamond', strokeWidth: 4 },
    ]);
    const graph = recoverGraph([{ ...a!, icon: { ref: 'aws/Amazon EC2' } } as Element, b!, arrow!]);
    expect(graph.nodes[0]!.iconRef).toBe('aws/Amazon EC2');
    expect(graph.edges[0]).toMatchObject({ startArrowhead: 'diamond', endArrowhead: 'arrow', look: { strokeWidth: 4 } });
    expect(graph.sketch).toBe(false);
  });
});

describe('recoverGraph: text inside a shape, label or table rows', () => {
  const text = (id: string, x: number, y: number, value: string) => ({ id, type: 'text', x, y, text: value, fontSize: 14 }) as ElementInput;
  const graph = recoverGraph(
    scene([
      box('api', 0, 0, { text: 'API' }),
      text('api-version', 20, 50, 'Node.js 20'),
      box('worker', 400, 0),
      text('worker-name', 420, 10, 'Worker'),
      text('worker-note', 420, 50, 'runs nightly'),
      box('users', 0, 300, { text: 'users' }),
      text('users-rows', 10, 340, '#id  int PK'),
      box('config', 400, 300, { text: 'Config' }),
      text('config-rows', 410, 340, 'port: 8080\nhost: db'),
      box('pod', 800, 300, { height: 120 }),
      text('pod-head', 820, 305, 'web'),
      { id: 'pod-rule', type: 'line', points: [{ x: 800, y: 335 }, { x: 960, y: 335 }] },
      text('pod-rows', 810, 345, 'Deployment'),
    ]),
  );
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));

  it('reads a free text under a label as more label, not as a one-column table', () => {
    expect(byId.get('api')).toMatchObject({ label: 'API\nNode.js 20', kind: 'generic' });
    expect(byId.get('api')!.rows).toBeUndefined();
    expect(byId.get('worker')).toMatchObject({ label: 'Worker\nruns nightly' });
    expect(byId.get('worker')!.rows).toBeUndefined();
  });

  it('reads rows when a key marker, typed rows or a rule under the header say it is a table', () => {
    expect(byId.get('users')).toMatchObject({ label: 'users', rows: ['#id  int PK'], kind: 'entity' });
    expect(byId.get('config')).toMatchObject({ label: 'Config', rows: ['port: 8080', 'host: db'] });
    expect(byId.get('pod')).toMatchObject({ label: 'web', rows: ['Deployment'] });
    expect(graph.edges).toEqual([]);
    expect(graph.warnings).toEqual([]);
  });

  it('keeps a container’s own outline and icon for the writers', () => {
    const { groups } = recoverGraph(
      scene([{ id: 'zone', type: 'ellipse', x: 0, y: 0, width: 800, height: 600, text: 'Zone', iconRef: 'aws/Amazon VPC' }, box('in', 300, 250)]),
    );
    expect(groups).toMatchObject([{ id: 'zone', shape: 'ellipse', iconRef: 'aws/Amazon VPC' }]);
  });
});

describe('recoverGraph: a table drawn as columns', () => {
  it('reads its columns back as the rows the notation wrote, keys, names and types in order', async () => {
    const code = 'CREATE TABLE teams (id bigint PRIMARY KEY, name text);\nCREATE TABLE users (id int PRIMARY KEY, email_address text NOT NULL, team_id bigint REFERENCES teams(id));';
    const graph = sqlNotation.toGraph(code);
    const drawn = await drawGraph(graph, 'sql');
    // Drawn as columns: the types of users start at one x.
    const users = drawn.elementIds.nodes.get('users')!;
    expect(drawn.elements.filter((e) => e.type === 'text' && e.groupIds?.includes(`${users}-box`)).map((e) => e.text)).toEqual(['users', 'PK\n\nFK', 'id\nemail_address\nteam_id', 'int\ntext\nbigint']);
    const recovered = recoverGraph(intakeScene(drawn.elements as ElementInput[]).elements);
    const rowsOf = (label: string) => recovered.nodes.find((n) => n.label === label)?.rows;
    expect(rowsOf('users')).toEqual(graph.nodes.find((n) => n.id === 'users')!.rows);
    expect(rowsOf('teams')).toEqual(graph.nodes.find((n) => n.id === 'teams')!.rows);
  });

  it('reads a type wrapped in its column back as the one row it is', async () => {
    const rows = ['PK    id  u64 (PK, auto_inc)', '      subscriber_account_id  SubscriptionStatus (BTree) kept with the history of every change'];
    const drawn = await drawGraph({ layout: 'layered', direction: 'DOWN', nodes: [{ id: 'subscriptions', label: 'subscriptions', kind: 'entity', rows }], edges: [], groups: [], warnings: [] });
    const types = drawn.elements.find((e) => e.id === 'subscriptions-rows-column-3')!;
    expect(types.text!.split('\n').length).toBeGreaterThan(2);
    expect(recoverGraph(intakeScene(drawn.elements as ElementInput[]).elements).nodes[0]!.rows).toEqual(rows);
  });
});
