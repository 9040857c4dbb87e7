import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { GraphIR, NotationConverter } from '../../graph/types.js';
import { sizeNode } from '../../layout/node-size.js';
import { FIGURE_SIZES } from '../../scene/constants.js';
import { resolveIconHints } from '../icon-hints.js';
import { drawGraph } from '../index.js';
import { plantumlNotation } from './index.js';

const folder = new URL('../../../../test/fixtures/plantuml/', import.meta.url);
const fixture = (name: string): string => readFileSync(new URL(name, folder), 'utf8');
/** Real files whose drawing the quality checker still faults (their NOTICE says what), read for one behaviour each. */
const openFixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/plantuml-open/${name}`, import.meta.url), 'utf8');
const arrows = (graph: GraphIR): string[] => graph.edges.map((e) => `${e.from} -> ${e.to}${e.label ? ` [${e.label}]` : ''}`);
const uml = (body: string) => `@startuml\n${body}\n@enduml\n`;

function parseErrorOf(code: string): AppError {
  try {
    plantumlNotation.toGraph(code);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a parse_error');
}

describe('plantumlNotation on real diagrams', () => {
  it('draws a monochrome diagram (skinparam monochrome true, every Tractus-X IRS diagram) in black on white, author colours as greys', () => {
    const code = (look: string) => `@startuml\n${look}\n[**IRS**] <<System>> as IRS\ndatabase Store #FF0000\nIRS --> Store\n@enduml`;
    const mono = plantumlNotation.toGraph(code('skinparam monochrome true'));
    expect(mono.nodes.find((node) => node.id === 'IRS')?.style).toMatchObject({ fillColor: '#ffffff', strokeColor: '#1e1e1e' });
    // Red turned to the grey of its lightness, as PlantUML's monochrome draws it.
    expect(mono.nodes.find((node) => node.id === 'Store')?.style?.fillColor).toBe('#4c4c4c');
    const coloured = plantumlNotation.toGraph(code('skinparam shadowing false'));
    // Its name in creole bold is drawn bold, and nothing else of its look is set.
    expect(coloured.nodes.find((node) => node.id === 'IRS')?.style).toEqual({ fontWeight: 'bold' });
    expect(coloured.nodes.find((node) => node.id === 'Store')?.style?.fillColor).toBe('#ff0000');
  });

  it('draws each ContainerDb of the C4 message bus sample alike, however long its description', () => {
    const graph = resolveIconHints(plantumlNotation.toGraph(fixture('c4-messagebus-container.puml')));
    const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
    // One row for the description, which layout wraps: cut into lines here it made a plain table of the long one.
    expect(node('reporting_db').rows).toEqual(['[ContainerDb: MySQL]', 'Stores a normalized version of all business data for ad hoc reporting purposes']);
    expect(sizeNode(node('reporting_db')).shape).toBe('cylinder');
    expect(sizeNode(node('customer_db')).shape).toBe('cylinder');
  });

  it('reads the C4 deployment sample: nested Deployment_Nodes as containers, containers as nodes, Rel as labelled arrows', () => {
    const graph = plantumlNotation.toGraph(fixture('c4-bigbank-deployment.puml'));
    const group = (id: string) => graph.groups.find((g) => g.id === id);
    expect(group('apache')).toMatchObject({ label: 'Apache Tomcat\n[Apache Tomcat 8.x]', parent: 'dn', kind: 'node' });
    expect(group('dn')).toMatchObject({ label: 'bigbank-api*** x8\n[Ubuntu 16.04 LTS]', parent: 'plc' });
    // Twelve deployment nodes, and the key SHOW_LEGEND() asks for.
    expect(graph.groups.filter((g) => g.kind !== 'key')).toHaveLength(12);
    expect(graph.groups.filter((g) => g.kind === 'key').map((g) => g.label)).toEqual(['Legend']);
    const api = graph.nodes.find((n) => n.id === 'api')!;
    expect(api).toMatchObject({ label: 'API Application', kind: 'service', parent: 'apache' });
    expect(api.rows![0]).toBe('[Container: Java and Spring MVC]');
    expect(graph.nodes.find((n) => n.id === 'db')).toMatchObject({ kind: 'database', parent: 'oracle' });
    expect(arrows(graph)).toEqual([
      'mobile -> api [Makes API calls to\n[json/HTTPS]]',
      'spa -> api [Makes API calls to\n[json/HTTPS]]',
      "web -> spa [Delivers to the customer's web browser]",
      'api -> db [Reads from and writes to\n[JDBC]]',
      'api -> db2 [Reads from and writes to\n[JDBC]]',
      'db -> db2 [Replicates data to]',
    ]);
    // Rel_U, Rel_R: kept as where the target goes, for layout.
    expect(graph.edges.filter((e) => e.toward !== undefined).map((e) => `${e.from} -> ${e.to} ${e.toward}`)).toEqual(['web -> spa UP', 'db -> db2 RIGHT']);
    expect(graph.warnings.join('\n')).not.toMatch(/direction hints/);
  });

  it('reads the hexagonal-architecture class diagram: packages, members and UML heads', () => {
    const graph = plantumlNotation.toGraph(fixture('jdp-hexagonal-class.puml'));
    expect(graph.groups.map((g) => g.label)).toContain('com.iluwatar.hexagonal.domain');
    const random = graph.nodes.find((n) => n.id === 'RandomNumberGenerator')!;
    expect(random).toMatchObject({ kind: 'class', parent: 'package:com.iluwatar.hexagonal.domain' });
    expect(random.rows).toEqual(['- randomIterator : OfInt', '+ RandomNumberGenerator(min : int, max : int)', '+ nextInt() : int']);
    expect(graph.nodes.find((n) => n.id === 'LotteryEventLog')).toMatchObject({ kind: 'interface', rows: ['«interface»', expect.any(String), expect.any(String), expect.any(String), expect.any(String), expect.any(String)] });
    const realises = graph.edges.find((e) => e.from === 'MongoBank' && e.to === 'WireTransfers')!;
    expect(realises).toMatchObject({ endArrowhead: 'triangle-outline', startArrowhead: 'none', style: { strokeStyle: 'dashed' } });
    const association = graph.edges.find((e) => e.from === 'LotteryTicket' && e.to === 'PlayerDetails')!;
    expect(association).toMatchObject({ endArrowhead: 'arrow', endLabel: '-playerDetails' });
    expect(graph.edges.find((e) => e.from === 'CheckResult')).toMatchObject({ to: 'LotteryTicketCheckResult', endArrowhead: 'circle' });
  });

  it('reads the Mojaloop sequence diagram into participants and ordered steps', () => {
    const graph = plantumlNotation.toGraph(fixture('mojaloop-position-prepare-sequence.plantuml'));
    expect(graph.layout).toBe('sequence');
    // The box declares them again, TOPIC_NOTIFICATIONS before POS_MGMT: PlantUML draws the columns in that order.
    expect(graph.nodes.map((n) => `${n.id}:${n.shape}`)).toEqual(['POS_HANDLER:control', 'TOPIC_NOTIFICATIONS:document', 'POS_MGMT:entity', 'POS_DAO:entity', 'DB:cylinder']);
    expect(graph.nodes[2]!.label).toBe('Position\nManagement\nFacade');
    const steps = graph.sequence!.steps;
    const group = steps.find((s) => s.type === 'fragment')!;
    expect(group).toMatchObject({ kind: 'group', sections: [{ label: 'Prepare Position Handler Consume' }] });
    const inner = group.type === 'fragment' ? group.sections[0]!.steps : [];
    // autonumber prefixes every message; replies (-->) are dashed; creole colour tags are dropped.
    expect(inner[0]).toMatchObject({ type: 'message', from: 'POS_HANDLER', to: 'POS_MGMT', label: '1 Request transfers to be processed', dashed: false });
    const alt = inner.find((s) => s.type === 'fragment' && s.kind === 'alt');
    expect(alt).toMatchObject({ sections: [{ label: 'Calculate & Validate Latest Position Prepare (success)' }, { label: 'Calculate & Validate Latest Position Prepare (failure)' }] });
    const nested = inner.find((s) => s.type === 'fragment' && s.kind === 'group')!;
    const reply = nested.type === 'fragment' ? nested.sections[0]!.steps.find((s) => s.type === 'message' && s.from === 'DB') : undefined;
    expect(reply).toMatchObject({ to: 'POS_MGMT', dashed: true, endArrowhead: 'arrow' });
    const note = nested.type === 'fragment' ? nested.sections[0]!.steps.find((s) => s.type === 'note') : undefined;
    expect(note).toMatchObject({ position: 'over', participants: ['DB'], shape: 'hexagon', text: 'transferStateChange\ntransferParticipant' });
  });

  it('reads the Cluster API activity diagram: start, stop, actions, decisions and loops', () => {
    const graph = plantumlNotation.toGraph(fixture('capi-machinedeployment-activity.plantuml'));
    const kinds = graph.nodes.map((n) => n.kind);
    expect(kinds.filter((k) => k === 'start')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'end')).toHaveLength(1);
    const paused = graph.nodes.find((n) => n.label === 'Paused')!;
    expect(paused.kind).toBe('decision');
    const exit = graph.nodes.find((n) => n.label === 'Update status and exit')!;
    expect(exit.style?.fillColor).toBe('#add8e6');
    // The branch label sits at the decision, as PlantUML writes it, not halfway down a long edge.
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: paused.id, to: exit.id, startLabel: 'yes' }));
    // `repeat while (More updates …) then (yes)` loops back to the repeat point; its "yes" is written where the way
    // back leaves the condition, not in the middle of the long return route.
    const more = graph.nodes.find((n) => n.label === 'More updates to MachineDeployments')!;
    const loop = graph.edges.find((e) => e.from === more.id && e.startLabel === 'yes')!;
    expect(loop.label).toBeUndefined();
    expect(graph.edges.find((e) => e.from === loop.to)).toMatchObject({ to: graph.nodes.find((n) => n.label === 'MachineDeployment controller enqueues a Reconcile call')!.id });
  });

  it('reads the Aries state diagram: [*] start and end points, fork/join pseudo-states, labelled transitions', () => {
    const graph = plantumlNotation.toGraph(fixture('aries-discover-features-requester-state.puml'));
    expect(arrows(graph)).toEqual([
      '[*]start -> mode [normal or short-circuit?]',
      'mode -> awaiting_disclosures [normal: send\nqueries]',
      'mode -> finish [short-circuit:\nreceive\ndisclosures]',
      'awaiting_disclosures -> finish [receive disclosures]',
      'finish -> [*]end [process\ndisclosures]',
    ]);
    expect(graph.nodes.find((n) => n.id === 'mode')).toMatchObject({ kind: 'fork', label: '' });
  });

  it("runs IRS's job states joined by short links (`INITIAL -> IN_PROGRESS`) in one row, as PlantUML draws them", async () => {
    const scene = await drawGraph(plantumlNotation.toGraph(fixture('irs-job-state-machine.puml')), 'plantuml');
    const box = (id: string) => scene.elements.find((e) => e.id === (scene.elementIds.nodes.get(id) ?? scene.elementIds.groups.get(id)))!;
    const row = ['INITIAL', 'IN_PROGRESS', 'TRANSFERS_FINISHED', 'COMPLETED'].map(box);
    const middle = (e: (typeof row)[number]) => Number(e.y) + Number(e.height) / 2;
    // UNSAVED, a plain state, beside the first composite: level with the state inside it, as in PlantUML's drawing.
    const unsaved = box('UNSAVED');
    expect(Number(unsaved.x) + Number(unsaved.width)).toBeLessThan(Number(row[0]!.x));
    expect(middle(unsaved)).toBeGreaterThan(Number(row[0]!.y));
    expect(middle(unsaved)).toBeLessThan(Number(row[0]!.y) + Number(row[0]!.height));
    for (const [left, right] of row.slice(0, -1).map((e, i) => [e, row[i + 1]!] as const)) {
      expect(Math.abs(middle(left) - middle(right))).toBeLessThan(2);
      expect(Number(right.x)).toBeGreaterThan(Number(left.x) + Number(left.width));
    }
    // The long links (`-->`) still go a rank down: ERROR under the row.
    expect(Number(box('ERROR').y)).toBeGreaterThan(Math.max(...row.map((e) => Number(e.y) + Number(e.height))));
  });

  it("draws IRS's `artifact` as a page with its corner folded and its `collections` as stacked boxes, as PlantUML does", async () => {
    const graph = plantumlNotation.toGraph(fixture('irs-deployment-level-1.puml'));
    const scene = await drawGraph(graph, 'plantuml');
    const typeOf = (id: string) => scene.elements.find((e) => e.id === scene.elementIds.nodes.get(id))?.type;
    expect(['IRS Docker image', 'secrets'].map(typeOf)).toEqual(['page', 'stacked']);
  });

  it("draws IRS's components as PlantUML does, a box with the component icon at its top right clear of the label", async () => {
    const graph = plantumlNotation.toGraph(openFixture('irs-building-block-component.puml'));
    const scene = await drawGraph(graph, 'plantuml');
    const element = scene.elements.find((e) => e.id === scene.elementIds.nodes.get('JobOrchestrator'))!;
    expect(element).toMatchObject({ type: 'component', corner: 'sharp' });
  });

  it('writes a `label` as its words alone, without a box, as PlantUML does', () => {
    const graph = plantumlNotation.toGraph(uml('label "Only words"\nfile notes.txt\nnotes.txt --> "Only words"'));
    const words = graph.nodes.find((n) => n.label === 'Only words')!;
    expect(words.style).toMatchObject({ fillColor: '#00000000', strokeColor: '#00000000' });
    expect(graph.nodes.find((n) => n.label === 'notes.txt')?.shape).toBe('page');
  });

  it("draws IRS's deployment chain of `node`s as PlantUML does, boxes in depth", async () => {
    const graph = plantumlNotation.toGraph(fixture('irs-deployment-chain.puml'));
    const scene = await drawGraph(graph, 'plantuml');
    const typeOf = (id: string) => scene.elements.find((e) => e.id === scene.elementIds.nodes.get(id))?.type;
    expect(['ArgoCD', 'GitHub', 'docker', 'k8s', 'vault', 'ops'].map(typeOf)).toEqual(['box-3d', 'box-3d', 'box-3d', 'box-3d', 'box-3d', 'person']);
  });

  it("draws IRS's `() \"BlobStore Interface\"` as PlantUML does, a small circle its lines meet with the name under it", async () => {
    const graph = plantumlNotation.toGraph(openFixture('irs-building-block-component.puml'));
    expect(graph.nodes.find((n) => n.id === 'StoreInterface')).toMatchObject({ kind: 'interface', shape: 'lollipop', label: 'BlobStore Interface' });
    const scene = await drawGraph(graph, 'plantuml');
    const id = scene.elementIds.nodes.get('StoreInterface');
    const circle = scene.elements.find((e) => e.id === id) as { type: string; x: number; y: number; width: number };
    expect(circle.type).toBe('lollipop');
    // Its three lines (two sockets, the line down to the BlobStore) end on the circle, not on the box round its name.
    const centre = { x: circle.x + circle.width / 2, y: circle.y + FIGURE_SIZES.lollipop.height / 2 };
    const ends = scene.elements.flatMap((e) => {
      if (e.type !== 'arrow') return [];
      // A generated arrow's points are in scene coordinates (the intake makes them relative).
      const points = e.points!;
      return [...(e.startBinding?.elementId === id ? [points[0]!] : []), ...(e.endBinding?.elementId === id ? [points.at(-1)!] : [])];
    });
    expect(ends).toHaveLength(3);
    for (const end of ends) expect(Math.hypot(end.x - centre.x, end.y - centre.y)).toBeLessThan(FIGURE_SIZES.lollipop.height / 2 + 3);
  });
});

describe('plantumlNotation on hand-written diagrams', () => {
  it('draws a state’s transitions to one same state as one arrow listing their triggers, as Mermaid’s', () => {
    const graph = plantumlNotation.toGraph(uml('[*] --> Paused\nPaused --> Running : resume\nPaused --> Running : retry\nRunning --> Paused : pause'));
    expect(graph.edges.filter((edge) => edge.from === 'Paused').map((edge) => edge.label)).toEqual(['resume\nretry']);
  });

  it('reads component diagrams: keywords, shorthands, aliases, nesting, arrow forms and labels', () => {
    const graph = plantumlNotation.toGraph(
      uml(`
left to right direction
package "Front end" {
  [Web App] as web <<SPA>>
  node "Edge" as edge {
    component gateway #LightGreen
  }
}
database "Orders DB" as db
queue events
cloud Internet
() "REST" as rest
actor :Shopper: as shopper
shopper --> web : browses
web .up.> rest
rest - gateway
gateway -[#red]-> db : "SQL"
gateway <--> events
Internet -[hidden]- db
`),
    );
    expect(graph.direction).toBe('RIGHT');
    expect(graph.forcedDirection).toBe(true);
    expect(graph.groups).toEqual([
      { id: 'Front end', label: 'Front end', kind: 'package', style: { strokeStyle: 'solid', corner: 'sharp' } },
      { id: 'edge', label: 'Edge', kind: 'node', parent: 'Front end', style: { strokeStyle: 'solid', corner: 'sharp' } },
    ]);
    const node = (id: string) => graph.nodes.find((n) => n.id === id);
    expect(node('web')).toMatchObject({ label: 'Web App', kind: 'component', parent: 'Front end', rows: ['«SPA»'] });
    expect(node('gateway')).toMatchObject({ parent: 'edge', style: { fillColor: '#90ee90' } });
    expect(node('db')).toMatchObject({ label: 'Orders DB', kind: 'database' });
    expect(node('events')).toMatchObject({ kind: 'queue' });
    expect(node('Internet')).toMatchObject({ kind: 'external', shape: 'cloud' });
    expect(node('rest')).toMatchObject({ kind: 'interface' });
    expect(node('shopper')).toMatchObject({ label: 'Shopper', kind: 'actor' });
    expect(graph.edges.map((e) => [e.from, e.to, e.startArrowhead, e.endArrowhead, e.style?.strokeStyle ?? 'solid', e.label ?? ''])).toEqual([
      ['shopper', 'web', 'none', 'arrow', 'solid', 'browses'],
      ['web', 'rest', 'none', 'arrow', 'dashed', ''],
      ['rest', 'gateway', 'none', 'none', 'solid', ''],
      ['gateway', 'db', 'none', 'arrow', 'solid', 'SQL'],
      ['gateway', 'events', 'arrow', 'arrow', 'solid', ''],
      ['Internet', 'db', 'none', 'none', 'solid', ''],
    ]);
    expect(graph.edges[3]!.style?.strokeColor).toBe('#ff0000');
    // The hidden link only places db after Internet along the flow.
    expect(graph.edges[5]).toMatchObject({ hidden: true, toward: 'RIGHT' });
    expect(graph.warnings).toEqual([]);
  });

  it('reads use case diagrams with (use case) and :actor: shorthands', () => {
    const graph = plantumlNotation.toGraph(uml(':Customer: --> (Checkout)\n(Checkout) .> (Pay) : include\nrectangle Shop {\n  usecase (Browse) as UC1\n}\nCustomer -- UC1'));
    expect(graph.nodes.map((n) => `${n.id}:${n.kind}`)).toEqual(['Customer:actor', 'Checkout:usecase', 'Pay:usecase', 'UC1:usecase']);
    expect(graph.nodes.find((n) => n.id === 'UC1')!.parent).toBe('Shop');
    // An actor is drawn as a person (its kind's shape), as PlantUML draws its stick figure.
    expect(sizeNode(graph.nodes[0]!).shape).toBe('person');
    expect(arrows(graph)).toEqual(['Customer -> Checkout', 'Checkout -> Pay [include]', 'Customer -> UC1']);
  });

  it('reads an alias as PlantUML does: no space needed after a quoted name, and between bare words the name first', () => {
    // A FHIR guide's GP registration use cases: `usecase "Request GP Registration"as req` was refused.
    const glued = plantumlNotation.toGraph(uml('left to right direction\nactor "Patient" as patient\npackage "Central" {\n  usecase "Request GP Registration"as req\n}\npatient --> req'));
    expect(glued.nodes.find((n) => n.id === 'req')).toMatchObject({ label: 'Request GP Registration', kind: 'usecase', parent: 'Central' });
    // A gas-station app's context diagram: `actor GoogleMaps as gm` is labelled GoogleMaps, not gm.
    const bareWords = plantumlNotation.toGraph(uml('actor GoogleMaps as gm\ngm <=> (EZGas)'));
    expect(bareWords.nodes.find((n) => n.id === 'gm')?.label).toBe('GoogleMaps');
    // A quoted name after the alias is still the name.
    expect(plantumlNotation.toGraph(uml('actor gm as "Google Maps"\ngm --> (EZGas)')).nodes.find((n) => n.id === 'gm')?.label).toBe('Google Maps');
  });

  it('reads a name no keyword declares as an actor once the diagram has use cases, as PlantUML draws it', () => {
    // joelparkerhenderson/plantuml-examples' use case diagram.
    const graph = plantumlNotation.toGraph(uml('left to right direction\nUser1 --> (Story1)\n(Story1) --> (Story2)'));
    expect(graph.nodes.map((n) => `${n.id}:${n.kind}`)).toEqual(['User1:actor', 'Story1:usecase', 'Story2:usecase']);
    // Beside components, it is an interface, a small circle, as PlantUML draws it (a microservices webshop's
    // `HTTPS - [Frontend]`); without either, a box.
    expect(plantumlNotation.toGraph(uml('User1 --> [Shop]')).nodes.map((n) => `${n.kind}:${n.shape ?? ''}`)).toEqual(['interface:lollipop', 'component:component']);
    expect(plantumlNotation.toGraph(uml('node "Webserver" {\n  HTTPS - [Frontend]\n}')).nodes.map((n) => n.kind)).toEqual(['interface', 'component']);
    expect(plantumlNotation.toGraph(uml('a --> b')).nodes.map((n) => n.kind)).toEqual(['component', 'component']);
  });

  it('maps class relations to UML heads with multiplicities', () => {
    const graph = plantumlNotation.toGraph(
      uml('abstract class Shape\nclass Circle extends Shape implements Drawable\nShape <|-- Square\nCar "1" *-- "4" Wheel : has\nTeam o-- Player\nA ..> B\nenum Color {\n  RED\n  GREEN\n}'),
    );
    const edge = (from: string, to: string) => graph.edges.find((e) => e.from === from && e.to === to);
    // `extends` and `implements` rank the parent first, above the child, the triangle at the parent.
    expect(edge('Shape', 'Circle')).toMatchObject({ startArrowhead: 'triangle-outline', endArrowhead: 'none' });
    expect(edge('Drawable', 'Circle')).toMatchObject({ startArrowhead: 'triangle-outline', style: { strokeStyle: 'dashed' } });
    expect(edge('Shape', 'Square')).toMatchObject({ startArrowhead: 'triangle-outline', endArrowhead: 'none' });
    expect(edge('Car', 'Wheel')).toMatchObject({ startArrowhead: 'diamond', startLabel: '1', endLabel: '4', label: 'has' });
    expect(edge('Team', 'Player')).toMatchObject({ startArrowhead: 'diamond-outline' });
    expect(edge('A', 'B')).toMatchObject({ endArrowhead: 'arrow', style: { strokeStyle: 'dashed' } });
    expect(graph.nodes.find((n) => n.id === 'Color')).toMatchObject({ kind: 'enum', rows: ['«enum»', 'RED', 'GREEN'] });
    expect(graph.nodes.find((n) => n.id === 'Shape')!.rows).toEqual(['«abstract class»']);
  });

  it('reads sequence messages of every form: replies, self, lost, activations, return, opt/loop and notes', () => {
    const graph = plantumlNotation.toGraph(
      uml('actor User\nparticipant "Web Server" as W\nUser -> W ++ : GET /\nW -> W : render\nloop each item\n  W ->x User\nend\nopt cached\n  note right of W : hit\nend\nreturn 200 OK\nUser ->> W : close'),
    );
    expect(graph.nodes.map((n) => `${n.id}:${n.kind}:${n.shape}`)).toEqual(['User:actor:person', 'W:component:rectangle']);
    expect(graph.sequence!.steps).toEqual([
      { type: 'message', from: 'User', to: 'W', dashed: false, startArrowhead: 'none', endArrowhead: 'arrow', label: 'GET /' },
      { type: 'activate', participant: 'W' },
      { type: 'message', from: 'W', to: 'W', dashed: false, startArrowhead: 'none', endArrowhead: 'arrow', label: 'render' },
      { type: 'fragment', kind: 'loop', sections: [{ label: 'each item', steps: [{ type: 'message', from: 'W', to: 'User', dashed: false, startArrowhead: 'none', endArrowhead: 'bar' }] }] },
      { type: 'fragment', kind: 'opt', sections: [{ label: 'cached', steps: [{ type: 'note', position: 'right', participants: ['W'], text: 'hit', shape: 'document' }] }] },
      { type: 'message', from: 'W', to: 'User', dashed: true, startArrowhead: 'none', endArrowhead: 'arrow', label: '200 OK' },
      { type: 'deactivate', participant: 'W' },
      { type: 'message', from: 'User', to: 'W', dashed: false, startArrowhead: 'none', endArrowhead: 'arrow', label: 'close' },
    ]);
  });

  it('reads activity fork, while and swimlanes', () => {
    const graph = plantumlNotation.toGraph(uml('|Team|\nstart\nwhile (more?) is (yes)\n  :work;\nendwhile (no)\nfork\n  :a;\nfork again\n  :b;\nend fork\n|Ops|\n:deploy;\nstop'));
    expect(graph.groups.map((g) => g.label)).toEqual(['Team', 'Ops']);
    const id = (label: string) => graph.nodes.find((n) => n.label === label)!.id;
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: id('more?'), to: id('work'), startLabel: 'yes' }));
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: id('work'), to: id('more?') }));
    const forks = graph.nodes.filter((n) => n.kind === 'fork');
    expect(forks).toHaveLength(2);
    expect(graph.edges.filter((e) => e.to === forks[1]!.id).map((e) => e.from)).toEqual([id('a'), id('b')]);
    expect(graph.nodes.find((n) => n.label === 'deploy')!.parent).toBe(graph.groups[1]!.id);
  });
});

describe('plantumlNotation titles', () => {
  it('keeps the title of the real diagrams, sequence diagrams included', () => {
    expect(plantumlNotation.toGraph(fixture('c4-bigbank-deployment.puml')).title).toBe('Deployment Diagram for Internet Banking System - Live');
    const sequence = plantumlNotation.toGraph(fixture('mojaloop-position-prepare-sequence.plantuml'));
    expect(sequence).toMatchObject({ layout: 'sequence', title: '1.3.1. Prepare Position Handler Consume' });
  });

  it('reads a one-line title as display text: markup dropped, \\n as a line break', () => {
    const graph = plantumlNotation.toGraph(uml('title <b>Order</b> flow\\nversion **2**\nclass Order\nclass Line\nOrder *-- Line'));
    expect(graph.title).toBe('Order flow\nversion 2');
    expect(graph.nodes.map((n) => n.id)).toEqual(['Order', 'Line']);
  });

  it('reads a title … end title block into a title of several lines, not into statements', () => {
    const graph = plantumlNotation.toGraph(uml('title\n  Checkout\n  <i>A -> B : pays</i>\nend title\nA -> B : order\nB --> A : ok'));
    expect(graph.title).toBe('Checkout\nA -> B : pays');
    expect(graph.sequence!.steps).toHaveLength(2);
    const state = plantumlNotation.toGraph(uml('title\nLifecycle\nendtitle\n[*] --> Idle\nIdle --> [*]'));
    expect(state.title).toBe('Lifecycle');
  });

  it('has no title when none is written', () => {
    expect(plantumlNotation.toGraph(uml('A -> B')).title).toBeUndefined();
  });
});

describe('plantumlNotation errors', () => {
  it.each([
    ['no @startuml', 'A -> B', 1, 1, 'expected @startuml'],
    ['a stray brace', uml('[a]\n}'), 3, 1, 'unexpected "}"'],
    ['an unknown statement', uml('[a] --> [b]\n  what is this'), 3, 3, 'expected an element'],
    ['an end without a group', uml('A -> B : x\nend'), 3, 1, '"end" without an open'],
    ['an unclosed class body', uml('class A {\n  + x : int'), 2, 1, 'never closed'],
    ['an endif without if', uml('start\n:a;\nendif\nstop'), 4, 1, 'without an open if'],
  ])('reports %s with line and column', (_case, code, line, column, message) => {
    const error = parseErrorOf(code);
    expect(error.code).toBe('parse_error');
    expect(error.details).toEqual({ line, column });
    expect(error.message).toContain(`line ${line}, column ${column}: `);
    expect(error.message).toContain(message);
  });
});

describe('plantumlNotation reads what PlantUML tolerates (real files of the conformance sample)', () => {
  const sample = (name: string) => readFileSync(new URL(`../../../../test/fixtures/conformance/plantuml/${name}`, import.meta.url), 'utf8');

  it('reads keywords in any case: skinParam is presentation like skinparam', () => {
    const graph = plantumlNotation.toGraph(uml('skinParam monochrome true\nSkinParam Shadowing {\n  x 1\n}\nclass A'));
    expect(graph.nodes.map((n) => n.label)).toEqual(['A']);
  });

  it('attaches a note with no `of` after links to the last link\'s target, and sets a bottom note under it (a cloud-ops deployment)', async () => {
    const graph = plantumlNotation.toGraph(
      uml(['node "Cluster" {', '  component "Processor" as Proc', '  component "Loki" as Loki', '  component "Budgets" as PDB', '}', 'Proc --> Loki : logs', 'note bottom', 'New: Loki', 'end note'].join('\n')),
    );
    const note = graph.nodes.find((n) => n.kind === 'note')!;
    // The last link's target (as PlantUML attaches it), not the last component declared; from it, so ranked after it.
    expect(graph.edges.find((e) => e.to === note.id || e.from === note.id)).toMatchObject({ from: 'Loki', to: note.id });
    const scene = await drawGraph(graph, 'plantuml');
    const box = (id: string) => scene.elements.find((e) => e.id === scene.elementIds.nodes.get(id))!;
    expect(Number(box(note.id).y)).toBeGreaterThan(Number(box('Loki').y) + Number(box('Loki').height));
  });

  it("sets C4's Rel_Neighbor target beside its source, the short link it is (the bank's container sample, as PlantUML draws it)", async () => {
    // `Rel_Neighbor(web_app, spa)` is `web_app ->> spa`, `Rel_Back_Neighbor(database, backend_api)` `database <<- backend_api`:
    // the single-page app ran a rank under the web app, the database under the API, the drawing 1,070 × 2,099 px.
    const graph = plantumlNotation.toGraph(sample('samples--C4_Container--Diagram--Sample-----bigbankplc.puml'));
    expect(graph.edges.filter((e) => e.toward !== undefined).map((e) => `${e.from}->${e.to}:${e.toward}`)).toEqual(['web_app->spa:RIGHT', 'backend_api->database:LEFT', 'backend_api->banking_system:RIGHT']);
    const scene = await drawGraph(graph, 'plantuml');
    const box = (id: string) => scene.elements.find((e) => e.id === scene.elementIds.nodes.get(id))!;
    const middle = (id: string) => Number(box(id).y) + Number(box(id).height) / 2;
    const [web, spa, api, db] = ['web_app', 'spa', 'backend_api', 'database'].map(box) as [ReturnType<typeof box>, ReturnType<typeof box>, ReturnType<typeof box>, ReturnType<typeof box>];
    expect(Math.abs(middle('web_app') - middle('spa'))).toBeLessThan(2);
    expect(Number(spa.x)).toBeGreaterThan(Number(web.x) + Number(web.width));
    expect(Math.abs(middle('backend_api') - middle('database'))).toBeLessThan(2);
    expect(Number(db.x) + Number(db.width)).toBeLessThan(Number(api.x));
  });

  it('ends a diagram at an @end line that is not @enduml, and at the end of the code, saying so (cluster-api)', () => {
    // cluster-api's worker-machines-resources.plantuml ends in "@endurl"; its objects are a class diagram.
    const graph = plantumlNotation.toGraph(sample('docs--book--src--images--worker-machines-resources.puml'));
    expect(graph.nodes.map((n) => n.id)).toContain('MachineDeployment');
    expect(graph.warnings).toContain('line 63: "@endurl" read as @enduml');
    const open = plantumlNotation.toGraph('@startuml\nA -> B : hi');
    expect(open.warnings).toContain('@startuml of line 1 is never closed with @enduml: read to the end of the code');
  });

  it('closes a package left open at @enduml, and a par2 group, saying so', () => {
    const graph = plantumlNotation.toGraph(uml('package p {\n  class A\nclass B'));
    expect(graph.groups.map((g) => g.label)).toEqual(['p']);
    expect(graph.warnings).toContain('line 2: "package p {" is never closed with "}": closed at @enduml');
    const aries = plantumlNotation.toGraph(sample('concepts--0051-dkms--puml--09-add-connection-private-did-unprovisioned.puml'));
    expect(aries.warnings).toContain('line 80: "par" is never closed with "end": closed at @enduml');
  });

  it('joins a line ending in a backslash with the next, and reads an arrow colour before its dashes (aries-rfcs)', () => {
    const agent = plantumlNotation.toGraph(sample('concepts--0051-dkms--puml--06-add-new-edge-agent.puml'));
    expect(agent.sequence?.steps.some((step) => step.type === 'message' && step.label === 'add agent\nwith selected authorizations')).toBe(true);
    const payment = plantumlNotation.toGraph(sample('concepts--0478-coprotocols--payment-protocol.puml'));
    expect(payment.nodes.length).toBeGreaterThan(1);
  });

  it('reads an activity condition written over several lines (cluster-api topology controller)', () => {
    const graph = plantumlNotation.toGraph(sample('docs--book--src--images--cluster-topology-controller.puml'));
    expect(graph.nodes.some((n) => n.kind === 'decision' && n.label === 'Check if the MachineDeployment matches\na ClusterClass workers template')).toBe(true);
  });

  it('reads a legacy arrow into a decision and an unquoted target of several words (cluster-api kubelet authentication)', () => {
    const graph = plantumlNotation.toGraph(sample('docs--proposals--images--kubelet-authentication--client-authenticator-flow.puml'));
    const label = (id: string) => graph.nodes.find((n) => n.id === id)?.label;
    expect(graph.edges.map((e) => `${label(e.from)} -> ${label(e.to)}`)).toContain('certificate expires -> Return kubeconfig');
  });

  it('reads every deployment element keyword, a "title:" with a colon, and expands a procedure the file defines', () => {
    const graph = plantumlNotation.toGraph(uml('title: Deploy\n!procedure $card($n)\n  card $n\n!endprocedure\n$card(x)\naction build\nprocess ship\nbuild --> ship'));
    expect(graph.title).toBe('Deploy');
    expect(graph.nodes.map((n) => [n.label, n.kind])).toEqual([['x', 'generic'], ['build', 'action'], ['ship', 'action']]);
    // A participant named Process is still a sequence's (aries-rfcs keyring.puml).
    expect(plantumlNotation.toGraph(sample('features--0042-lox--keyring.puml')).layout).toBe('sequence');
  });

  it('reads the ArchiMate library: layer elements with their type, relations with their kind, groupings', () => {
    const graph = plantumlNotation.toGraph(
      uml('!include <archimate/Archimate>\nGrouping(g, "Shop") {\n  Business_Actor(customer, "Customer")\n  Application_Component(app, "Web shop")\n}\nRel_Serving(app, customer, "orders")'),
    );
    expect(graph.nodes.map((n) => [n.label, n.rows])).toEqual([
      ['Customer', ['[Business Actor]']],
      ['Web shop', ['[Application Component]']],
    ]);
    expect(graph.groups.map((g) => g.label)).toEqual(['Shop']);
    expect(graph.edges.map((e) => e.label)).toEqual(['orders\n«serving»']);
  });

  it('sets the target of a short link (A - B, A -> B) beside its source, as PlantUML does, and a long one (-->) below it', async () => {
    // The shape of Tractus-X EDC's Kafka extension: an interface joined to its service by one dash, calls by two.
    const graph = plantumlNotation.toGraph(
      uml('package "Provider cluster" {\n  [Kafka Extension] as KE\n  [OAuth Service] as OAuthService\n  interface "OAuth Token API" as OAuth\n  OAuth - OAuthService\n}\nKE --> OAuth : Mint token\n[Control Plane] as CP\nCP -> KE : Start'),
    );
    expect(graph.edges.map((e) => [e.from, e.to, e.toward, e.hidden])).toEqual([
      ['OAuth', 'OAuthService', 'RIGHT', undefined],
      ['KE', 'OAuth', undefined, undefined],
      ['CP', 'KE', 'RIGHT', undefined],
    ]);
    const scene = await drawGraph(graph, 'plantuml');
    const box = (id: string) => scene.elements.find((e) => e.id === scene.elementIds.nodes.get(id))!;
    const middle = (id: string) => Number(box(id).y) + Number(box(id).height) / 2;
    expect(Math.abs(middle('OAuth') - middle('OAuthService'))).toBeLessThan(2);
    expect(Number(box('OAuthService').x)).toBeGreaterThan(Number(box('OAuth').x) + Number(box('OAuth').width));
    expect(Number(box('OAuth').y)).toBeGreaterThan(Number(box('KE').y) + Number(box('KE').height));
  });

  it('draws the author\'s legend (legend … end legend), which was left out without a word: under a sequence\'s last message, beside a component diagram\'s elements', () => {
    // The shape of mojaloop's timeout handler: table abbreviations in a legend between the participants and the messages.
    const legend = 'legend\n<i>DB tables:</i>\n<b>TT</b> - transferTimeout\n<b>TE</b> - transferError\nend legend';
    const sequence = plantumlNotation.toGraph(uml(`participant "Timeout handler" as toh\ndatabase DB as db\nqueue Topic as topic\n${legend}\ntoh -> db : cleanup TT\ntoh -> topic : produce`));
    const last = sequence.sequence!.steps.at(-1)!;
    expect(last).toMatchObject({ type: 'note', position: 'over', participants: ['db'], text: 'DB tables:\nTT - transferTimeout\nTE - transferError' });
    expect(sequence.sequence!.steps.filter((step) => step.type === 'message')).toHaveLength(2);
    const component = plantumlNotation.toGraph(uml(`[API] --> [Store]\nlegend right\nAPI: the public API\nendlegend`));
    expect(component.legend).toBe('API: the public API');
    expect(component.nodes.map((node) => node.id)).toEqual(['API', 'Store']);
  });

  it('draws `archimate #Layer "Label" as alias <<type>>` elements in their layer colour with their type (a file of only these was refused as a sequence)', () => {
    // The shape of a capacity map in a project's design notes: four business elements and the arrows between them.
    const graph = plantumlNotation.toGraph(
      uml(
        'archimate #Business "Event app" as app <<business-service>>\narchimate #Business "Ticketing" as tickets <<business-process>>\n' +
          'archimate #Application "Box office" as office <<application-component>>\narchimate #Motivation "Less fraud" as fraud <<motivation-goal>>\n' +
          'rectangle "Ledger" as ledger #Technology\napp --> tickets\noffice --> tickets\ntickets --> fraud\noffice --> ledger',
      ),
    );
    expect(graph.layout).toBe('layered');
    expect(graph.nodes.map((n) => [n.label, n.rows, n.style?.fillColor])).toEqual([
      ['Event app', ['[Business Service]'], '#ffff00'],
      ['Ticketing', ['[Business Process]'], '#ffff00'],
      ['Box office', ['[Application Component]'], '#a9dcdf'],
      ['Less fraud', ['[Motivation Goal]'], '#b19cd9'],
      ['Ledger', undefined, '#90ee90'],
    ]);
    expect(arrows(graph)).toEqual(['app -> tickets', 'office -> tickets', 'tickets -> fraud', 'office -> ledger']);
  });

  it('reads C4-PlantUML sequence diagrams: element macros are participants, Rel(…) are messages', () => {
    const graph = plantumlNotation.toGraph(sample('samples--C4_Sequence--Diagram--Sample-----complex.puml'));
    expect(graph.layout).toBe('sequence');
    expect(graph.nodes.map((n) => n.label)).toEqual(['Alice', 'Bob']);
    expect(graph.sequence?.steps.filter((step) => step.type === 'message').length).toBeGreaterThan(3);
  });
});

describe("PlantUML's preprocessor, on what a file defines for itself", () => {
  const shown = (code: string) => {
    const graph = plantumlNotation.toGraph(uml(code));
    return { nodes: graph.nodes.map((n) => [n.id, n.label]), edges: graph.edges.map((e) => [e.from, e.to, e.label ?? '']), warnings: graph.warnings };
  };

  it('expands a procedure call with bare and quoted arguments (plantuml-examples procedure.plantuml)', () => {
    const drawn = shown('!procedure $demo($name, $headline, $description)\n  card $name as "<size:22>$headline</size>\\n$description"\n!endprocedure\n$demo(MyCard, "Hello World", "This is a demonstration")');
    expect(drawn.nodes).toEqual([['MyCard', 'Hello World\nThis is a demonstration']]);
    expect(drawn.warnings).toEqual([]);
  });

  it('reads variables, conditions, loops, functions and legacy macros as PlantUML does', () => {
    const drawn = shown([
      '!$env = "prod"',
      '!$env ?= "test"',
      '!define DB(alias, label) database alias as label',
      '!function $tag($x) !return "[" + $x + "]"',
      '!if $env == "prod" && %strlen($env) > 2',
      '  DB(main, "Main $env")',
      '!elseif $env == "test"',
      '  DB(test, "Test")',
      '!else',
      '  DB(other, "Other")',
      '!endif',
      '!$i = 0',
      '!while $i < 3',
      '  node "n$i" as n$i',
      '  !$i = $i + 1',
      '!endwhile',
      '!ifndef NOPE',
      'n0 --> main : $tag("write")',
      '!endif',
    ].join('\n'));
    expect(drawn.nodes).toEqual([['main', 'Main prod'], ['n0', 'n0'], ['n1', 'n1'], ['n2', 'n2']]);
    expect(drawn.edges).toEqual([['n0', 'main', '[write]']]);
  });

  it('takes defaults, named arguments and procedures without a dollar (as C4 writes them)', () => {
    const drawn = shown('!unquoted procedure Box($alias, $label = "Unnamed", $tech = "")\nrectangle "$label $tech" as $alias\n!endprocedure\nBox(a)\nBox(b, $tech="(Go)", $label="API")\na --> b');
    expect(drawn.nodes).toEqual([['a', 'Unnamed'], ['b', 'API (Go)']]);
    expect(drawn.edges).toEqual([['a', 'b', '']]);
  });

  it('takes a bare word as text and says when a condition is beyond it (C4-PlantUML percy tests), never failing', () => {
    const drawn = shown('!$theme=C4_blue\n!if %feature("x")\nnode skipped\n!elseif %variable_exists("$theme")\nnode "$theme" as chosen\n!endif');
    expect(drawn.nodes).toEqual([['chosen', 'C4_blue']]);
    expect(drawn.warnings).toEqual(['line 3: the condition "%feature("x")" could not be worked out (%feature); read as false']);
  });

  it('reads a name in doubled quotes (monospace) and leaves out sprites of libraries not read (plantuml-examples area-diagram)', () => {
    const drawn = shown('stack ""<size:20>Example</size>\\nexample"" as S\ncard "<$cubes>\\n<size:22>Pipe</size> <&heart>" as P\nS -r-> P');
    expect(drawn.nodes).toEqual([['S', 'Example\nexample'], ['P', 'Pipe']]);
    expect(drawn.edges).toEqual([['S', 'P', '']]);
    expect(shown('[a] --> [b] : "uses"\n[b] --> [a] : say "hi"').edges).toEqual([['a', 'b', 'uses'], ['b', 'a', 'say "hi"']]);
  });

  it('reads an !if left open at @enduml to the end, as PlantUML does (mojaloop FXAPI_Payer_Receive_Agreement)', () => {
    const drawn = shown('!$short = false\n!if ($short != true)\nnode a\n!if ($short == true)\nnode b\n!endif\nnode c');
    expect(drawn.nodes.map(([id]) => id)).toEqual(['a', 'c']);
    expect(drawn.warnings).toEqual(['line 3: "!if ($short != true)" is never closed with !endif: read to the end']);
  });

  it('still says what lives in files it does not fetch, and bounds what it expands', () => {
    expect(shown('!include <awslib/AWSCommon>\nnode a').warnings.join()).toMatch(/skipped 1 preprocessor line \(!include/);
    expect(() => plantumlNotation.toGraph(uml('!$i = 0\n!while 1\nnode x\n!endwhile'))).toThrow(/line 3, column 1: !while ran more than/);
    expect(() => plantumlNotation.toGraph(uml('!procedure $f()\n$f()\n!endprocedure\n$f()'))).toThrow(/line 3, column 1: procedures and functions call each other more than 32 deep/);
    expect(() => plantumlNotation.toGraph(uml('!procedure $f()\nnode x'))).toThrow(/line 2, column 1: "!procedure \$f\(\)" is never closed/);
  });
});

describe('plantumlNotation detection', () => {
  async function converters(): Promise<NotationConverter[]> {
    const found: NotationConverter[] = [plantumlNotation];
    for (const name of ['compose', 'kubernetes', 'dot', 'terraform', 'helm', 'sql']) {
      try {
        const module = (await import(/* @vite-ignore */ `../${name}/index.js`)) as Record<string, NotationConverter | undefined>;
        const converter = module[`${name}Notation`];
        if (converter) found.push(converter);
      } catch {
        // Not written yet in this checkout.
      }
    }
    return found;
  }

  for (const file of readdirSync(folder).filter((f) => f !== 'NOTICE.md')) {
    it(`claims ${file} above every other converter`, async () => {
      const code = fixture(file);
      const others = (await converters()).filter((c) => c.id !== 'plantuml').map((c) => c.detect(code));
      expect(plantumlNotation.detect(code)).toBeGreaterThanOrEqual(0.9);
      expect(Math.max(0, ...others)).toBeLessThan(plantumlNotation.detect(code));
    });
  }

  it('does not claim code without @startuml', () => {
    expect(plantumlNotation.detect('digraph { a -> b }')).toBe(0);
    expect(plantumlNotation.detect('services:\n  web:\n    image: nginx')).toBe(0);
  });
});

describe('plantumlNotation tells a class diagram inside packages', () => {
  it('reads classes in nested packages as a class diagram (java-design-patterns microservices-distributed-tracing)', () => {
    const graph = plantumlNotation.toGraph(uml('!theme vibrant\npackage com.iluwatar.microservices-distributed-tracing {\npackage "Payment Microservice" {\n    class PaymentController {\n        +processPayment()\n    }\n}\n}'));
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([['PaymentController', ['+ processPayment()']]]);
    expect(graph.groups.map((g) => g.label)).toEqual(['com.iluwatar.microservices-distributed-tracing', 'Payment Microservice']);
  });
});

describe('PlantUML sequence forms of mojaloop\'s documentation', () => {
  it('reads a note whose text has a line "header", a bare deactivate and a lost message written ->X', () => {
    const graph = plantumlNotation.toGraph(uml([
      'participant A', 'participant B',
      'A -> B : POST /quotes', 'activate B',
      'note left', 'header', '  source: A', 'end note',
      'B -> B : run', 'deactivate',
      'B -->X A : return rejected',
    ].join('\n')));
    const steps = graph.sequence!.steps;
    expect(steps.filter((step) => step.type === 'note').map((step) => (step as { text: string }).text)).toEqual(['header\nsource: A']);
    expect(steps.filter((step) => step.type === 'deactivate')).toEqual([{ type: 'deactivate', participant: 'B' }]);
    expect(steps.filter((step) => step.type === 'message').at(-1)).toMatchObject({ from: 'B', to: 'A', endArrowhead: 'bar', label: 'return rejected' });
  });

  it('sets a note left or right of a message beside that end of it, whichever way the message runs (interscheme happy path)', () => {
    const graph = plantumlNotation.toGraph(uml([
      'participant payerDFSP', 'participant schemeB', 'participant payeeDFSP',
      'payeeDFSP -> schemeB: PUT /xxx', 'note right', '  source: payeeDFSP', 'end note',
      'schemeB -> payerDFSP: PUT /xxx', 'note left', '  destination: payerDFSP', 'end note',
      'schemeB -> payeeDFSP: GET /xxx', 'note right: to the payee',
    ].join('\n')));
    // PlantUML sets them past the message's far end on that side: beside the target of a right-to-left message it covered the message.
    const notes = graph.sequence!.steps.filter((step) => step.type === 'note').map((step) => (step as { participants: string[]; position: string }));
    expect(notes.map((note) => [note.position, note.participants])).toEqual([['right', ['payeeDFSP']], ['left', ['payerDFSP']], ['right', ['payeeDFSP']]]);
  });
});

describe('PlantUML sequence groups closed by name', () => {
  it('reads `end loop`, `end group` and `end alt` as PlantUML does, instead of refusing the diagram', () => {
    const graph = plantumlNotation.toGraph(
      ['@startuml', 'participant A', 'participant B', 'loop every minute', 'A -> B: ping', 'end loop', 'group Retry', 'B -> A: pong', 'end group', 'alt ok', 'A -> B : yes', 'else failed', 'A -> B : no', 'end alt', '@enduml'].join('\n'),
    );
    const fragments = (graph.sequence?.steps ?? []).filter((s) => s.type === 'fragment') as Array<{ sections: Array<{ steps: unknown[] }> }>;
    expect(fragments).toHaveLength(3);
    expect(fragments.map((f) => f.sections.length)).toEqual([1, 1, 2]);
    expect(graph.warnings).toEqual([]);
  });

  it('closes a group at `end` followed by anything, as PlantUML reads `end opt;` (IRS 3_ValidityChecker)', () => {
    const graph = plantumlNotation.toGraph(uml(['participant IRS', 'participant Checker', 'opt (isValid) then', '    IRS <-- Checker : false', 'else', '    IRS <-- Checker : true', 'end opt;', 'IRS --> IRS: process twin.'].join('\n')));
    const steps = graph.sequence?.steps ?? [];
    expect(steps.map((s) => s.type)).toEqual(['fragment', 'message']);
    expect(graph.warnings).toEqual([]);
  });
});

describe('PlantUML sequence forms from its documentation', () => {
  it('reads lost and found messages and keeps a group colour out of its label', () => {
    const graph = plantumlNotation.toGraph(
      ['@startuml', 'participant A', 'participant B', 'group #FFFFFFCC Retry', 'A -> B: ping', 'else #LightBlue fallback', 'B -> A: pong', 'end', 'A -> ? : lost', '?-> A : found', '@enduml'].join('\n'),
    );
    const steps = graph.sequence!.steps as Array<{ type: string; label?: string; sections?: Array<{ label: string }> }>;
    expect(steps[0]!.sections!.map((s) => s.label)).toEqual(['Retry', 'fallback']);
    expect(steps.filter((s) => s.type === 'message').map((s) => s.label)).toEqual(['lost', 'found']);
    expect(steps.filter((s) => s.type === 'message').map((s) => (s as { outside?: string }).outside)).toEqual(['right', 'left']);
    expect(graph.warnings).toEqual([]);
  });

  it('draws a found message from the diagram\'s left edge and a reply out to it, not as loops on the participant (a family-app controller\'s `-> controller`)', async () => {
    const drawn = await drawGraph(plantumlNotation.toGraph(uml(['participant Controller', 'participant Service', '-> Controller : addFamilyMember(dto)', 'Controller -> Service : addPerson(dto)', '<-- Controller : responseEntity(OK)', 'Service ->] : audit'].join('\n'))));
    const arrows = drawn.elements.filter((e) => e.type === 'arrow') as Array<{ points: Array<{ x: number; y: number }>; startBinding?: unknown; endBinding?: unknown }>;
    const lifeline = (name: string) => {
      const head = drawn.elements.find((e) => (e as { text?: string }).text === name)!;
      return Number(head.x) + Number(head.width) / 2;
    };
    const [found, , reply, lost] = arrows;
    // Level arrows, each from the lifeline out past the heads on its side: two points, not a loop of four.
    for (const arrow of [found!, reply!, lost!]) expect(arrow.points).toHaveLength(2);
    expect(found!.points[0]!.x).toBeLessThan(lifeline('Controller') - 40);
    expect(found!.points[1]!.x).toBeCloseTo(lifeline('Controller'), 0);
    expect([found!.startBinding, found!.endBinding !== undefined]).toEqual([undefined, true]);
    expect(reply!.points[0]!.x).toBeLessThan(lifeline('Controller') - 40);
    expect(lost!.points[1]!.x).toBeGreaterThan(lifeline('Service') + 40);
  });

  it('draws the Mojaloop "Central Service" participant box instead of dropping it with a warning', () => {
    const graph = plantumlNotation.toGraph(fixture('mojaloop-position-prepare-sequence.plantuml'));
    expect(graph.sequence!.boxes).toEqual([
      { label: 'Central Service', participants: ['POS_HANDLER', 'TOPIC_NOTIFICATIONS', 'POS_MGMT', 'POS_DAO', 'DB'], fillColor: expect.stringMatching(/^#/) },
    ]);
    expect(graph.warnings.filter((w) => w.includes('box'))).toEqual([]);
  });

  it('puts in a box whoever is created while it is open, or declared again there, as PlantUML does', () => {
    const graph = plantumlNotation.toGraph(
      ['@startuml', 'participant Moved', 'box "Shop" #LightBlue', 'actor A order 10', 'A -> Implicit', 'participant Moved', 'participant Leaves', 'end box', 'participant Leaves', 'participant C order 5', '@enduml'].join('\n'),
    );
    // Declared again, Moved joins the box at its end and Leaves leaves it; order 5 puts C between the box's columns.
    expect(graph.nodes.map((n) => n.id)).toEqual(['Implicit', 'Moved', 'Leaves', 'C', 'A']);
    expect(graph.sequence!.boxes).toEqual([{ label: 'Shop', fillColor: expect.stringMatching(/^#/), participants: ['Implicit', 'Moved', 'A'] }]);
  });

  it('shows the first of two unquoted names and lets messages use the second, as PlantUML does (participant Bob as B)', () => {
    const graph = plantumlNotation.toGraph(['@startuml', 'actor User as U', 'participant "Web App" as W', 'participant DB as "Orders DB"', 'U -> W', 'W -> DB', '@enduml'].join('\n'));
    expect(graph.nodes.map((n) => `${n.id}=${n.label}`)).toEqual(['U=User', 'W=Web App', 'DB=Orders DB']);
    expect(graph.sequence!.steps.map((s) => (s.type === 'message' ? `${s.from}->${s.to}` : s.type))).toEqual(['U->W', 'W->DB']);
  });
});

describe('PlantUML class diagrams with generics and modifiers', () => {
  it('reads the java-design-patterns Promise diagram: Promise<T> and the links naming Promise are one class, {static} kept', () => {
    const graph = plantumlNotation.toGraph(fixture('jdp-promise-class.urm.puml'));
    expect(graph.nodes.map((n) => `${n.id}:${n.label}`)).toEqual([
      'PromiseSupport:PromiseSupport<T>',
      'ConsumeAction:ConsumeAction',
      'TransformAction:TransformAction<V>',
      'App:App',
      'Promise:Promise<T>',
      'Utility:Utility',
      'Map:Map',
    ]);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toContain('Promise->PromiseSupport');
    const promise = graph.nodes.find((n) => n.id === 'Promise')!;
    // Generic signatures are kept whole.
    expect(promise.rows).toContain('+ thenApply(func : Function<? super T, V>) : Promise<V>');
    expect(graph.nodes.find((n) => n.id === 'App')!.rows).toContain('+ static main(args : String[])');
    // `~` is package visibility here, not creole's escape.
    expect(graph.nodes.find((n) => n.id === 'PromiseSupport')!.rows).toContain('~ fulfill(value : T)');
  });

  it('matches Observable‹T› and Observable<T> in links with their declaration, and keeps {abstract} as a word', () => {
    const graph = plantumlNotation.toGraph(
      ['@startuml', 'abstract class Observable<T> {', '  {abstract} + subscribe(o : Observer<T>) : Disposable', '}', 'class Subject<T>', 'Observable‹T› <|-- Subject<T>', 'Subject --> "many" Observable<T>', '@enduml'].join('\n'),
    );
    expect(graph.nodes.map((n) => n.id)).toEqual(['Observable', 'Subject']);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['Observable->Subject', 'Subject->Observable']);
    expect(graph.nodes[0]!.rows).toEqual(['«abstract class»', '+ abstract subscribe(o : Observer<T>) : Disposable']);
  });
});

describe('PlantUML sequence constructs not drawn', () => {
  it('says, with its line, that autoactivate is not applied, instead of drawing no bars silently', () => {
    const graph = plantumlNotation.toGraph(['@startuml', 'autoactivate on', 'A -> B : call', 'B --> A', '@enduml'].join('\n'));
    expect(graph.warnings).toEqual(['line 2: autoactivate is not applied; activation bars are drawn where activate, ++ or return say']);
  });
});

describe('plantumlNotation direction', () => {
  it('leaves the direction free unless the author wrote one, either way', () => {
    expect(plantumlNotation.toGraph(uml('class A\nclass B\nA --> B')).forcedDirection).toBeUndefined();
    const down = plantumlNotation.toGraph(uml('top to bottom direction\nclass A\nclass B\nA --> B'));
    expect([down.direction, down.forcedDirection]).toEqual(['DOWN', true]);
  });
});

describe('PlantUML sequence examples of its documentation that were refused or misread', () => {
  const seq = (...body: string[]) => plantumlNotation.toGraph(uml(body.join('\n')));
  const messages = (graph: GraphIR) => graph.sequence!.steps.flatMap((s) => (s.type === 'message' ? [`${s.from}->${s.to}${s.label ? `: ${s.label}` : ''}`] : []));

  it('leaves room for `|||` and `||45||` between messages instead of dropping them', () => {
    const graph = seq('Alice -> Bob: message 1', '|||', 'Alice -> Bob: message 2', '||45||', 'Alice -> Bob: message 3');
    expect(graph.sequence!.steps.map((s) => s.type)).toEqual(['message', 'space', 'message', 'space', 'message']);
    expect(graph.sequence!.steps[3]).toEqual({ type: 'space', height: 45 });
  });

  it('draws `newpage` as a separator with its title on one page, and says so with its line; `ignore newpage` is read', () => {
    const graph = seq('Alice -> Bob : message 1', 'newpage', 'Alice -> Bob : message 3', 'newpage A title for the\\nlast page', 'Alice -> Bob : message 5');
    expect(graph.sequence!.steps.filter((s) => s.type === 'divider')).toEqual([
      { type: 'divider', text: '' },
      { type: 'divider', text: 'A title for the\nlast page' },
    ]);
    expect(graph.warnings).toEqual(['line 3: newpage is drawn as a separator: the diagram is one page', 'line 5: newpage is drawn as a separator: the diagram is one page']);
    expect(messages(seq('ignore newpage', 'Alice -> Bob : x'))).toEqual(['Alice->Bob: x']);
  });

  it('reads activation shortcuts with a colour (`++ #gold:`), `!!` on the receiver and `return` after them', () => {
    const graph = seq('alice -> bob ++ : hello', 'bob -> bib ++ #005500 : hi', 'bob -> george ** : create', 'return done', 'bob -> george !! : delete', 'return success', 'A -> B ++ #gold: hello');
    expect(graph.layout).toBe('sequence');
    expect(messages(graph)).toEqual(['alice->bob: hello', 'bob->bib: hi', 'bob->george: create', 'bib->bob: done', 'bob->george: delete', 'bob->alice: success', 'A->B: hello']);
    expect(graph.warnings).toEqual([
      'line 4: create: the participant is drawn from the top, not from its creation',
      'line 6: destroy: the lifeline runs on, without the cross that ends it',
    ]);
  });

  it('reads teoz forms (`&` parallel, `{anchor}`, `/ note`), slanted arrows and hyperlinks, and says what is not drawn', () => {
    const graph = seq(
      'participant Alice [[http://plantuml.com]]',
      '{start} Alice ->(10) Bob : hello [[http://plantuml.com]]',
      '& Bob -> Charlie : hi',
      'note over Alice : a',
      '/ note over Bob : b',
      '{end} Bob -> Alice : finish',
      '{start} <-> {end} : some time',
    );
    expect(messages(graph)).toEqual(['Alice->Bob: hello', 'Bob->Charlie: hi', 'Bob->Alice: finish']);
    expect(graph.warnings).toEqual([
      'line 3: slanted message (10) is drawn level',
      'line 4: "&" (level with the step before) is drawn below that step',
      'line 6: "/" (level with the step before) is drawn below that step',
      'line 8: duration arrow between teoz anchors is not drawn',
    ]);
  });

  it('reads a participant described over several lines, a target declared by a message with `as`, and `order`', () => {
    const graph = seq('participant Last order 30', 'participant Participant [', '  =Title', '  ----', '  ""SubTitle""', ']', 'participant First order -10', 'Alice -> "Bob()" : Hello', '"Bob()" -> "This is very\\nlong" as Long', 'Long --> "Bob()" : ok');
    expect(graph.nodes.map((n) => `${n.id}=${n.label}`)).toEqual(['First=First', 'Participant=Title\nSubTitle', 'Alice=Alice', 'Bob()=Bob()', 'Long=This is very\nlong', 'Last=Last']);
    expect(messages(graph)).toEqual(['Alice->Bob(): Hello', 'Bob()->Long', 'Long->Bob(): ok']);
  });

  it('shows a participant stereotype over its name, without the spot letter', () => {
    const graph = seq('participant "Famous Bob" as Bob << Generated >>', 'participant Alice << (C,#ADD1B2) Testable >>', 'Bob -> Alice : First message');
    expect(graph.nodes.map((n) => n.label)).toEqual(['«Generated»\nFamous Bob', '«Testable»\nAlice']);
  });

  it('draws the participants again under their lifelines (PlantUML’s foot box) unless the diagram says `hide footbox`', () => {
    // electricilies' sign-in sequence (seven participants, 23 messages) ends far from its heads and says nothing of the foot box.
    expect(seq('actor User as U', 'boundary SignInView as SIV', 'U -> SIV : Click Sign In').sequence?.mirrored).toBe(true);
    expect(seq('hide footbox', 'Alice -> Bob : hello').sequence?.mirrored).toBeUndefined();
    expect(seq('hide footbox', 'show footbox', 'Alice -> Bob : hello').sequence?.mirrored).toBe(true);
    expect(seq('hide footbox', 'Alice -> Bob : hello').warnings).toEqual([]);
  });

  it('leaves out participants that take no part when the diagram says `hide unlinked`', () => {
    expect(seq('hide unlinked', 'participant Alice', 'participant Bob', 'participant Carol', 'Alice -> Bob : hello').nodes.map((n) => n.id)).toEqual(['Alice', 'Bob']);
    expect(seq('participant Alice', 'participant Bob', 'participant Carol', 'Alice -> Bob : hello').nodes.map((n) => n.id)).toEqual(['Alice', 'Bob', 'Carol']);
  });

  it('numbers as autonumber says: formats, stop and resume, dotted numbers and `inc A`', () => {
    const graph = seq('autonumber 10 10 "<b>[000]"', 'A -> B : x', 'autonumber stop', 'A -> B : dummy', 'autonumber resume "<font color=red><b>Message 0  "', 'A -> B : y', 'autonumber 1.1.1', 'A -> B : z', 'A -> B : w', 'autonumber inc A', 'A -> B : v');
    expect(messages(graph)).toEqual(['A->B: [010] x', 'A->B: dummy', 'A->B: Message 20 y', 'A->B: 1.1.1 z', 'A->B: 1.1.2 w', 'A->B: 2.1.1 v']);
  });

  it('keeps both colours of `alt#Gold #LightBlue` and creole strike-through out of the text', () => {
    const graph = seq('alt#Gold #LightBlue Successful case', 'Bob -> Alice: --not-- accepted', 'end');
    const alt = graph.sequence!.steps[0]!;
    expect(alt).toMatchObject({ type: 'fragment', sections: [{ label: 'Successful case', steps: [{ type: 'message', label: 'not accepted' }] }] });
  });
});

describe('PlantUML class diagram forms of its documentation', () => {
  const cls = (...body: string[]) => plantumlNotation.toGraph(uml(body.join('\n')));

  it('applies hide, show and remove in order: classes by name, stereotype or unlinked, and members per class', () => {
    const graph = cls(
      'class Foo',
      'class Bar {',
      '  +x : int',
      '  +run()',
      '}',
      'class Baz <<Serializable>> {',
      '  String name',
      '}',
      'class Qux',
      'class Lonely',
      'Foo --> Bar',
      'Bar --> Baz',
      'Bar --> Qux',
      'hide empty members',
      'hide circle',
      'hide <<Serializable>>',
      'hide Foo',
      'remove Qux',
      'hide members',
      'show Bar methods',
      'remove @unlinked',
    );
    expect(graph.nodes.map((n) => n.id)).toEqual(['Bar']);
    expect(graph.nodes[0]!.rows).toEqual(['+ run()']);
    expect(graph.edges).toEqual([]);
    expect(graph.warnings).toEqual([]);
  });

  it('keeps a stereotype\'s name and leaves out its spot: << (S,#FF7700) Singleton >> is «Singleton»', () => {
    const graph = cls('class System << (S,#FF7700) Singleton >>', 'class Date << (D,orchid) >>');
    expect(graph.nodes.map((n) => n.rows ?? [])).toEqual([['«Singleton»'], []]);
  });

  it('says which hide command names nothing of the diagram', () => {
    expect(cls('class A', 'hide Nobody').warnings).toEqual(['line 3: hide Nobody names nothing of the diagram: not applied']);
  });

  it('puts `class net.dummy.Person` in package net.dummy and keeps namespaces apart (`.Base` is the root)', () => {
    const graph = cls(
      'class net.dummy.Person',
      'namespace net.foo {',
      '  net.dummy.Person <|- Person',
      '  .BaseClass <|-- Person',
      '}',
    );
    expect(graph.nodes.map((n) => `${n.id}=${n.label}@${n.parent ?? ''}`)).toEqual(['net.dummy.Person=Person@package:net.dummy', 'net.foo.Person=Person@package:net.foo', 'BaseClass=BaseClass@']);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['net.dummy.Person->net.foo.Person', 'BaseClass->net.foo.Person']);
    const flat = cls('set separator none', 'class net.foo.Bar');
    expect(flat.nodes.map((n) => `${n.id}=${n.label}`)).toEqual(['net.foo.Bar=net.foo.Bar']);
    expect(flat.groups).toEqual([]);
  });

  it('writes a note on a link with the link, links an association class to both ends, and reads <> and ()-', () => {
    const graph = cls(
      'class Student',
      'Student "0..*" - "1..*" Course',
      'note on link #red: enrolled',
      '(Student, Course) .. Enrollment',
      '<> meeting',
      'Student - meeting',
      'foo ()- bar',
    );
    expect(graph.nodes.map((n) => n.id)).toEqual(['Student', 'Course', 'Enrollment', 'meeting', 'foo', 'bar']);
    expect(graph.nodes.find((n) => n.id === 'meeting')).toMatchObject({ kind: 'decision', label: '' });
    expect(graph.edges.map((e) => `${e.from}->${e.to}${e.label ? `: ${e.label}` : ''}`)).toEqual(['Student->Course: enrolled', 'Enrollment->Student', 'Enrollment->Course', 'Student->meeting', 'foo->bar']);
    expect(graph.edges[4]!.startArrowhead).toBe('circle');
    expect(graph.warnings).toEqual([
      "line 4: note on link is written under the link's label, not in a note box",
      'line 5: association class Enrollment is linked to both ends of Student–Course, not to the middle of their link',
    ]);
  });

  it('says that `together` is left to the layout, with its line', () => {
    const graph = cls('class Bob', 'together {', '  class Fred', '  class Bill', '}', 'Bob -> Fred');
    expect(graph.nodes.map((n) => n.id)).toEqual(['Bob', 'Fred', 'Bill']);
    expect(graph.warnings).toEqual(['line 3: together (keep these classes close) is left to the automatic layout']);
  });
});

describe('PlantUML activity and state forms of its documentation', () => {
  const diagram = (...body: string[]) => plantumlNotation.toGraph(uml(body.join('\n')));
  /** Each edge as its ends' labels, or their kind when unlabelled (start, end, the repeat point). */
  const flow = (graph: GraphIR) => {
    const name = (id: string) => {
      const node = graph.nodes.find((n) => n.id === id);
      return node ? node.label || node.kind : `box ${id}`;
    };
    return graph.edges.map((e) => `${name(e.from)}->${name(e.to)}${(e.label ?? e.startLabel) ? ` [${e.label ?? e.startLabel}]` : ''}`);
  };

  it('leaves a repeat loop at `break`, draws `backward` on the way back, and reads switch/case', () => {
    const graph = diagram('start', 'repeat', '  :read;', '  if (too many?) then (yes)', '    break', '  endif', 'backward:log;', 'repeat while (more?)', 'switch (kind?)', 'case (a)', '  :A;', 'case (b)', '  :B;', 'endswitch', 'stop');
    expect(flow(graph)).toEqual([
      'start->decision',
      'decision->read',
      'read->too many?',
      'too many?->more?',
      'more?->log',
      'log->decision',
      'more?->kind?',
      'too many?->kind? [yes]',
      'kind?->A [a]',
      'kind?->B [b]',
      // PlantUML joins the cases in a diamond at endswitch.
      'A->decision',
      'B->decision',
      'decision->end',
    ]);
    expect(graph.warnings).toEqual([]);
  });

  it('reads styled arrows (-[#blue]-> label;) and SDL stereotypes after an action', () => {
    const graph = diagram('start', ':foo1;', '-[#blue]-> label;', ':foo2;', '-[#green,dashed]->', ':input; <<input>>', 'stop');
    expect(flow(graph)).toEqual(['start->foo1', 'foo1->foo2 [label]', 'foo2->input', 'input->end']);
  });

  it('draws connectors and floating notes, and says that goto is left out, with its line', () => {
    const graph = diagram('start', ':a;', '(A)', 'detach', '(A)', ':b;', 'floating note left: aside', 'label here', 'goto here', 'stop');
    expect(flow(graph)).toEqual(['start->a', 'a->A', 'A->b', 'b->end']);
    expect(graph.nodes.filter((n) => n.label === 'A')).toHaveLength(2);
    expect(graph.nodes.find((n) => n.kind === 'note')).toMatchObject({ label: 'aside' });
    expect(graph.warnings).toEqual(['line 9: label here is not drawn (goto jumps are left out)', 'line 10: goto here is not drawn (goto jumps are left out)']);
  });

  it('sets a composite state where its braces are, not where a transition named it first (the manual’s Configuring)', () => {
    // PlantUML's composite-state example: Configuring is named inside NotShooting, opened at the top level; PlantUML
    // draws it beside NotShooting (and X, named at the top level, opened inside Y, in Y).
    const graph = diagram(
      '[*] --> NotShooting',
      'state NotShooting {',
      '  [*] --> Idle',
      '  Idle --> Configuring : EvConfig',
      '  Configuring --> Idle : EvConfig',
      '}',
      'state Configuring {',
      '  [*] --> NewValueSelection',
      '}',
      '[*] --> X',
      'state Y {',
      '  state X {',
      '    [*] --> In',
      '  }',
      '}',
    );
    const parentOf = (id: string) => graph.groups.find((group) => group.id === id)?.parent ?? graph.nodes.find((node) => node.id === id)?.parent;
    expect(graph.groups.map((group) => group.id).sort()).toEqual(['Configuring', 'NotShooting', 'X', 'Y']);
    expect(parentOf('Configuring')).toBeUndefined();
    expect(parentOf('Idle')).toBe('NotShooting');
    expect(parentOf('NewValueSelection')).toBe('Configuring');
    expect(parentOf('X')).toBe('Y');
  });

  it('reads history [H] and State[H*], makes a composite state named early its box, and gives each region its start', () => {
    const graph = diagram(
      '[*] --> Active',
      'state Active {',
      '  [*] -> NumLockOff',
      '  NumLockOff --> NumLockOn',
      '  --',
      '  [*] -> CapsLockOff',
      '  Idle --> [H]',
      '}',
      'Paused --> Active[H*] : resume',
      'state Bar #red-green ##[dashed]blue {',
      '  state Inner',
      '}',
    );
    expect(graph.groups.map((g) => g.id)).toEqual(['Active', 'Bar']);
    expect(graph.nodes.map((n) => n.id)).not.toContain('Active');
    expect(graph.nodes.filter((n) => n.kind === 'start').map((n) => n.id)).toEqual(['[*]start', '[*]start@Active', '[*]start@Active#2']);
    expect(flow(graph)).toEqual(['start->box Active', 'start->NumLockOff', 'NumLockOff->NumLockOn', 'start->CapsLockOff', 'Idle->H', 'Paused->H* [resume]']);
    expect(graph.nodes.filter((n) => /^\[H/.test(n.id)).map((n) => `${n.label}@${n.parent}`)).toEqual(['H@Active', 'H*@Active']);
    expect(graph.warnings).toEqual(['line 6: concurrent regions of Active are drawn in one box, without the -- separator']);
  });
});

describe('PlantUML activity height', () => {
  it('joins the branches of an if/else in a merge diamond at endif, an elseif chain on a line, as PlantUML draws the Cluster API deployment', async () => {
    const graph = plantumlNotation.toGraph(fixture('capi-machinedeployment-activity.plantuml'));
    // Empty diamonds: the four repeat points, and a merge at each of the six endifs of an if without elseif.
    expect(graph.nodes.filter((n) => n.kind === 'decision' && n.label === '')).toHaveLength(10);
    const label = (text: string) => graph.nodes.find((n) => n.label === text)!.id;
    // "Too Many replicas" / elseif "Not Enough Replicas": their three branches meet at the next step, no diamond.
    const tooMany = graph.edges.filter((e) => e.from === label('Scale machineSet down')).map((e) => graph.nodes.find((n) => n.id === e.to)!);
    expect(tooMany.every((n) => n.label !== '')).toBe(true);
    // The short `yes` of Paused sits right below it, as PlantUML draws it, not at the foot of the other branch.
    const { codeToScene } = await import('../index.js');
    const drawn = await codeToScene(fixture('capi-machinedeployment-activity.plantuml'));
    const box = (text: string) => drawn.elements.find((e) => e.id === drawn.elementIds.nodes.get(label(text)))!;
    expect(Number(box('Update status and exit').y) - Number(box('Paused').y)).toBeLessThan(150);
  });

  it('draws the Cluster API deployment activity (20 conditions) near PlantUML\'s height: flat condition hexagons, steps an arrow apart, labels clear', async () => {
    const { codeToScene } = await import('../index.js');
    const { checkScene } = await import('../../quality/check.js');
    const drawn = await codeToScene(fixture('capi-machinedeployment-activity.plantuml'));
    const report = checkScene(drawn.elements);
    // Diamonds sized to hold their condition and 70 px between steps drew it 3,762 px tall, wrapped into columns 2,656 px
    // wide; the six merge diamonds PlantUML draws where an if without elseif ends take a short layer each.
    expect(report.height).toBeLessThan(3900);
    expect(report.width).toBeLessThan(2000);
    const paused = drawn.graph.nodes.find((n) => n.label === 'Paused')!;
    const glyph = drawn.elements.find((e) => e.id === drawn.elementIds.nodes.get(paused.id))!;
    // One line of text high, as PlantUML's hexagon: a diamond holding "Paused" was 60 px or more.
    expect(glyph).toMatchObject({ type: 'hexagon' });
    expect(Number(glyph.height)).toBeLessThanOrEqual(44);
    // Every branch label ("yes", "no") readable: none on another text or a shape, no arrow through one, text size kept.
    expect(report.violations).toEqual([]);
    expect(report.textCrossings).toBe(0);
  });
});

describe('PlantUML activity arrows with a style', () => {
  it('reads `-[#blue,dashed]->` on the Cluster API health check (refused before) and keeps its colour and line', () => {
    const graph = plantumlNotation.toGraph(fixture('capi-machine-health-check-activity.plantuml'));
    const outOfBand = graph.edges.find((e) => e.startLabel === 'Out of band');
    expect(outOfBand?.style).toEqual({ strokeStyle: 'dashed', strokeColor: expect.stringMatching(/^#/) });
    expect(graph.edges.filter((e) => e.style !== undefined)).toHaveLength(1);
    expect(graph.warnings).toEqual([]);
  });

  it('reads bold and dotted, and a bracket without a colour', () => {
    const graph = plantumlNotation.toGraph(uml([':a;', '-[bold]-> go;', ':b;', '-[dotted]->', ':c;', '-[#red]->', ':d;'].join('\n')));
    expect(graph.edges.map((e) => e.style)).toEqual([{ strokeWidth: 2 }, { strokeStyle: 'dotted' }, { strokeColor: expect.stringMatching(/^#/) }]);
  });
});

describe('PlantUML legacy activity syntax', () => {
  it('reads the Cluster API machine phases (`(*) -->`, quoted activities, notes on the last one) instead of refusing them', () => {
    const graph = plantumlNotation.toGraph(fixture('capi-machine-phases-activity.plantuml'));
    const label = (id: string) => graph.nodes.find((n) => n.id === id)!.label || graph.nodes.find((n) => n.id === id)!.kind;
    const flow = graph.edges.filter((e) => !e.id.endsWith('-link')).map((e) => `${label(e.from)}->${label(e.to)}${e.label ? ` [${e.label}]` : ''}`);
    expect(flow).toEqual([
      'start->Pending [Machine Create]',
      'Pending->Provisioning',
      'Provisioning->Provisioned',
      'Provisioned->Running',
      'Pending->Deleting',
      'Provisioning->Deleting',
      'Provisioned->Deleting',
      'Running->Deleting',
      'Deleting->Deleted',
    ]);
    const notes = graph.edges.filter((e) => e.id.endsWith('-link')).map((e) => label(e.to));
    expect(notes).toEqual(['Pending', 'Provisioning', 'Provisioned', 'Running']);
    expect(graph.title).toBe('Figure 1: State diagram with a generic provider');
  });

  it('reads a source left out as the last activity, bars, aliases and if/else/endif', () => {
    const graph = plantumlNotation.toGraph(uml(['(*) --> "First" as A', 'if "ok?" then', '-->[yes] "Second"', 'else', '-->[no] ===B1===', 'endif', '--> (*)'].join('\n')));
    expect(graph.nodes.map((n) => `${n.kind}:${n.label}`)).toEqual(['start:', 'action:First', 'decision:ok?', 'action:Second', 'fork:', 'end:']);
    expect(graph.edges.map((e) => `${e.from}->${e.to}${e.label ? ` [${e.label}]` : ''}`)).toEqual(['start-1->action-2', 'action-2->decision-3', 'decision-3->action-4 [yes]', 'decision-3->fork-5 [no]', 'action-4->end-6', 'fork-5->end-6']);
  });

  it('breaks labels at Graphviz\'s `\\l` and `\\r` as PlantUML does, and keeps a label that is only `...` (KEP 4381\'s kubelet flow)', () => {
    const graph = plantumlNotation.toGraph(uml([
      '(*) --> "Resource prepared"',
      '-->[ **Kubelet** passes device Ids to the CRI runtime\\l **CRI runtime** creates pod containers ] "All Pod containers created"',
      '-->[ ... ] "Pod runs"',
      '-->[ **Kubelet** calls NodeUnprepareResource\\r removes CDI JSON file(s) ] (*)',
    ].join('\n')));
    expect(graph.edges.map((e) => e.label ?? '')).toEqual([
      '',
      'Kubelet passes device Ids to the CRI runtime\n CRI runtime creates pod containers',
      '...',
      'Kubelet calls NodeUnprepareResource\n removes CDI JSON file(s)',
    ]);
  });
});

describe('PlantUML component diagram forms of its documentation', () => {
  it('reads an unnamed container (`cloud {`) and a note on a bracketed component instead of refusing them', () => {
    const graph = plantumlNotation.toGraph(uml(['cloud {', '  [Example 1]', '}', '[Example 1] ..> HTTP : use', 'note right of [Example 1]', '  on several', '  lines', 'end note'].join('\n')));
    expect(graph.groups).toEqual([{ id: 'cloud-2', label: '', kind: 'cloud', style: { strokeStyle: 'solid', corner: 'sharp' } }]);
    expect(graph.nodes.find((n) => n.id === 'Example 1')).toMatchObject({ parent: 'cloud-2' });
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['Example 1->HTTP', 'note-6->Example 1']);
    expect(graph.warnings).toEqual([]);
  });
});

describe('PlantUML hide and remove outside class diagrams', () => {
  it('removes unlinked components as PlantUML does, and says, with its line, that an activity does not apply hide', () => {
    const components = plantumlNotation.toGraph(uml(['[A] --> [B]', '[C]', 'remove @unlinked', 'hide stereotype'].join('\n')));
    expect(components.nodes.map((n) => n.id)).toEqual(['A', 'B']);
    expect(components.warnings).toEqual([]);
    const activity = plantumlNotation.toGraph(uml(['start', ':a;', 'hide Foo', 'stop'].join('\n')));
    expect(activity.warnings).toEqual(['line 4: hide Foo is not applied here (class, component and state diagrams apply hide and remove)']);
  });
});

describe('PlantUML use case diagram forms of its documentation', () => {
  it('draws (checkout) inside `rectangle checkout` as a use case of its own, and reads a quoted name over two lines', () => {
    const graph = plantumlNotation.toGraph(uml(['rectangle checkout {', '  User -- (checkout)', '  (help) .> (checkout) : extends', '}', 'usecase UC1 as "You can use', 'several lines."'].join('\n')));
    expect(graph.groups.map((g) => g.id)).toEqual(['checkout']);
    expect(graph.nodes.map((n) => `${n.id}=${n.label}@${n.parent ?? ''}`)).toEqual(['User=User@checkout', '(checkout)=checkout@checkout', 'help=help@checkout', 'UC1=You can use\nseveral lines.@']);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['User->(checkout)', 'help->(checkout)']);
  });
});

describe('plantumlNotation creole rules and headings', () => {
  it('shows no text for a rule line (=====, ----) and the title of a titled rule or heading', () => {
    const graph = plantumlNotation.toGraph(uml('A -> B : hi\nnote over A\n  = Heading\n  =====\n  body\n  == Part 2 ==\n  ----\n  more\nend note'));
    const note = graph.sequence?.steps.find((step) => step.type === 'note');
    expect(note).toMatchObject({ text: 'Heading\nbody\nPart 2\nmore' });
    const classes = plantumlNotation.toGraph(uml('class A {\n  x : int\n  =====\n  == Section ==\n  y()\n}'));
    expect(classes.nodes[0]!.rows).toEqual(['x : int', '— Section —', 'y()']);
  });
});

describe('PlantUML glyphs and models as PlantUML draws them (issue 27)', () => {
  it('draws the Aries final states as bull\'s-eyes (a ring round a dot) and the initial state as a dot alone', async () => {
    const { codeToScene } = await import('../index.js');
    const drawn = await codeToScene(fixture('aries-introducer-state.puml'));
    const element = (id: string) => drawn.elements.find((e) => e.id === id)!;
    const start = element(drawn.elementIds.nodes.get('[*]start')!);
    const end = element(drawn.elementIds.nodes.get('[*]end')!);
    const inside = drawn.elements.filter((e) => e.type === 'ellipse' && e.id !== end.id && Number(e.x) > Number(end.x) && Number(e.x) + Number(e.width) < Number(end.x) + Number(end.width));
    expect(end.fillColor).toBe('#ffffff');
    expect(inside).toHaveLength(1);
    expect(inside[0]!.fillColor).toBe(start.fillColor);
    expect(inside[0]!.groupIds).toEqual(end.groupIds);
    // The start is one filled dot with nothing inside it.
    expect(drawn.elements.filter((e) => e.type === 'ellipse' && Number(e.x) > Number(start.x) && Number(e.x) < Number(start.x) + Number(start.width) && Number(e.y) > Number(start.y) && Number(e.y) < Number(start.y) + Number(start.height))).toHaveLength(0);
  });

  it('fills and borders states, and colours arrows, as `skinparam` says (plantuml.com state diagram "Skinparam")', () => {
    const graph = plantumlNotation.toGraph(
      uml(
        [
          'skinparam backgroundColor LightYellow',
          'skinparam state {',
          '  StartColor MediumBlue',
          '  BackgroundColor Peru',
          '  BackgroundColor<<Warning>> Olive',
          '  BorderColor Gray',
          '  FontName Impact',
          '}',
          'skinparam ArrowColor Navy',
          '[*] --> NotShooting',
          'state "Not Shooting State" as NotShooting {',
          '  state "Idle mode" as Idle',
          '  state "Configuring mode" as Configuring #LightBlue',
          '  [*] --> Idle',
          '  Idle --> Configuring : EvConfig',
          '}',
        ].join('\n'),
      ),
    );
    const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
    expect(node('Idle').style).toMatchObject({ fillColor: '#cd853f', strokeColor: '#808080', textColor: '#000000' });
    // A colour set on the state itself wins over the skin's.
    expect(node('Configuring').style).toMatchObject({ fillColor: '#add8e6', strokeColor: '#808080' });
    expect(graph.groups.find((g) => g.label === 'Not Shooting State')!.style).toMatchObject({ fillColor: '#cd853f' });
    expect(graph.edges.every((edge) => edge.style?.strokeColor === '#000080')).toBe(true);
  });

  it('draws an if\'s `then` branch left of its `else`, and fork branches in the order written, as PlantUML does', async () => {
    const { layoutGraph } = await import('../../layout/elk.js');
    // plantuml.com's activity guide ("Conditional", "Parallel processing"), one after the other.
    const graph = plantumlNotation.toGraph(
      uml(
        [
          'start',
          'if (Graphviz installed?) then (yes)',
          '  :process all\\ndiagrams;',
          'else (no)',
          '  :process only',
          '  __sequence__ and __activity__ diagrams;',
          'endif',
          'fork',
          '  :action 1;',
          'fork again',
          '  :action 2;',
          'fork again',
          '  :action 3;',
          'end fork',
          'stop',
        ].join('\n'),
      ),
    );
    const laid = await layoutGraph(graph);
    const x = (label: string) => {
      const id = graph.nodes.find((n) => n.label.startsWith(label))!.id;
      const box = laid.nodes.find((n) => n.id === id)!;
      return box.x + box.width / 2;
    };
    expect(x('process all')).toBeLessThan(x('process only'));
    expect(x('action 1')).toBeLessThan(x('action 2'));
    expect(x('action 2')).toBeLessThan(x('action 3'));
  }, 60_000);

  it('draws a branch that only stops right of its decision, the flow going on left of it, as PlantUML draws the Cluster API machine infrastructure provider', async () => {
    const { layoutGraph } = await import('../../layout/elk.js');
    const graph = plantumlNotation.toGraph(fixture('capi-machine-infra-provider-activity.plantuml'));
    const laid = await layoutGraph(graph);
    const centre = (id: string) => {
      const box = laid.nodes.find((n) => n.id === id)!;
      return box.x + box.width / 2;
    };
    // Each `stop` standing alone in a branch, whether `then (yes)` (Error?), `then (no)` (Cluster exists?) or the
    // other's: PlantUML puts it right of its decision, where it was drawn left, pushing the steps that follow aside.
    const stops = graph.edges.filter((e) => graph.nodes.find((n) => n.id === e.to)!.kind === 'end' && graph.nodes.find((n) => n.id === e.from)!.kind === 'decision');
    expect(stops.map((e) => graph.nodes.find((n) => n.id === e.from)!.label)).toEqual(expect.arrayContaining(['Error?', 'Cluster exists?', "Machine's spec.bootstrap.dataSecretName = nil?"]));
    for (const stop of stops) {
      const onward = graph.edges.find((e) => e.from === stop.from && e !== stop)!;
      expect(centre(stop.to), graph.nodes.find((n) => n.id === stop.from)!.label).toBeGreaterThan(centre(onward.to));
    }
  }, 60_000);

  it('draws an activity\'s `end` as a crossed ring and its `stop` as a bull\'s-eye, as PlantUML does (plantuml.com activity "Start/Stop/End")', async () => {
    const { codeToScene } = await import('../index.js');
    // plantuml.com's activity guide: "You can also use the end keyword", drawn ⊗ where `stop` is drawn ◉.
    const marks = async (last: string) => {
      const drawn = await codeToScene(uml(`start\n:Hello world;\n:This is defined on\nseveral **lines**;\n${last}`));
      const end = drawn.elements.find((e) => e.id === drawn.elementIds.nodes.get(drawn.graph.nodes.find((n) => n.kind === 'end')!.id))!;
      const inside = drawn.elements.filter((e) => e.id !== end.id && e.groupIds?.[0] === end.groupIds?.[0]);
      return { ring: end, inside: inside.map((e) => e.type) };
    };
    const end = await marks('end');
    expect(end.ring.fillColor).toBe('#ffffff');
    expect(end.inside).toEqual(['line', 'line']);
    expect((await marks('stop')).inside).toEqual(['ellipse']);
  });

  it('draws split branches leaving the flow and meeting again without a fork bar (plantuml.com activity "Split processing")', () => {
    const graph = plantumlNotation.toGraph(uml('start\nsplit\n   :A;\nsplit again\n   :B;\nsplit again\n   :C;\nsplit again\n   :a;\n   :b;\nend split\n:D;\nend'));
    expect(graph.nodes.filter((n) => n.kind === 'fork')).toEqual([]);
    const id = (label: string) => graph.nodes.find((n) => n.label === label)!.id;
    expect(graph.edges.filter((e) => e.from === id('')).map((e) => e.to)).toEqual([id('A'), id('B'), id('C'), id('a')]);
    expect(graph.edges.filter((e) => e.to === id('D')).map((e) => e.from)).toEqual([id('A'), id('B'), id('C'), id('b')]);
    // A fork keeps its bars.
    expect(plantumlNotation.toGraph(uml('start\nfork\n:A;\nfork again\n:B;\nend fork\nstop')).nodes.filter((n) => n.kind === 'fork')).toHaveLength(2);
  });

  it('draws a class once when a link names it with its package before the package block declares it', () => {
    const graph = plantumlNotation.toGraph(uml('package shop {\n  class Order\n}\nshop.Order --> shop.Item\npackage shop {\n  class Item {\n    +sku : String\n  }\n}'));
    expect(graph.nodes.map((n) => `${n.label} in ${n.parent}`)).toEqual(['Order in package:shop', 'Item in package:shop']);
    expect(graph.nodes.find((n) => n.label === 'Item')!.rows).toEqual(['+ sku : String']);
    expect(arrows(graph)).toEqual([`Order -> ${graph.nodes[1]!.id}`]);
  });
});

describe('PlantUML direction hints as layout constraints (issue 27)', () => {
  type Drawn = Awaited<ReturnType<typeof import('../index.js').codeToScene>>;
  const boxOf = (drawn: Drawn, id: string) => {
    const node = drawn.graph.nodes.find((n) => n.id === id || n.label === id)!;
    const element = drawn.elements.find((e) => e.id === drawn.elementIds.nodes.get(node.id))!;
    const [x, y, width, height] = [element.x, element.y, element.width, element.height].map(Number) as [number, number, number, number];
    return { left: x, right: x + width, top: y, bottom: y + height };
  };

  it('puts each target on the side its arrow names (plantuml.com use case diagram, "Changing arrows direction")', async () => {
    const { codeToScene } = await import('../index.js');
    const drawn = await codeToScene(uml(':user: -left-> (dummyLeft)\n:user: -right-> (dummyRight)\n:user: -up-> (dummyUp)\n:user: -down-> (dummyDown)'));
    const foo = boxOf(drawn, 'user');
    expect(boxOf(drawn, 'dummyLeft').right).toBeLessThan(foo.left);
    expect(boxOf(drawn, 'dummyRight').left).toBeGreaterThan(foo.right);
    expect(boxOf(drawn, 'dummyUp').bottom).toBeLessThan(foo.top);
    expect(boxOf(drawn, 'dummyDown').top).toBeGreaterThan(foo.bottom);
    expect(drawn.warnings.join('\n')).not.toMatch(/direction hints/);
  });

  it('puts Cluster left of MachineDeployment in the cluster-api resources diagram (`.left.>`), the arrow still dashed from MachineDeployment', async () => {
    const { codeToScene } = await import('../index.js');
    const drawn = await codeToScene(readFileSync(new URL('../conformance/plantuml/docs--book--src--images--worker-machines-resources.puml', folder), 'utf8'));
    const [cluster, deployment] = [boxOf(drawn, 'Cluster'), boxOf(drawn, 'MachineDeployment')];
    expect(cluster.right).toBeLessThan(deployment.left);
    // One rank: the two overlap in height.
    expect(cluster.bottom).toBeGreaterThan(deployment.top);
    expect(deployment.bottom).toBeGreaterThan(cluster.top);
    const edge = drawn.graph.edges.find((e) => e.from === 'MachineDeployment' && e.to === 'Cluster')!;
    expect(edge).toMatchObject({ toward: 'LEFT', endArrowhead: 'arrow', startLabel: '0..*', endLabel: '1', style: { strokeStyle: 'dashed' } });
    const arrow = drawn.elements.find((e) => e.type === 'arrow' && e.startBinding?.elementId === drawn.elementIds.nodes.get('MachineDeployment') && e.endBinding?.elementId === drawn.elementIds.nodes.get('Cluster'));
    expect(arrow).toMatchObject({ strokeStyle: 'dashed', endArrowhead: 'arrow' });
  });

  it('reads every spelling of the hint, dashed and in brackets, and C4 Lay_R as an undrawn edge that places', () => {
    const graph = plantumlNotation.toGraph(uml('class a\na -r-> b\na .u.> c\na -[#red]do-> d\na -le- e\na -[hidden]ri- f'));
    expect(graph.edges.map((e) => `${e.to}:${e.toward}${e.hidden ? ':hidden' : ''}`)).toEqual(['b:RIGHT', 'c:UP', 'd:DOWN', 'e:LEFT', 'f:RIGHT:hidden']);
    const c4 = plantumlNotation.toGraph(uml('!include <C4/C4_Container>\nPerson(user, "User")\nSystem(app, "App")\nRel_D(user, app, "uses")\nLay_R(user, app)'));
    expect(c4.edges.map((e) => `${e.from}->${e.to}:${e.toward}${e.hidden ? ':hidden' : ''}`)).toEqual(['user->app:DOWN', 'user->app:RIGHT:hidden']);
  });

  it('sets the target of a short link in a class diagram beside its source, as PlantUML does (Tractus-X job store model)', () => {
    const graph = plantumlNotation.toGraph(uml('class Order\nclass Customer\nclass Item\nOrder -> Customer\nOrder --> Item\nOrder .> Item : uses'));
    expect(graph.edges.map((e) => `${e.from}->${e.to}:${e.toward ?? '-'}${e.hidden ? ':hidden' : ''}`)).toEqual(['Order->Customer:RIGHT', 'Order->Item:-', 'Order->Item:RIGHT']);
  });

  it('reads a hidden link without a direction as PlantUML lays it out: a long one along the flow, a short one beside', () => {
    const graph = plantumlNotation.toGraph(uml('class a\na -[hidden]-> b\na -[hidden]> c\na .[hidden].> d'));
    expect(graph.edges.map((e) => `${e.to}:${e.toward}${e.hidden ? ':hidden' : ''}`)).toEqual(['b:DOWN:hidden', 'c:RIGHT:hidden', 'd:DOWN:hidden']);
    const sideways = plantumlNotation.toGraph(uml('left to right direction\n[a] -[hidden]- [b]'));
    expect(sideways.edges.map((e) => `${e.to}:${e.toward}`)).toEqual(['b:RIGHT']);
  });

  it('lines up the EDC contract negotiation states in two columns side by side, as its hidden links ask and PlantUML draws', async () => {
    const { codeToScene } = await import('../index.js');
    const drawn = await codeToScene(fixture('edc-contract-negotiation-state.puml'));
    const groupBox = (label: string) => {
      const element = drawn.elements.find((e) => e.id === drawn.elementIds.groups.get(label))!;
      const [x, y, width, height] = [element.x, element.y, element.width, element.height].map(Number) as [number, number, number, number];
      return { left: x, right: x + width, top: y, bottom: y + height };
    };
    const [consumer, provider] = [groupBox('Consumer'), groupBox('Provider')];
    // Side by side, where they were stacked: the cross messages ran up and down through both.
    expect(consumer.right).toBeLessThan(provider.left);
    expect(consumer.bottom).toBeGreaterThan(provider.top);
    // Each column in the order its hidden links set: REQUESTED, then OFFERED, …, then FINALIZED and TERMINATING.
    const column = ['REQUESTED_consumer', 'OFFERED_consumer', 'ACCEPTING_consumer', 'ACCEPTED_consumer', 'VERIFYING_consumer', 'VERIFIED_consumer', 'TERMINATING_consumer'];
    const tops = column.map((id) => boxOf(drawn, id).top);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    // Laid out, never drawn: no arrow says "used for layout".
    expect(drawn.elements.some((e) => e.type === 'text' && e.text === 'used for layout')).toBe(false);
  });
});

describe('PlantUML forms of fresh real files that were refused (issue 27, eclipse-tractusx item-relationship-service)', () => {
  it('paints a state with the fill, border and text colours of its spec (`#e6ebfa;line:blue`, EDC data plane signaling)', () => {
    const graph = plantumlNotation.toGraph(
      uml('state "FAILED" as failed #e6ebfa;line:blue\nstate "SUSPENDED / TERMINATED" as suspended #f5cccd;line:red;line.dashed;text:red\nstate Done #pink\nfailed --> suspended\nsuspended --> Done'),
    );
    const style = (id: string) => graph.nodes.find((n) => n.id === id)!.style;
    expect(style('failed')).toEqual({ fillColor: '#e6ebfa', strokeColor: '#0000ff' });
    expect(style('suspended')).toEqual({ fillColor: '#f5cccd', strokeColor: '#ff0000', strokeStyle: 'dashed', textColor: '#ff0000' });
    expect(style('Done')).toEqual({ fillColor: '#ffc0cb' });
  });

  it('reads an interface declared alias first (`() mad_interface as "MAD Interface"`) as one interface shown by its label (PURIS backend)', () => {
    // Its declarations and links to them, as written in eclipse-tractusx/puris docs/architecture/puml/05-level-1-backend.puml.
    const graph = plantumlNotation.toGraph(
      uml(
        [
          '() mad_interface as "MAD Interface"',
          '() dtr_interface as "Registry & Discovery Interfaces"',
          '() oauth as "OAuth2"',
          'package "<<system>> PURIS FOSS Backend"{',
          '  [DTR] as dtr',
          '  [MAD] as mad',
          '}',
          'dtr_interface -down- dtr',
          'oauth )-down- dtr',
          'mad -- mad_interface',
        ].join('\n'),
      ),
    );
    const interfaces = graph.nodes.filter((n) => n.kind === 'interface');
    expect(interfaces.map((n) => n.label)).toEqual(['MAD Interface', 'Registry & Discovery Interfaces', 'OAuth2']);
    // Each is the one its links reach, not a second, unlinked "() mad_interface" beside it.
    expect(graph.nodes).toHaveLength(5);
    for (const iface of interfaces) expect(graph.edges.filter((e) => e.from === iface.id || e.to === iface.id)).toHaveLength(1);
  });

  it('closes a multi-line ref with a bare "end", so the opt after it closes with "end opt" (ess-top-down-sequence-highlevel)', () => {
    const graph = plantumlNotation.toGraph(
      uml(['participant IRS', 'participant DTR', 'ref over IRS, DTR', '  lookup/shells for given BPN', 'end', 'IRS -> DTR : filter aas', 'opt aas is asPlanned', '  note left', '    SingleLevelBomAsPlanned', '  end note', '  IRS -> IRS : add aas', 'end opt'].join('\n')),
    );
    const steps = graph.sequence!.steps;
    expect(steps.map((step) => step.type)).toEqual(['note', 'message', 'fragment']);
    expect(steps[0]).toMatchObject({ text: 'ref\nlookup/shells for given BPN' });
  });

  it("reads a line comment holding /' as a comment, not the start of a block comment (policy-store-model)", () => {
    const graph = plantumlNotation.toGraph(uml("'https://www.w3.org/TR/odrl-model/'\nclass Policy\nclass Permission\nPolicy --> Permission"));
    expect(graph.nodes.map((n) => n.id)).toEqual(['Policy', 'Permission']);
  });

  it('ends a split left open at the end of the activity there, saying so (irs-supply-chain-act-activity)', () => {
    const graph = plantumlNotation.toGraph(uml(['start', ':response 201 on success;', 'split', '  :receive EDC response;', '  kill', 'split again', '  :process request;', ':receive response;', 'stop'].join('\n')));
    expect(graph.nodes.filter((n) => n.kind === 'action').map((n) => n.label)).toEqual(['response 201 on success', 'receive EDC response', 'process request', 'receive response']);
    expect(graph.warnings).toContain('line 4: "split" is never closed with "end split": closed at the end');
  });

  it('attaches a note written without a side to the last activity (IRS esr-certificates-activity)', () => {
    const graph = plantumlNotation.toGraph(uml(['start', ':Start search **(globalAssetId)**;', 'note', '    API is requested', '    certificateName: ISO14001', 'end note', ':Register JobResponse;', 'stop'].join('\n')));
    const note = graph.nodes.find((n) => n.kind === 'note');
    expect(note?.label).toBe('API is requested\ncertificateName: ISO14001');
    const search = graph.nodes.find((n) => n.label === 'Start search (globalAssetId)')!;
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: note!.id, to: search.id }));
  });

  it('sets a state note beside its state, not on a rank above it (Cluster API machine phases)', () => {
    const graph = plantumlNotation.toGraph(fixture('capi-machine-phases-activity.plantuml'));
    const links = graph.edges.filter((e) => e.from.startsWith('note-'));
    expect(links.map((e) => e.toward)).toEqual(['LEFT', 'LEFT', 'LEFT', 'LEFT']);
  });

  it('leaves a note beside composite states on a rank of its own, where Graphviz would misdraw the composite (learn-note state03)', () => {
    const graph = plantumlNotation.toGraph(uml(['[*] --> State2', 'note right of State2 : a note', 'State2 --> State3', 'state State3 {', '[*] --> long1', '}', 'State3 --> State3 : Failed'].join('\n')));
    expect(graph.edges.filter((e) => e.from.startsWith('note-')).map((e) => e.toward)).toEqual([undefined]);
  });

  it('reads `note: text` after an activity and sets each note beside its activity, left unless written right', () => {
    // A driving stack's latency compensation, documented in its C comments: `note:` was refused.
    const graph = plantumlNotation.toGraph(uml(['start', ':CourseConsistenceCheck;', 'note:target corridor consistency check', ':PlausibilityCheck;', 'note right: checked', 'end'].join('\n')));
    const links = graph.edges.filter((e) => e.from.startsWith('note-'));
    expect(links.map((e) => `${graph.nodes.find((n) => n.id === e.from)!.label} ${e.toward}`)).toEqual(['target corridor consistency check RIGHT', 'checked LEFT']);
  });

  it('ends ifs and a partition left open at the end of the activity there, saying so (IRS 5_ess_top_down_sequence_determine_result)', () => {
    const graph = plantumlNotation.toGraph(
      uml(['start', 'partition check {', 'if (Twin is available in DTR) then (No)', '    :Unknown;', '    stop', 'else (Yes)', 'if (PartSiteInformation contains BPNS) then (No)', '    :No;', '    stop', 'else (Yes)', '    :Yes;', '    stop', 'endif'].join('\n')),
    );
    expect(graph.nodes.filter((n) => n.kind === 'decision')).toHaveLength(2);
    expect(graph.nodes.filter((n) => n.kind === 'action').map((n) => n.label)).toEqual(['Unknown', 'No', 'Yes']);
    expect(graph.warnings).toEqual([
      'line 4: "if (Twin is available in DTR) then (No)" is never closed with "endif": closed at the end',
      'line 3: "partition check {" is never closed with "}": closed at the end',
    ]);
  });

  it('reads stereotypes written before the alias and a ball-and-socket link with a direction (whitebox_overall_decentral)', () => {
    const graph = plantumlNotation.toGraph(
      uml(['actor IrsApiConsumer', 'package [**OEM**] <<CatenaX Company>> as consumer {', '  component [**IRS**] <<System>> as IRS', '}', 'IrsApiConsumer -r(0- IRS : **[01]**'].join('\n')),
    );
    expect(graph.groups).toMatchObject([{ id: 'consumer', label: 'OEM' }]);
    expect(graph.nodes.find((n) => n.id === 'IRS')).toMatchObject({ label: 'IRS', parent: 'consumer' });
    expect(graph.edges).toMatchObject([{ from: 'IrsApiConsumer', to: 'IRS', endArrowhead: 'circle', toward: 'RIGHT', label: '[01]' }]);
  });

  it('reads a bracket component with a bold name and a stereotype before its alias (irs-overall-system-view)', () => {
    const graph = plantumlNotation.toGraph(uml(['actor IrsApiConsumer', '[**IRS**] <<System>> as IRS', 'IrsApiConsumer -r(0- IRS : **[01]**'].join('\n')));
    expect(graph.nodes.find((n) => n.id === 'IRS')).toMatchObject({ label: 'IRS', kind: 'component', rows: ['«System»'] });
    expect(graph.edges).toMatchObject([{ from: 'IrsApiConsumer', to: 'IRS' }]);
  });

  it('tells a state diagram whose state descriptions come before its first [*] (ess_bottom_upnumber_of_hops)', () => {
    const graph = plantumlNotation.toGraph(uml(['Incident_Tier3 : hop 0', 'OEM: hop 3', 'OEM :', '[*] -r-> Incident_Tier3', 'Incident_Tier3 -r-> OEM : increment hop++ (hop=0+1)'].join('\n')));
    expect(graph.nodes.map((n) => `${n.kind}:${n.label}`)).toEqual(['state:Incident_Tier3', 'state:OEM', 'start:']);
    expect(graph.nodes.find((n) => n.id === 'Incident_Tier3')?.rows).toEqual(['hop 0']);
    expect(arrows(graph)).toEqual(['[*]start -> Incident_Tier3', 'Incident_Tier3 -> OEM [increment hop++ (hop=0+1)]']);
  });
});

describe('PlantUML class hierarchies read downwards, as PlantUML draws them (issue 27)', () => {
  const boxes = async (code: string) => {
    const { codeToScene } = await import('../index.js');
    const drawn = await codeToScene(code);
    return (label: string) => {
      const node = drawn.graph.nodes.find((n) => n.label === label)!;
      const element = drawn.elements.find((e) => e.id === drawn.elementIds.nodes.get(node.id))!;
      return { top: Number(element.y), bottom: Number(element.y) + Number(element.height) };
    };
  };

  it('puts the parent named by extends or implements above its children (Blazemeter RTEPlugin class diagram)', async () => {
    const box = await boxes(uml(['abstract class Input', 'class CoordInput extends Input', 'class LabelInput extends Input', 'interface RteProtocolClient', 'class Tn5250Client implements RteProtocolClient'].join('\n')));
    for (const child of ['CoordInput', 'LabelInput']) expect(box(child).top).toBeGreaterThan(box('Input').bottom);
    expect(box('Tn5250Client').top).toBeGreaterThan(box('RteProtocolClient').bottom);
  });

  it('keeps a hierarchy top-down even when it is too wide for a README column, instead of turning it on its side', async () => {
    const children = Array.from({ length: 14 }, (_, i) => `class SubmodelAspect${i + 1} extends GenericDescriptor`);
    const box = await boxes(uml(['class GenericDescriptor', ...children].join('\n')));
    for (let i = 1; i <= 14; i++) expect(box(`SubmodelAspect${i}`).top).toBeGreaterThan(box('GenericDescriptor').bottom);
    expect(plantumlNotation.toGraph(uml('class A\nclass B\nA --> B')).forcedDirection).toBeUndefined();
  });

  it('leaves a data model with a few generalisations among its associations free to turn to fit (IRS job response model)', () => {
    const model = uml(['entity Jobs', 'entity Job', 'entity Summary', 'entity Shell', 'entity GenericDescriptor', 'Jobs ||-- Job', 'Job ||-- Summary', 'Jobs }|-- Shell', 'Job ||-- Shell', 'GenericDescriptor <|-- Shell'].join('\n'));
    expect(plantumlNotation.toGraph(model).forcedDirection).toBeUndefined();
  });
});

describe('PlantUML hide commands keep the links of what they do not hide (issue 27)', () => {
  it('keeps the transitions to and from composite states under `hide empty description` (irs job-state-machine)', () => {
    const graph = plantumlNotation.toGraph(
      uml(['hide empty description', 'state INITIAL {', '  state "MultiTransferJob registered"', '}', '[*] --> UNSAVED', 'UNSAVED -> INITIAL : register job', 'INITIAL --> ERROR'].join('\n')),
    );
    expect(arrows(graph)).toEqual(['[*]start -> UNSAVED', 'UNSAVED -> INITIAL [register job]', 'INITIAL -> ERROR']);
  });

  it('still drops the links of a class it hides', () => {
    const graph = plantumlNotation.toGraph(uml('package p {\n  class A\n}\nclass B\nclass C\nB --> C\nB --> p\nhide C'));
    expect(arrows(graph)).toEqual(['B -> p']);
  });
});

describe('C4 databases are cylinders whatever their name (issue 27)', () => {
  it('draws a ContainerDb with no technology nor icon as a cylinder, its type under its name (a Czech mental-health platform)', () => {
    const graph = plantumlNotation.toGraph(uml(['!include <C4/C4_Container>', 'System_Boundary(platform, "Platforma") {', '  ContainerDb(ukolyDb, "Databáze úkolů")', '  SystemDb(uzivateleDb, "Databáze uživatelů", "Uživatelé")', '}'].join('\n')));
    for (const id of ['ukolyDb', 'uzivateleDb']) {
      const box = sizeNode(resolveIconHints(graph).nodes.find((n) => n.id === id)!);
      expect(box.shape).toBe('cylinder');
      expect(box.rows).toEqual([]);
    }
    expect(sizeNode(graph.nodes.find((n) => n.id === 'ukolyDb')!).label).toContain('[Container]');
  });
});

describe('C4-PlantUML legend (issue 27)', () => {
  it('keys each kind of element the diagram uses, drawn as that kind, when it says LAYOUT_WITH_LEGEND() or SHOW_LEGEND()', () => {
    // SatChecker's component diagram (Satellite Data Systems): a person, components, a database and a queue component.
    const body = ['!include <C4/C4_Component>', 'Person(Client, "User")', 'Component(routes, "Routes", "Flask")', 'ComponentQueue(cache, "Cache", "Redis")', 'ComponentDb(db, "Database", "PostgreSQL")', 'System_Ext(sms, "SMS")', 'Rel(Client, routes, "GET")'];
    const graph = plantumlNotation.toGraph(uml(['LAYOUT_WITH_LEGEND()', ...body].join('\n')));
    const legend = graph.groups.find((group) => group.label === 'Legend')!;
    expect(legend.kind).toBe('key');
    const entries = graph.nodes.filter((node) => node.parent === legend.id);
    expect(entries.map((node) => node.label)).toEqual(['person', 'external system', 'component', 'database component', 'queue component']);
    expect(entries.map((node) => node.shape)).toEqual(['person', undefined, undefined, 'cylinder', 'horizontal-cylinder']);
    expect(entries[1]!.style?.strokeStyle).toBe('dashed');
    expect(graph.warnings.join()).not.toContain('LEGEND');
    expect(plantumlNotation.toGraph(uml(['SHOW_LEGEND()', ...body].join('\n'))).groups.some((group) => group.label === 'Legend')).toBe(true);
    expect(plantumlNotation.toGraph(uml(body.join('\n'))).groups).toEqual([]);
  });
});

describe('C4 deployment nodes (issue 27)', () => {
  it('titles a deployment node with its type on a line of its own, clear of the edges into it, the key under a drawing a README column fits', async () => {
    // C4-PlantUML's big bank deployment: one-line titles ("bigbank-api*** x8 [Ubuntu 16.04 LTS]") were as wide as their
    // nodes and 9 edges crossed them; the key set beside the narrower drawing took it to 1,455 px (text 8.5 px at 880).
    const { checkScene } = await import('../../quality/check.js');
    const code = readFileSync(new URL('../../../../test/fixtures/plantuml/c4-bigbank-deployment.puml', import.meta.url), 'utf8');
    const graph = plantumlNotation.toGraph(code);
    expect(graph.groups.find((group) => group.id === 'dn')!.label).toBe('bigbank-api*** x8\n[Ubuntu 16.04 LTS]');
    const scene = await drawGraph(resolveIconHints(graph), 'plantuml');
    const report = checkScene(scene.elements, scene.parents);
    expect(report.violations).toEqual([]);
    expect(report.textCrossings).toBeLessThanOrEqual(2);
    const top = (text: string) => Math.min(...scene.elements.filter((element) => String(element.text ?? '').startsWith(text)).map((element) => Number(element.y)));
    expect(top('Legend')).toBeGreaterThan(top('Database'));
  });
});

describe('C4 Lay_D to a boundary (issue 27)', () => {
  it('puts each person laid down to the boundary above the whole boundary, not beside its first container', async () => {
    const { codeToScene } = await import('../index.js');
    // The shape of a mental-health platform's container diagram: five people over nine containers.
    const people = ['patient', 'client', 'admin', 'taskManager', 'taskGiver'];
    const drawn = await codeToScene(
      uml([
        '!include <C4/C4_Container>',
        ...people.map((p) => `Person(${p}, "${p}")`),
        'System_Boundary(platform, "Platform") {',
        ...['webApp', 'monitoringWeb', 'monitoringServer', 'users', 'forms', 'tasks'].map((c) => `  Container(${c}, "${c}")`),
        ...['formsDb', 'tasksDb', 'usersDb'].map((c) => `  ContainerDb(${c}, "${c}")`),
        '}',
        ...people.map((p) => `Lay_D(${p}, platform)`),
        ...['patient', 'client', 'admin', 'taskGiver', 'taskManager'].map((p) => `Rel_D(${p}, webApp, "uses")`),
        'Rel_D(admin, monitoringWeb, "uses")',
        'Rel(tasks, tasksDb, "stores")',
        'Rel(webApp, forms, "uses")',
        'Rel(webApp, tasks, "uses")',
        'Rel(webApp, users, "manages")',
        'Rel(forms, formsDb, "stores")',
        'Rel(forms, users, "authorises")',
        'BiRel(forms, tasks, "sync")',
        'Rel(tasks, users, "authorises")',
        'Rel(users, usersDb, "stores")',
        'Rel(monitoringServer, forms, "monitors")',
        'Rel(monitoringServer, formsDb, "monitors")',
        'Rel(monitoringServer, tasks, "monitors")',
        'Rel(monitoringWeb, monitoringServer, "reads")',
      ].join('\n')),
    );
    const frame = drawn.elements.find((e) => e.id === drawn.elementIds.groups.get('platform'))!;
    for (const p of people) {
      const person = drawn.elements.find((e) => e.id === drawn.elementIds.nodes.get(p))!;
      expect(person.type).toBe('person');
      expect(Number(person.y) + Number(person.height)).toBeLessThan(Number(frame.y));
    }
  });
});

describe('PlantUML forms of fresh real files (issue 27, third review)', () => {
  it('draws a state declared with an empty body (`state A {\\n}`) as a state with its description, not an empty box', () => {
    // The form of mojaloop central-ledger's transfer-internal-states.plantuml: every state is written `state X {\n}`.
    const graph = plantumlNotation.toGraph(uml(['state RESERVED_ {', '  state RESERVED {', '  }', '  state RECEIVED_FULFIL {', '  }', '}', 'state COMMITTED {', '}', 'RECEIVED_FULFIL : only transfer', '[*] --> RESERVED', 'RESERVED --> RECEIVED_FULFIL', 'RECEIVED_FULFIL --> COMMITTED', 'COMMITTED --> [*]'].join('\n')));
    expect(graph.groups?.map((g) => g.id)).toEqual(['RESERVED_']);
    expect(graph.nodes.filter((n) => n.kind === 'state').map((n) => `${n.id}${n.parent ? ` in ${n.parent}` : ''}`)).toEqual(['RESERVED in RESERVED_', 'RECEIVED_FULFIL in RESERVED_', 'COMMITTED']);
    expect(graph.nodes.find((n) => n.id === 'RECEIVED_FULFIL')?.rows).toEqual(['only transfer']);
  });

  it('reads a C4 element written with a body (`System_Ext(a, "A") {` … `}`): empty, an element; holding others, their box', () => {
    // The Suitability Engine deployment diagram's `System_Ext(master_data_manager, …) {\n}` was refused at its `}`.
    const graph = plantumlNotation.toGraph(uml(['!include <C4/C4_Deployment>', 'Deployment_Node(dc, "engine-compose", "Docker") {', '  ContainerDb(db, "Database", "Postgres")', '}', 'System_Ext(mdm, "Master Data Manager", "External System") {', '}', 'System(big, "Big System") {', '  Container(api, "API", "Java")', '}', 'Rel_R(mdm, db, "Sends data to")'].join('\n')));
    expect(graph.nodes.map((n) => `${n.id}${n.parent ? ` in ${n.parent}` : ''}`)).toEqual(['db in dc', 'mdm', 'api in big']);
    expect(graph.groups?.map((g) => g.id)).toEqual(['dc', 'big']);
    expect(arrows(graph)).toEqual(['mdm -> db [Sends data to]']);
  });

  it('reads `together {` in a deployment diagram as the class diagram does: its elements drawn, the grouping left to the layout', () => {
    // GitLab's reference architecture diagrams (doc/administration/reference_architectures) were refused at `together {`.
    const graph = plantumlNotation.toGraph(uml(['card "**External Load Balancer**" as elb #6a9be7', 'card "**Internal Load Balancer**" as ilb #9370DB', 'together {', '  collections "**GitLab Rails** x3" as gitlab #32CD32', '  collections "**Sidekiq** x2" as sidekiq #ff8dd1', '}', 'card "Redis" as redis {', '  collections "**Redis** x3" as redis_nodes #FF6347', '}', 'elb -[#6a9be7]-> gitlab', 'sidekiq -[#ff8dd1]----> redis'].join('\n')));
    expect(graph.nodes.map((n) => `${n.id}${n.parent ? ` in ${n.parent}` : ''}`)).toEqual(['elb', 'ilb', 'gitlab', 'sidekiq', 'redis_nodes in redis']);
    expect(arrows(graph)).toEqual(['elb -> gitlab', 'sidekiq -> redis']);
    expect(graph.warnings).toEqual(['line 4: together (keep these elements close) is left to the automatic layout']);
  });

  it('colours a swimlane declared `|#AntiqueWhite|Scheduler|`, as PlantUML fills it', () => {
    // The form of the lanes of a fibers' DeferredResume activity diagram: the colour was read and dropped.
    const graph = plantumlNotation.toGraph(uml(['|Fiber1|', 'start', ':create;', '|#AntiqueWhite|Scheduler|', ':run microtasks;', '|#LightGreen|Fiber2|', ':work;', '|Scheduler|', ':wait;', 'stop'].join('\n')));
    expect(graph.groups?.map((g) => `${g.label}${g.style?.fillColor ? ` ${g.style.fillColor}` : ''}`)).toEqual(['Fiber1', 'Scheduler #faebd7', 'Fiber2 #90ee90']);
  });
});

describe('PlantUML edges to a package place the whole package (issue 27, fourth review)', () => {
  it('sets every member of a package an edge leads into below its source, and every member of one it leaves above', async () => {
    // The shape of GitLab's AI architecture diagram: clients and models as packages, a flat `-right->` among the rest
    // (which turns Graphviz's newrank on); the Models package ran from the top row down past the gateway.
    const drawn = await drawGraph(
      plantumlNotation.toGraph(
        uml(
          [
            'package Clients {', '  [IDEs] as IDE', '  [Web Frontend] as WEB', '}',
            '[Cloud] as COM', '[Self-Managed] as SMI', '[Customers API] as CD', '[AI gateway] as GW',
            'package Models {', '  [Third-party models] as THIRD', '  [Native models] as NATIVE', '}',
            'Clients -down-> COM : REST', 'Clients -down-> SMI : REST', 'Clients -down-> GW : completion',
            'SMI -right-> CD : license sync', 'COM -down-> GW : prompts', 'SMI -down-> GW : prompts',
            'GW -up-> COM : key sync', 'GW -up-> CD : key sync', 'GW -down-> Models : prompts',
          ].join('\n'),
        ),
      ),
      'plantuml',
    );
    const box = (id: string) => drawn.elements.find((e) => e.id === drawn.elementIds.nodes.get(id))!;
    const top = (id: string) => Number(box(id).y);
    const bottom = (id: string) => Number(box(id).y) + Number(box(id).height);
    for (const model of ['THIRD', 'NATIVE']) expect(top(model)).toBeGreaterThan(bottom('GW'));
    for (const client of ['IDE', 'WEB']) for (const target of ['COM', 'SMI']) expect(bottom(client)).toBeLessThan(top(target));
  });
});

describe('PlantUML containers in the outline PlantUML draws (issue 27, fourth review)', () => {
  it('rules swimlanes, packages and nodes solid and square, and keeps a C4 boundary dashed', () => {
    // EcoScoop's "View Profile" activity (coloured lanes) and a Laravel attendance app's deployment nodes.
    const lanes = plantumlNotation.toGraph(uml(['|#application|User|', '|System|', '|User|', 'start', ':Click Profile Tab;', '|System|', ':Show tags;', 'stop'].join('\n')));
    expect(lanes.groups.map((g) => g.style)).toEqual([{ strokeStyle: 'solid', corner: 'sharp', fillColor: expect.any(String) }, { strokeStyle: 'solid', corner: 'sharp' }]);
    const deployment = plantumlNotation.toGraph(uml(['node "Serveur VPS" as vps {', '  node "PHP-FPM" as php {', '    artifact "Application Laravel" as app', '  }', '}'].join('\n')));
    expect(deployment.groups.map((g) => g.style)).toEqual([{ strokeStyle: 'solid', corner: 'sharp' }, { strokeStyle: 'solid', corner: 'sharp' }]);
    const c4 = plantumlNotation.toGraph(uml(['!include <C4/C4_Container>', 'System_Boundary(s, "Shop") {', '  Container(api, "API")', '}'].join('\n')));
    expect(c4.groups[0]!.style?.strokeStyle).toBe('dashed');
  });
});

describe('PlantUML switch cases labelled on their own legs (issue 27, fourth review)', () => {
  it('writes each case on its branch, not beside the switch, where the cases would stack into one block of text', () => {
    // EcoScoop's "View Profile" activity: three cases out of one hexagon, their labels were one unreadable stack.
    const graph = plantumlNotation.toGraph(uml(['start', 'switch (Handle User selection)', 'case ( Clicked Achievements?)', '  :Show achievements;', 'case ( Clicked Level?)', '  :Show levels;', 'case ( Checked Tags?)', '  :Show tags;', 'endswitch', 'if (More?) then (yes)', '  :Again;', 'endif', 'stop'].join('\n')));
    const fromDecision = (label: string) => graph.nodes.find((n) => n.kind === 'decision' && n.label === label)!.id;
    const cases = graph.edges.filter((e) => e.from === fromDecision('Handle User selection'));
    expect(cases.map((e) => [e.label, e.startLabel])).toEqual([
      ['Clicked Achievements?', undefined],
      ['Clicked Level?', undefined],
      ['Checked Tags?', undefined],
    ]);
    // An if's branch keeps its label beside the condition it answers.
    expect(graph.edges.find((e) => e.from === fromDecision('More?') && e.startLabel === 'yes')).toBeDefined();
  });

  it('writes an else beside its decision too, as PlantUML does: two branches leave a hexagon from its two sides', () => {
    // An order flow's "Payment valid?": its `no` stood half-way down the branch, beside "Reject order", not at the decision.
    const graph = plantumlNotation.toGraph(uml(['start', 'if (Payment valid?) then (yes)', '  :Reserve stock;', 'else (no)', '  :Reject order;', 'endif', 'stop'].join('\n')));
    const decision = graph.nodes.find((n) => n.label === 'Payment valid?')!.id;
    expect(graph.edges.filter((e) => e.from === decision).map((e) => [e.label, e.startLabel])).toEqual([
      [undefined, 'yes'],
      [undefined, 'no'],
    ]);
  });
});

describe('PlantUML state glyphs in monochrome', () => {
  it('draws the start as a black dot and each composite state with a solid outline, as PlantUML draws the IRS ESR certificate states', async () => {
    const { codeToScene } = await import('../index.js');
    const drawn = await codeToScene(openFixture('irs-esr-certificate-state.puml'));
    const elementOf = (id: string) => drawn.elements.find((e) => e.id === drawn.elementIds.nodes.get(id))!;
    // Whitened by `skinparam monochrome true`, the start read as an empty ring.
    const start = drawn.graph.nodes.find((n) => n.kind === 'start')!;
    expect(elementOf(start.id).fillColor).not.toBe('#ffffff');
    // Dashed, the five composite states read as loose groupings, not states.
    const boxes = drawn.graph.groups.map((g) => drawn.elements.find((e) => e.id === drawn.elementIds.groups.get(g.id))!);
    expect(boxes.map((box) => box.strokeStyle)).toEqual(Array(5).fill('solid'));
  });
});

describe('PlantUML activity SDL shapes', () => {
  it('draws an action ending in `/` as a parallelogram and in `]` as a square box, and says which endings are approximated (plantuml.com activity "SDL")', () => {
    // The guide's SDL example; a job-hiring process (joelparkerhenderson/plantuml-examples, not copied: CC BY-NC-SA)
    // writes its inputs and outputs `/` and its sub-processes `|`, all drawn as rounded steps before.
    const graph = plantumlNotation.toGraph(
      uml(['start', ':Ready;', ':next(o)|', ':Receiving;', 'split', ' :nak(i)<', ' :ack(o)>', 'split again', ' :ack(i)<', ' :next(o)', ' on several lines|', ' :i := i + 1]', ' :ack(o)>', 'split again', ' :err(i)<', ' :nak(o)>', 'split again', ' :foo/', 'split again', ' :i > 5}', 'stop', 'end split', ':finish;'].join('\n')),
    );
    const look = (label: string) => {
      const node = graph.nodes.find((n) => n.label === label)!;
      return `${node.shape ?? 'rounded'}${node.style?.corner === 'sharp' ? ' sharp' : ''}`;
    };
    expect(['Ready', 'foo', 'i := i + 1', 'next(o)', 'ack(o)'].map(look)).toEqual(['rounded', 'parallelogram', 'rectangle sharp', 'rectangle sharp', 'rectangle sharp']);
    expect(graph.warnings).toContain("9 actions ending in | < > or } (PlantUML's procedure and signal shapes) drawn as square boxes");
  });
});

describe('PlantUML composite state descriptions', () => {
  it('writes a composite state\'s description under its name, as PlantUML does (Aries DKMS failure modes)', () => {
    const graph = plantumlNotation.toGraph(openFixture('aries-dkms-failure-modes-state.puml'));
    // Both were dropped without a word: the mitigation each mode asks for was gone.
    expect(graph.groups.map((g) => g.label)).toEqual([
      'Oblivious\nMitigation by prevention, reducing impact\nand attacker benefit',
      'Cognizant\nMitigation by prevention, quick recovery,\nreducing impact and attacker benefit',
    ]);
  });
});
