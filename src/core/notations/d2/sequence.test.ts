import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { drawGraph } from '../index.js';
import { createD2Compiler } from '../../../infra/d2-compiler.js';
import { d2ToGraph } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/d2/${name}`, import.meta.url), 'utf8');
// The first compile starts D2's Go runtime in its worker: seconds.
const SLOW = 120_000;
const compiler = createD2Compiler({ timeoutSeconds: 60, queue: 8 });
afterAll(() => compiler.close());
const readD2 = async (code: string) => d2ToGraph(await compiler.compile(code));

describe('D2 sequence diagrams (shape: sequence_diagram) are drawn with lifelines, as D2 draws them (issue 27)', () => {
  it('reads the docs\' scorer diagram: actors left to right, messages in order, dashed replies, spans as activation bars', async () => {
    const graph = await readD2(fixture('d2-docs-sequence-diagrams-4.d2'));
    expect(graph.layout).toBe('sequence');
    expect(graph.nodes.map((n) => [n.id, n.kind])).toEqual([
      ['scorer', 'user'],
      ['itemResponse', 'generic'],
      ['item', 'generic'],
      ['essayRubric', 'generic'],
      ['concept', 'generic'],
      ['itemOutcome', 'generic'],
    ]);
    const steps = graph.sequence!.steps;
    const messages = steps.flatMap((s) => (s.type === 'message' ? [[s.from, s.to, s.label ?? '', s.dashed]] : []));
    expect(messages).toEqual([
      ['scorer', 'itemResponse', 'getItem()', false],
      ['itemResponse', 'scorer', 'item', true],
      ['scorer', 'item', 'getRubric()', false],
      ['item', 'scorer', 'rubric', true],
      ['scorer', 'essayRubric', 'applyTo(essayResp)', false],
      ['itemResponse', 'essayRubric', '', false],
      ['essayRubric', 'concept', 'match(essayResponse)', false],
      ['essayRubric', 'scorer', 'score', true],
      ['scorer', 'itemOutcome', 'new', false],
      ['scorer', 'item', 'getNormalMinimum()', false],
      ['scorer', 'item', 'getNormalMaximum()', false],
      ['scorer', 'itemOutcome', 'setScore(score)', false],
      ['scorer', 'itemOutcome', 'setFeedback(missingConcepts)', false],
    ]);
    // scorer.t is one span over the whole exchange: it opens before the first message and closes after the last.
    expect(steps[0]).toEqual({ type: 'activate', participant: 'scorer' });
    expect(steps.at(-1)).toMatchObject({ type: 'deactivate' });
    expect(steps.filter((s) => s.type === 'activate')).toHaveLength(11);
    // Before: the actors were loose boxes and each lifeline an edge to a shape that does not exist.
    const scene = await drawGraph(graph);
    expect(scene.warnings).toEqual([]);
  }, SLOW);

  it('draws the docs\' groups as named frames around their messages', async () => {
    const graph = await readD2(fixture('d2-docs-sequence-diagrams-group.d2'));
    expect(graph.nodes.map((n) => n.id)).toEqual(['alice', 'bob']);
    expect(graph.sequence!.steps).toEqual([
      {
        type: 'fragment',
        kind: 'shower thoughts',
        sections: [
          {
            label: '',
            steps: [
              { type: 'message', from: 'alice', to: 'bob', label: 'A physicist is an atom\'s way of knowing about atoms.', dashed: false, startArrowhead: 'none', endArrowhead: 'triangle' },
              { type: 'message', from: 'alice', to: 'bob', label: 'Today is the first day of the rest of your life.', dashed: false, startArrowhead: 'none', endArrowhead: 'triangle' },
            ],
          },
        ],
      },
      {
        type: 'fragment',
        kind: 'life advice',
        sections: [{ label: '', steps: [{ type: 'message', from: 'bob', to: 'alice', label: 'If all else fails, lower your standards.', dashed: false, startArrowhead: 'none', endArrowhead: 'triangle' }] }],
      },
    ]);
  }, SLOW);

  it('draws a note (an actor\'s child no message reaches) over its actor, in its place in time', async () => {
    const graph = await readD2('shape: sequence_diagram\na -> b: ping\nb.note: "thinks a while"\nb -> a: pong');
    expect(graph.sequence!.steps.map((s) => (s.type === 'note' ? `note ${s.participants.join()}: ${s.text}` : s.type === 'message' ? `${s.from}->${s.to}: ${s.label}` : s.type))).toEqual([
      'a->b: ping',
      'note b: thinks a while',
      'b->a: pong',
    ]);
  }, SLOW);
});

describe('a D2 sequence diagram inside a container', () => {
  it('is drawn with lifelines inside its box, its messages in order, and a connection from outside ends on the box', async () => {
    const graph = await readD2(
      'user\nchat: Office chatter {\n  shape: sequence_diagram\n  alice: Alice\n  bob: Bobby\n  small talk: {\n    alice -> bob: uhm, hi\n  }\n  bob.t -> alice: oh, hello\n}\nuser -> chat: reads',
    );
    expect(graph.nodes.map((n) => n.id)).toEqual(['user', 'chat']);
    expect(graph.edges.map((e) => [e.from, e.to, e.label])).toEqual([['user', 'chat', 'reads']]);
    const inset = graph.nodes.find((n) => n.id === 'chat')!.inset!;
    expect(inset.nodes.map((n) => n.label)).toEqual(['Alice', 'Bobby']);
    expect(inset.sequence!.steps.map((s) => s.type)).toEqual(['fragment', 'activate', 'message', 'deactivate']);
    expect(graph.warnings).toEqual([]);

    const { elements } = await drawGraph(graph);
    const box = elements.find((e) => e.id === 'chat')!;
    const within = (e: (typeof elements)[number]) => e.x! >= box.x! && e.y! >= box.y! && e.x! + (e.width ?? 0) <= box.x! + box.width! && e.y! + (e.height ?? 0) <= box.y! + box.height!;
    const drawnInside = elements.filter((e) => e.id.startsWith('chat.') && e.type !== 'arrow' && e.type !== 'line');
    const words = drawnInside.map((e) => ('text' in e ? e.text : 'name' in e ? e.name : undefined));
    expect(words).toEqual(expect.arrayContaining(['Office chatter', 'Alice', 'Bobby', 'uhm, hi', 'oh, hello', 'small talk']));
    expect(drawnInside.every(within)).toBe(true);
    expect(elements.filter((e) => e.id.startsWith('chat.lifeline-')).map((e) => e.id)).toEqual(['chat.lifeline-alice', 'chat.lifeline-bob']);
    const reads = elements.find((e) => e.type === 'arrow' && e.endBinding?.elementId === 'chat');
    expect(reads).toBeDefined();
  }, SLOW);
});
