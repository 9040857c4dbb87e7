import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { plantumlNotation } from '../notations/plantuml/index.js';
import { checkScene } from '../quality/check.js';
import { intakeScene } from '../scene/intake.js';
import { FONT } from './drawing-rules.js';
import { measureText } from './measure.js';
import { layoutSequence, SEQUENCE_SPACING } from './sequence.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../test/fixtures/plantuml/${name}`, import.meta.url), 'utf8');
const draw = (body: string) => layoutSequence(plantumlNotation.toGraph(`@startuml\n${body}\n@enduml`));
type Drawn = ReturnType<typeof layoutSequence>['elements'][number];
const byId = (elements: Drawn[], id: string) => elements.find((e) => e.id === id)!;
const arrowsOf = (elements: Drawn[]) => elements.filter((e): e is Drawn & { type: 'arrow' } => e.type === 'arrow');

describe('layoutSequence', () => {
  it('draws an actor as a person standing on its lifeline, its name under the figure, and the scene passes the checker', () => {
    const scene = draw('actor Alice as al\nparticipant "Edge\\nAgent" as ag\nal -> ag: installs software and starts it\nag -> al: New or existing identity wallet?');
    const alice = byId(scene.elements, 'participant-al');
    expect(alice).toMatchObject({ type: 'person', text: 'Alice' });
    expect(byId(scene.elements, 'participant-ag').type).toBe('rectangle');
    // Both heads stand on the lifelines' top, the person's label between its feet and its lifeline.
    expect(Number(alice.y) + Number(alice.height)).toBe(byId(scene.elements, 'lifeline-al').y);
    expect(checkScene(scene.elements as never, scene.parents, { forcedDirection: true }).violations).toEqual([]);
  });

  it('draws `note right : …` level with the message before it, as PlantUML does, not on a row of its own', () => {
    // The form of mojaloop central-ledger's timeout handler: each database call carries the table it touches.
    const { elements } = draw(['participant Handler', 'database DB', 'Handler -> DB : delete from TT', 'note right : table: TT', 'Handler -> DB : get segment', 'note right : tables:\\n segment,\\n TSC', 'Handler -> DB : insert', 'note right of DB : own row'].join('\n'));
    const arrows = arrowsOf(elements);
    const notes = elements.filter((e) => e.type === 'document');
    // Each attached note starts at its message's row and spans its arrow; the next message comes after the taller of the two.
    for (const [k, note] of notes.slice(0, 2).entries()) {
      const arrowY = arrows[k]!.points![0]!.y;
      expect(note.y!).toBeLessThan(arrowY);
      expect(note.y! + note.height!).toBeGreaterThan(arrowY);
      expect(arrows[k + 1]!.points![0]!.y).toBeGreaterThan(note.y! + note.height!);
    }
    // A note naming its participant keeps a row of its own below the message.
    expect(notes[2]!.y!).toBeGreaterThan(arrows[2]!.points![0]!.y);
  });

  it('draws the Mojaloop diagram as a valid, clean scene: messages top to bottom, bound to lifelines', () => {
    const scene = layoutSequence(plantumlNotation.toGraph(fixture('mojaloop-position-prepare-sequence.plantuml')));
    const report = checkScene(scene.elements as never, scene.parents, { forcedDirection: true });
    // Its fit to a README column is held, with the other corpus files', by quality/corpus.test.ts.
    expect(report.violations.filter((v) => !v.startsWith('at 880 px wide'))).toEqual([]);
    expect(report.edges).toBe(25);
    const arrows = arrowsOf(scene.elements);
    const ys = arrows.map((a) => a.points![0]!.y);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    expect(arrows.every((a) => a.startBinding!.elementId.startsWith('lifeline-') && a.endBinding!.elementId.startsWith('lifeline-'))).toBe(true);
    expect(arrows.filter((a) => a.strokeStyle === 'dashed')).toHaveLength(5);
    const frames = scene.elements.filter((e) => e.type === 'frame').map((e) => (e as { name: string }).name);
    expect(frames).toEqual(['Central Service', 'group [Prepare Position Handler Consume]', 'group [DB TRANSACTION]', 'alt [Calculate & Validate Latest Position Prepare (success)]', 'group [Persist Transfer State (with transferState=\'ABORTED\' on position check fail)]']);
    // The intake recomputes bound ends from the lifelines: every message stays where layout put it.
    const stored = intakeScene(scene.elements).elements;
    for (const arrow of arrows) {
      const after = stored.find((e) => e.id === arrow.id) as { points: { x: number; y: number }[] };
      after.points.forEach((p, k) => {
        expect(p.x).toBeCloseTo(arrow.points![k]!.x, 1);
        expect(p.y).toBeCloseTo(arrow.points![k]!.y, 1);
      });
    }
  });

  it('puts participants side by side, wide enough apart for the longest label between them', () => {
    const label = 'a message label that needs room between';
    const { elements } = draw(`participant A\ndatabase B\nA -> B : ${label}\nB --> A`);
    const a = byId(elements, 'lifeline-A');
    const b = byId(elements, 'lifeline-B');
    expect(byId(elements, 'participant-B').type).toBe('cylinder');
    const text = elements.find((e) => e.type === 'text' && e.text === label)!;
    expect(text.x).toBeGreaterThan(a.x!);
    expect(text.x! + text.width!).toBeLessThanOrEqual(b.x!);
    const [call, reply] = arrowsOf(elements);
    expect(call!.points).toEqual([
      { x: a.x, y: call!.points![0]!.y },
      { x: b.x, y: call!.points![0]!.y },
    ]);
    expect(text.y! + text.height!).toBeLessThanOrEqual(call!.points![0]!.y);
    expect(reply).toMatchObject({ strokeStyle: 'dashed', startBinding: { elementId: 'lifeline-B' }, endBinding: { elementId: 'lifeline-A' } });
    expect(reply!.points![0]!.y).toBeGreaterThan(call!.points![0]!.y);
  });

  it('draws a message to self as a loop, notes beside their lifeline and alt sections split by a dashed line', () => {
    const { elements, parents } = draw('participant A\nparticipant B\nA -> A : think\nalt ok\n  A -> B : go\nelse failed\n  note right of B : stop\nend');
    const loop = arrowsOf(elements)[0]!;
    expect(loop.points).toHaveLength(4);
    expect(loop.points![1]!.x - loop.points![0]!.x).toBe(SEQUENCE_SPACING.selfLoopWidth);
    const note = elements.find((e) => e.type === 'document')!;
    expect(note.x).toBeGreaterThan(byId(elements, 'lifeline-B').x!);
    const frame = elements.find((e) => e.type === 'frame')! as Drawn & { name: string };
    expect(frame.name).toBe('alt [ok]');
    // Frame and name in the messages' ink, as PlantUML draws them, not a grey that fades when the diagram is scaled down.
    expect(frame.strokeColor).toBe(arrowsOf(elements)[0]!.strokeColor);
    expect(parents.get(note.id)).toBe(frame.id);
    const split = elements.find((e) => e.type === 'line' && e.id.startsWith(frame.id))!;
    expect(split.strokeStyle).toBe('dashed');
    expect(elements.some((e) => e.type === 'text' && e.text === '[failed]')).toBe(true);
    expect(note.y!).toBeGreaterThan((split as { points: { y: number }[] }).points[0]!.y);
    expect(checkScene(elements as never, parents).violations).toEqual([]);
  });

  it('draws the title above the participants, at the left edge, with every message still bound where it was', () => {
    const body = 'participant A\nparticipant B\nA -> B : call\nB --> A : done';
    const plain = draw(body).elements;
    const { elements, parents, height } = draw(`title Checkout\n${body}`);
    const title = byId(elements, 'diagram-title');
    expect(title).toMatchObject({ type: 'text', text: 'Checkout', fontSize: 24, textAlign: 'left' });
    const rest = elements.filter((e) => e !== title);
    expect(title.x).toBe(Math.min(...rest.flatMap((e) => (e.x === undefined ? [] : [e.x]))));
    const shift = byId(elements, 'participant-A').y! - byId(plain, 'participant-A').y!;
    expect(title.y! + title.height!).toBeLessThanOrEqual(byId(elements, 'participant-A').y! - 12);
    expect(shift).toBeGreaterThanOrEqual(title.height!);
    arrowsOf(elements).forEach((arrow, k) => expect(arrow.points).toEqual(arrowsOf(plain)[k]!.points!.map((p) => ({ x: p.x, y: p.y + shift }))));
    expect(height).toBe(draw(body).height + shift);
    expect(checkScene(elements as never, parents).violations).toEqual([]);
    expect(intakeScene(elements).warnings).toEqual([]);
  });

  it('draws activations as bars on the lifeline and warns about ones never closed', () => {
    const scene = draw('A -> B ++ : call\nB -> C : ask\nactivate C');
    const bars = scene.elements.filter((e) => e.id.startsWith('activation-'));
    expect(bars).toHaveLength(2);
    expect(bars.every((bar) => bar.type === 'line')).toBe(true);
    expect(scene.warnings).toEqual(['participant "B" is still active at the end of the diagram', 'participant "C" is still active at the end of the diagram']);
  });

  it('frames a message drawn right to left across both its lifelines (D2 docs\' group "life advice": bob -> alice)', () => {
    const scene = draw('participant alice\nparticipant bob\nalice -> bob: A physicist is an atom\'s way of knowing about atoms.\ngroup life advice\nbob -> alice: ok\nend');
    const frame = scene.elements.find((e) => e.type === 'frame')!;
    const bob = byId(scene.elements, 'lifeline-bob');
    expect(Number(frame.x) + Number(frame.width)).toBeGreaterThan(Number(bob.x) + Number(bob.width));
  });

  it('never runs an activation bar through a fragment’s name or guard: the bar stops short of the text and goes on after it', () => {
    const { elements } = draw(['participant A', 'participant B', 'A -> B ++ : call', 'loop every item', 'B -> B : work', 'alt found', 'B -> A : row', 'else missing', 'B -> A : none', 'end', 'end', 'B --> A -- : done'].join('\n'));
    const bars = elements
      .filter((e) => e.id.startsWith('activation-'))
      .map((e) => (e as unknown as { points: { x: number; y: number }[] }).points)
      .map((points) => ({ x: points[0]!.x, top: points[0]!.y, bottom: points[1]!.y }));
    // Where text is written: each frame's name above its top edge, each guard inside it.
    const texts = [
      ...elements
        .filter((e) => e.type === 'frame')
        .map((f) => ({ left: f.x!, right: f.x! + measureText((f as { name: string }).name, FONT.edgeLabel, FONT.family).width + 2 * SEQUENCE_SPACING.framePadding, top: f.y! - SEQUENCE_SPACING.frameNameHeight, bottom: f.y! })),
      ...elements.filter((e) => e.id.endsWith('-label')).map((t) => ({ left: t.x!, right: t.x! + t.width!, top: t.y!, bottom: t.y! + t.height! })),
    ];
    expect(texts).toHaveLength(3);
    const crossing = bars.filter((bar) => texts.some((t) => bar.x >= t.left && bar.x <= t.right && bar.top < t.bottom && bar.bottom > t.top));
    expect(crossing).toEqual([]);
    // Cut, not dropped: B is active from the call to the reply, in pieces around the text on its lifeline.
    expect(bars.length).toBeGreaterThanOrEqual(2);
  });

  it('draws a box around the participants declared in it, behind their heads, with its title', () => {
    const { elements } = draw(['box "Shop" #LightBlue', 'participant A', 'participant B', 'end box', 'participant C', 'A -> B', 'B -> C'].join('\n'));
    const box = elements.find((e) => e.id === 'box-1')!;
    expect(box).toMatchObject({ type: 'frame', name: 'Shop' });
    // Its title reads as a container's (mojaloop's "Central Services" was a fragment name's small grey), not a fragment's.
    expect(box).toMatchObject({ fontSize: FONT.containerTitle, strokeColor: '#1e1e1e' });
    const head = (id: string) => elements.find((e) => e.id === `participant-${id}`)!;
    expect(head('A').x!).toBeGreaterThan(box.x!);
    expect(head('B').x! + head('B').width!).toBeLessThan(box.x! + box.width!);
    expect(head('C').x!).toBeGreaterThan(box.x! + box.width!);
    expect(elements.indexOf(box)).toBeLessThan(elements.indexOf(head('A')));
  });

  /** Per box, the participants whose lifeline runs inside it, left to right. */
  const lifelinesInBoxes = (elements: Drawn[]) =>
    elements
      .filter((e) => e.id.startsWith('box-'))
      .map((box) =>
        elements
          .filter((e) => e.id.startsWith('lifeline-') && e.x! > box.x! && e.x! < box.x! + box.width!)
          .sort((a, b) => a.x! - b.x!)
          .map((e) => e.id.slice('lifeline-'.length)),
      );

  it('keeps each box of Cluster API’s ClusterClass sequence to its own participant: none over the unboxed User, none over its neighbour', () => {
    const { elements } = layoutSequence(plantumlNotation.toGraph(fixture('capi-clusterclass-create-sequence.plantuml')));
    expect(lifelinesInBoxes(elements)).toEqual([['API Server'], ['Cluster Controller']]);
    // The opt and loop frames run across both boxes, as PlantUML draws them: they widen neither box over the other.
    const box = (id: string) => byId(elements, id);
    expect(box('box-1').x! + box('box-1').width!).toBeLessThan(box('box-2').x!);
    for (const id of ['API Server', 'Cluster Controller']) {
      const head = byId(elements, `participant-${id}`);
      const own = box(id === 'API Server' ? 'box-1' : 'box-2');
      expect(head.x!).toBeGreaterThan(own.x!);
      expect(head.x! + head.width!).toBeLessThan(own.x! + own.width!);
    }
  });

  it('holds the notes over and beside its participants inside the box, with room between it and its neighbours, as PlantUML does', () => {
    // The shape of mojaloop central-ledger's timeout handler: the table notes of a DAO at a box's edge crossed the
    // "Central Services" border, as the columns were spaced for the heads alone.
    const { elements } = draw(
      [
        'participant Handler',
        'box "Central Services"',
        'participant DAO',
        'participant Segment',
        'end box',
        'box "Kafka"',
        'participant Topic',
        'end box',
        'Handler -> DAO : get expired transfers',
        'note left of DAO : position reserved here',
        'DAO -> Segment : update segment',
        'note over Segment : segment.value = intervalMax, intervalMin',
        'Segment -> Topic : publish',
        'note right of Segment : tables: transferTimeout, transferStateChange',
      ].join('\n'),
    );
    const [central, kafka, handler] = [byId(elements, 'box-1'), byId(elements, 'box-2'), byId(elements, 'participant-Handler')];
    for (const note of elements.filter((e) => e.type === 'document')) {
      expect(note.x!).toBeGreaterThan(central.x!);
      expect(note.x! + note.width!).toBeLessThan(central.x! + central.width!);
    }
    expect(central.x!).toBeGreaterThan(handler.x! + handler.width!);
    expect(central.x! + central.width!).toBeLessThan(kafka.x!);
  });

  it('draws a box around the participants created while it is open, wherever they are declared, and around no one else', () => {
    const { elements } = draw(
      [
        'actor User',
        'participant Late',
        'box "Back end" #LightBlue',
        'participant API',
        'API -> Store : implicit, inside the box',
        'participant Late',
        'end box',
        'box #LightGreen',
        'actor Ops',
        'end box',
        'User -> API : one label reaching from User into the box',
        'note left of API : fits',
        'Ops -> User',
      ].join('\n'),
    );
    // Declared again inside the box, Late moves to the box's end, as PlantUML moves it.
    expect(lifelinesInBoxes(elements)).toEqual([['API', 'Store', 'Late'], ['Ops']]);
    // A note with room before User's head still widens its box to hold it; the label from User does not widen it over User.
    const [note, box, user] = [elements.find((e) => e.type === 'document')!, byId(elements, 'box-1'), byId(elements, 'participant-User')];
    expect(note.x!).toBeGreaterThan(box.x!);
    expect(note.x!).toBeLessThan(byId(elements, 'participant-API').x!);
    expect(box.x!).toBeGreaterThan(user.x! + user.width!);
  });

  it('boxes each run of a box’s columns on its own when order N puts another participant between them', () => {
    const { elements } = draw(['box "Shop"', 'participant A', 'participant B order 10', 'end box', 'participant C order 5', 'A -> B', 'B -> C'].join('\n'));
    expect(lifelinesInBoxes(elements)).toEqual([['A'], ['B']]);
    expect(elements.filter((e) => e.id.startsWith('box-')).map((e) => (e as { name: string }).name)).toEqual(['Shop', 'Shop']);
  });
});

describe('layoutSequence separators (issue 27, Tractus-X EDC Kafka extension sequences)', () => {
  it('draws `== Title ==` as PlantUML does: a double line across every lifeline, the title boxed on it; `...` stays text', () => {
    const scene = draw('participant A\nparticipant B\nparticipant C\n== Start Transfer Process ==\nA -> B : go\n... later ...\nB -> C : on');
    const lines = scene.elements.filter((e) => e.id.startsWith('divider-line'));
    const [a, c] = [byId(scene.elements, 'participant-A'), byId(scene.elements, 'participant-C')];
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const points = (line as Drawn & { points: { x: number; y: number }[] }).points;
      expect(points[0]!.x).toBe(a.x);
      expect(points[1]!.x).toBe(Number(c.x) + Number(c.width));
    }
    const titles = scene.elements.filter((e) => /^divider-\d/.test(e.id));
    expect(titles.map((e) => [e.type, e.text])).toEqual([
      ['rectangle', 'Start Transfer Process'],
      ['text', 'later'],
    ]);
    expect(checkScene(scene.elements as never, scene.parents, { forcedDirection: true }).violations).toEqual([]);
  });
});
