import { describe, expect, it } from 'vitest';
import { intakeScene } from '../scene/intake.js';
import type { Element, ElementInput } from '../scene/schema.js';
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
