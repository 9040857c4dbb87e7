import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { structureOf as structure } from '../../../../test/support/structure.js';
import { recoverGraph } from '../../export/graph-recovery.js';
import { toMermaid } from '../../export/mermaid.js';
import { intakeScene } from '../../scene/intake.js';
import { codeToScene, detectNotation } from '../index.js';
import { mermaidNotation } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/mermaid/${name}`, import.meta.url), 'utf8');
/** An element's box and text by id, for tests on where things are drawn. */
function placed(elements: readonly { id: string; x?: number; y?: number; width?: number; height?: number; text?: string }[], id: string) {
  const element = elements.find((e) => e.id === id);
  if (element === undefined) throw new Error(`no element ${id}`);
  return { x: element.x ?? 0, y: element.y ?? 0, width: element.width ?? 0, height: element.height ?? 0, text: element.text };
}
const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as AppError);

describe('mermaidNotation on real diagrams', () => {
  it('reads the Kubernetes Ingress flowchart: stadium client, dotted labelled link, the cluster subgraph, classDef colours', async () => {
    const graph = await mermaidNotation.toGraph(fixture('k8s-ingress-flowchart.mmd'));
    expect(graph.direction).toBe('RIGHT');
    // `graph LR` is the author's choice: layout keeps it even when the drawing is wide.
    expect(graph.forcedDirection).toBe(true);
    // `class cluster cluster`: the subgraph takes its classDef's fill, stroke and title colour.
    expect(graph.groups).toEqual([{ id: 'cluster', label: 'cluster', style: { fillColor: '#ffffff', strokeColor: '#bbbbbb', strokeWidth: 2, textColor: '#326ce5' } }]);
    expect(graph.nodes.map((n) => [n.id, n.label, n.shape, n.parent])).toEqual([
      ['client', 'client', 'terminator', undefined],
      ['ingress', 'Ingress', 'rectangle', 'cluster'],
      ['service', 'Service', 'rectangle', 'cluster'],
      ['pod1', 'Pod', 'rectangle', 'cluster'],
      ['pod2', 'Pod', 'rectangle', 'cluster'],
    ]);
    expect(graph.nodes.find((n) => n.id === 'service')!.style).toMatchObject({ fillColor: '#326ce5', strokeColor: '#ffffff', strokeWidth: 4, textColor: '#ffffff' });
    // `Ingress-managed <br> load balancer`: the spaces round the break draw nothing in Mermaid, so both lines stay centred.
    expect(graph.edges[0]).toMatchObject({ from: 'client', to: 'ingress', label: 'Ingress-managed\nload balancer', endArrowhead: 'arrow', style: { strokeStyle: 'dashed' } });
    expect(graph.edges[1]).toMatchObject({ from: 'ingress', to: 'service', label: 'routing rule' });
    expect(graph.warnings).toEqual([]);
  });

  it('reads the Kubernetes system-flow sequence with its init directive: actor, six participants, replies dashed', async () => {
    const graph = await mermaidNotation.toGraph(fixture('k8s-system-flow-sequence.mmd'));
    expect(graph.layout).toBe('sequence');
    expect(graph.nodes.map((n) => n.kind)).toEqual(['actor', 'component', 'component', 'component', 'component', 'component', 'component']);
    expect(graph.nodes[0]!.shape).toBe('person');
    // `control plane<br><br>api-server`: Mermaid draws the empty line between the plane and the component's name.
    expect(graph.nodes[1]!.label).toBe('control plane\n\napi-server');
    expect(graph.nodes[3]!.label).toBe('control plane\n\ncontroller\nmanager');
    const messages = graph.sequence!.steps.filter((s) => s.type === 'message');
    expect(messages).toHaveLength(12);
    expect(messages[1]).toMatchObject({ from: 'apiSrv', to: 'etcd', dashed: true, label: '2. save new state', endArrowhead: 'arrow' });
    expect(messages[4]).toMatchObject({ label: '5. notify about pod w nodename=" "' });
  });

  it('numbers autonumbered messages, draws activations, open and crossed messages to self', async () => {
    const graph = await mermaidNotation.toGraph(fixture('powertools-batch-fifo-sequence.mmd'));
    const steps = graph.sequence!.steps;
    expect(steps.filter((s) => s.type === 'activate').map((s) => (s as { participant: string }).participant)).toEqual(['Lambda function', 'SQS queue']);
    expect(steps.find((s) => s.type === 'message' && s.label?.startsWith('3.'))).toMatchObject({ dashed: true, endArrowhead: 'none', from: 'Lambda function', to: 'Lambda function' });
    expect(steps.find((s) => s.type === 'message' && s.label?.startsWith('4.'))).toMatchObject({ dashed: true, endArrowhead: 'bar' });
    expect(graph.warnings).toContain('1 cross heads (-x, --x) drawn as bars');
  });

  it('reads the Mermaid README class diagram: members, methods, «annotations», UML ends', async () => {
    const graph = await mermaidNotation.toGraph(fixture('mermaid-readme-class.mmd'));
    const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
    expect(node('Class01')).toMatchObject({ kind: 'interface', rows: ['«Interface»', 'int chimp', 'int gorilla', 'size()'] });
    expect(node('Class10').rows).toEqual(['«service»', 'int id', 'size()']);
    const edge = (from: string, to: string) => graph.edges.find((e) => e.from === from && e.to === to)!;
    expect(edge('Class01', 'AveryLongClass')).toMatchObject({ startArrowhead: 'triangle-outline', endArrowhead: 'none', label: 'Cool' });
    expect(edge('Class09', 'C3')).toMatchObject({ startArrowhead: 'none', endArrowhead: 'diamond' });
    expect(edge('Class09', 'Class07')).toMatchObject({ endArrowhead: 'triangle-outline' });
    expect(edge('Class09', 'C2')).toMatchObject({ endArrowhead: 'arrow', label: 'Where am I?' });
  });

  it('reads the ER example: entities as tables, crow\'s-foot ends with their cardinalities', async () => {
    const graph = await mermaidNotation.toGraph(fixture('mermaid-docs-er.mmd'));
    expect(graph.nodes.find((n) => n.id === 'LINE-ITEM')).toMatchObject({ kind: 'entity', rows: ['      productCode  string', '      quantity  int', '      pricePerUnit  float'] });
    expect(graph.edges).toEqual([
      { id: 'e1', from: 'CUSTOMER', to: 'ORDER', label: 'places', startArrowhead: 'double-bar', endArrowhead: 'circle-crows-foot', startLabel: '1', endLabel: '0..*' },
      { id: 'e2', from: 'ORDER', to: 'LINE-ITEM', label: 'contains', startArrowhead: 'double-bar', endArrowhead: 'crows-foot-bar', startLabel: '1', endLabel: '1..*' },
    ]);
  });

  it('reads the state example: [*] as start and end points, transitions', async () => {
    const graph = await mermaidNotation.toGraph(fixture('mermaid-readme-state.mmd'));
    expect(graph.nodes.map((n) => n.kind).sort()).toEqual(['end', 'start', 'state', 'state', 'state']);
    expect(graph.edges).toHaveLength(6);
    expect(graph.edges.every((e) => e.endArrowhead === 'arrow')).toBe(true);
  });

  it('breaks a label at `</br>` as the browser does in Mermaid\'s HTML labels (the composite PodGroup KEP\'s templates)', async () => {
    const graph = await mermaidNotation.toGraph(fixture('k8s-composite-podgroup-flowchart.mmd'));
    // `PodGroupTemplate:</br>Workers` was drawn as one line, `PodGroupTemplate:Workers`.
    expect(graph.nodes.find((n) => n.id === 'PGT1')!.label).toBe('PodGroupTemplate:\nWorkers');
    expect(graph.nodes.find((n) => n.id === 'PGT2')!.label).toBe('PodGroupTemplate:\nDriver');
    expect(graph.nodes.find((n) => n.id === 'RootCPG')!.label).toBe('CompositePodGroup:\njob-root');
  });

  it('keeps siblings in the order written, as Mermaid does: the PodGroup KEP\'s replica-0 branch left of replica-1', async () => {
    // ELK's own order drew the runtime groups right to left (replica-1, then replica-0) and a state's
    // outcomes last written first.
    const { elements } = await codeToScene(fixture('k8s-composite-podgroup-flowchart.mmd'), { notation: 'mermaid' });
    const x = (text: string) => elements.find((e) => e.text === text)!.x!;
    expect(x('CompositePodGroup: replica-0')).toBeLessThan(x('CompositePodGroup: replica-1'));
    const pods = ['PodGroup: workers-0', 'PodGroup: driver-0', 'PodGroup: workers-1', 'PodGroup: driver-1'].map(x);
    expect(pods).toEqual([...pods].sort((a, b) => a - b));
    expect(x('PodGroupTemplate:\nWorkers')).toBeLessThan(x('PodGroupTemplate:\nDriver'));
    // A state fanned out to its outcomes (the shape of Temporal's Nexus operation states): left to right as written.
    const states = await codeToScene(
      ['stateDiagram-v2', '[*] --> Scheduled', ...['Succeeded', 'Failed', 'Canceled', 'TimedOut'].flatMap((end) => [`Scheduled --> ${end}`, `Started --> ${end}`]), 'Scheduled --> Started'].join('\n'),
      { notation: 'mermaid' },
    );
    const outcomes = ['Succeeded', 'Failed', 'Canceled', 'TimedOut'].map((name) => states.elements.find((e) => e.text === name)!.x!);
    expect(outcomes).toEqual([...outcomes].sort((a, b) => a - b));
  });

  it('keeps a left-to-right flow’s subgraph members top to bottom as written (a token revocation’s triggers and mechanisms)', async () => {
    // Graphviz lays each rank of a sideways graph with clusters bottom to top: Logout, written first, came out last.
    const triggers = ['Logout', 'Logout everywhere', 'Password changed', 'Role changed', 'Account suspended', 'Reuse detected'];
    const code = [
      'flowchart LR',
      '  subgraph TRIG["Trigger"]',
      ...triggers.map((name, i) => `    T${i + 1}["${name}"]`),
      '  end',
      '  subgraph MECH["Mechanism"]',
      '    M1["Denylist jti"]',
      '    M2["Revoke refresh token"]',
      '    M3["Increment token_version"]',
      '    M4["Revoke the token family"]',
      '  end',
      '  T1 --> M1',
      '  T1 --> M2',
      ...[2, 3, 4, 5, 6].map((i) => `  T${i} --> M3`),
      '  T6 --> M4',
    ].join('\n');
    const { elements } = await codeToScene(code, { notation: 'mermaid' });
    const y = (text: string) => elements.find((e) => e.text === text)!.y!;
    const ys = triggers.map(y);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    expect(y('Denylist jti')).toBeLessThan(y('Revoke the token family'));
    // Members reached by edges from outside their subgraph Graphviz keeps top to bottom as written: kept so (a workflow
    // executor dispatching to its node handlers).
    const handlers = ['_handle_input_node()', '_handle_llm_node()', '_handle_skill_node()', '_handle_output_node()'];
    const pipeline = await codeToScene(
      ['flowchart LR', '  subgraph Execution', '    E3["Topological Sort"] --> E4["_execute_node()"]', '  end', '  subgraph NodeHandling', ...handlers.map((name, i) => `    NH${i + 1}["${name}"]`), '  end', ...handlers.map((_, i) => `  E4 -->|dispatches| NH${i + 1}`)].join('\n'),
      { notation: 'mermaid' },
    );
    const dispatched = handlers.map((text) => pipeline.elements.find((e) => e.text === text)!.y!);
    expect(dispatched).toEqual([...dispatched].sort((a, b) => a - b));
  });

  it('draws the participants again under their lifelines, as Mermaid’s mirrorActors does unless its config turns it off', async () => {
    const body = ['sequenceDiagram', '  box Backend', '    participant API as API Layer', '  end', '  participant DB as PostgreSQL', '  API->>DB: read ESCALATION_EVENT', '  DB-->>API: event rows'];
    const { elements } = await codeToScene(body.join('\n'), { notation: 'mermaid' });
    const byId = new Map(elements.map((e) => [e.id, e]));
    for (const name of ['API', 'DB']) {
      const [head, lifeline, foot] = ['participant-', 'lifeline-', 'participant-'].map((prefix, i) => byId.get(`${prefix}${name}${i === 2 ? '-foot' : ''}`)!);
      expect(foot!.text).toBe(head!.text);
      expect(foot!.y).toBe(lifeline!.y! + lifeline!.height!);
    }
    // The box reaches round its participants' feet.
    const box = byId.get('box-1')!;
    const foot = byId.get('participant-API-foot')!;
    expect(box.y! + box.height!).toBeGreaterThanOrEqual(foot.y! + foot.height!);
    const off = await codeToScene(['%%{init: {"sequence": {"mirrorActors": false}}}%%', ...body].join('\n'), { notation: 'mermaid' });
    expect(off.elements.some((e) => e.id.endsWith('-foot'))).toBe(false);
  });

  it('keeps a type’s parameter in angle brackets as text, and drops HTML markup (Envoy’s shared_ptr<NewCtx>)', async () => {
    const { elements } = await codeToScene(['sequenceDiagram', '  Mgr-->>Fac: shared_ptr<NewCtx>', '  Fac->>Mgr: <b>removeContext</b>(OldCtx)'].join('\n'), { notation: 'mermaid' });
    const texts = elements.map((e) => e.text ?? '');
    expect(texts.some((text) => text.includes('shared_ptr<NewCtx>'))).toBe(true);
    expect(texts.some((text) => text.includes('removeContext(OldCtx)'))).toBe(true);
  });

  it('draws a state’s transitions to one same state as one arrow listing their triggers (an orchestrator stage’s approve and reject)', async () => {
    const graph = await mermaidNotation.toGraph(
      ['stateDiagram-v2', '  IN_PROGRESS --> VALIDATING : request_validation', '  VALIDATING --> IN_PROGRESS : approve', '  VALIDATING --> IN_PROGRESS : reject_with_feedback'].join('\n'),
    );
    expect(graph.edges.map((edge) => [edge.from, edge.to, edge.label])).toEqual([
      ['IN_PROGRESS', 'VALIDATING', 'request_validation'],
      ['VALIDATING', 'IN_PROGRESS', 'approve\nreject_with_feedback'],
    ]);
  });

  it('points both heads of a two-way link between subgraphs along the link, not across the border (agents messaging in an orchestration)', async () => {
    // The shape of Semantic Kernel's multi-agent orchestration: actors as subgraphs inside a container, linked both ways.
    const code = ['graph TD', '  subgraph Orchestration', '    subgraph Members', '      subgraph AA0[Agent Actor]', '        AG0[agent 0]', '      end', '      subgraph AA1[Agent Actor]', '        AG1[agent 1]', '      end', '    end', '    IT[Internal Topic]', '    OA[Optional Actor]', '  end', '  AA0 <-.Direct messaging.-> AA1', '  AA0 <-.Direct messaging.-> OA', '  IT <-.Broadcast.-> AA0'].join('\n');
    const { elements } = await codeToScene(code, { notation: 'mermaid' });
    const arrows = elements.filter((e) => e.type === 'arrow') as { points: { x: number; y: number }[] }[];
    expect(arrows).toHaveLength(3);
    // A repeated end point left a leg of no length under each head: the two heads stood across the border as a diamond.
    for (const { points } of arrows) for (let k = 1; k < points.length; k++) expect(Math.hypot(points[k]!.x - points[k - 1]!.x, points[k]!.y - points[k - 1]!.y)).toBeGreaterThan(1);
  });

  it('draws reth\'s tables with the keys its author wrote as comments (`u64 BlockNumber "PK"`) in the key column', async () => {
    const graph = await mermaidNotation.toGraph(fixture('reth-database-tables-er.mmd'));
    // The rows read `BlockNumber  u64  "PK"` beside keyless rows, the key a quoted afterthought at the end.
    expect(graph.nodes.find((n) => n.id === 'StorageChangeSets')!.rows).toEqual([
      'PK    BlockNumber  u64',
      'PK    Account  B256',
      'PK    StorageKey  B256',
      '      StorageChangeSets  ChangeSet  "Storage entry before transition"',
    ]);
    expect(graph.nodes.find((n) => n.id === 'CanonicalHeaders')!.rows).toEqual(['PK    BlockNumber  u64', '      HeaderHash  B256  "Value for CanonicalHeaders"']);
    expect(graph.warnings).toEqual(['29 attribute comment(s) that only name keys ("PK", "FK", "UK") drawn as the rows\' keys']);
  });

  it('keeps a call written as one identifier whole on its message, the lifelines moved apart for it (Temporal\'s history service)', async () => {
    const { elements } = await codeToScene(fixture('temporal-history-service-sequence.mmd'), { notation: 'mermaid' });
    // It was cut at a hump: `RespondWorkflowTaskCompleted(Schedule` over `Activity)`.
    const label = elements.find((e) => e.text?.startsWith('RespondWorkflowTaskCompleted(Schedule'))!;
    expect(label.text).toBe('RespondWorkflowTaskCompleted(ScheduleActivity)');
    const lifeline = (id: string) => elements.find((e) => e.id === `lifeline-${id}`)!.x!;
    expect(label.x!).toBeGreaterThanOrEqual(lifeline('worker'));
    expect(label.x! + label.width!).toBeLessThanOrEqual(lifeline('handler'));
  });

  it('paints sequence participant heads in the init directive\'s actor colours (the KMS v2 KEP: white names on royal blue)', async () => {
    const code = fixture('k8s-kms-v2-themed-sequence.mmd');
    const graph = await mermaidNotation.toGraph(code);
    expect(graph.nodes.map((n) => n.style)).toEqual(Array(5).fill({ fillColor: '#4169e1', textColor: '#ffffff' }));
    const { elements } = await codeToScene(code, { notation: 'mermaid' });
    // The name is written white on the royal blue head, where both were the default light blue and dark blue.
    expect(elements.find((e) => e.id === 'participant-etcd')).toMatchObject({ text: 'etcd', fillColor: '#4169e1', strokeColor: '#ffffff' });
  });
});

describe('mermaidNotation markdown in state diagrams', () => {
  it('keeps the words of emphasised state labels and transitions, as Mermaid draws them in italics, not the asterisks', async () => {
    // A print job's machine marks its busy states `*Printing pages*`, as README state diagrams do.
    const graph = await mermaidNotation.toGraph(fixture('print-job-emphasis-state.mmd'));
    const label = (id: string) => graph.nodes.find((n) => n.id === id)?.label;
    expect([label('spooling'), label('printing'), label('finishing')]).toEqual(['Spooling the document', 'Printing pages', 'Stapling and sorting the copies']);
    expect(graph.nodes.some((n) => n.label.includes('*'))).toBe(false);
    const marked = await mermaidNotation.toGraph('stateDiagram-v2\n  a --> b: *edge label* and **bold**\n  note right of b: *note text*');
    expect(marked.edges.map((e) => e.label).filter(Boolean)).toEqual(['edge label and bold']);
    expect(marked.nodes.find((n) => n.kind === 'note')?.label).toBe('note text');
  });
});

describe('mermaidNotation Font Awesome icons in labels', () => {
  it('draws `fa:fa-user Researcher` as the words with a user icon, not the icon\'s code as text', async () => {
    const graph = await mermaidNotation.toGraph('graph TB\n  User["fa:fa-user Researcher / User"] -->|fab:fa-chrome Browser| App\n  subgraph S["fa:fa-server Backend"]\n    App\n  end');
    expect(graph.nodes.find((n) => n.id === 'User')).toMatchObject({ label: 'Researcher / User', iconHint: 'user' });
    expect(graph.edges[0]!.label).toBe('Browser');
    expect(graph.groups[0]!.label).toBe('Backend');
  });
});

describe('mermaidNotation theme variables', () => {
  it('colours nodes, subgraphs and links with the init directive\'s themeVariables, under classDefs (VeriFlow\'s architecture)', async () => {
    const code = `%%{init: {'theme': 'base', 'themeVariables': {'primaryColor': '#4285F4', 'primaryTextColor': '#fff', 'primaryBorderColor': '#1a73e8', 'lineColor': '#5f6368', 'tertiaryColor': '#FBBC04'}}}%%
graph TB
  subgraph Backend
    API --> DB
  end
  DB:::store
  classDef store fill:#9e9e9e`;
    const graph = await mermaidNotation.toGraph(code);
    expect(graph.nodes.find((n) => n.id === 'API')!.style).toMatchObject({ fillColor: '#4285f4', strokeColor: '#1a73e8', textColor: '#ffffff' });
    expect(graph.nodes.find((n) => n.id === 'DB')!.style).toMatchObject({ fillColor: '#9e9e9e', strokeColor: '#1a73e8' });
    expect(graph.groups[0]!.style).toMatchObject({ fillColor: '#fbbc04' });
    expect(graph.edges[0]!.style).toMatchObject({ strokeColor: '#5f6368' });
  });
});

describe('mermaidNotation subgraph direction', () => {
  // A disaster-recovery README's two subgraphs, each `direction LR` with its link inside: Mermaid draws both left to right.
  const recovery = [
    'flowchart TB',
    '  subgraph "Normal Operation"',
    '    direction LR',
    '    PRIMARY["Primary Region"] -->|"Daily backups"| S3["Backup Bucket"]',
    '  end',
    '  subgraph crossed["Runtime"]',
    '    direction LR',
    '    BIND --> START',
    '  end',
    '  START --> LOOP',
    '  X --> quiet',
    '  subgraph quiet',
    '    a1 --> a2',
    '  end',
  ].join('\n');

  it('lays a subgraph no link crosses in its own direction, or across the flow around it, as Mermaid does; one a link crosses follows the diagram', async () => {
    const graph = await mermaidNotation.toGraph(recovery);
    const direction = (id: string) => graph.groups.find((g) => g.id === id)!.direction;
    expect(direction(graph.groups.find((g) => g.label === 'Normal Operation')!.id)).toBe('RIGHT');
    // `direction LR` is ignored by Mermaid when a link leaves the subgraph (START --> LOOP).
    expect(direction('crossed')).toBeUndefined();
    // No direction written, no link crossing (X --> quiet ends at the subgraph itself): Mermaid turns TB into LR.
    expect(direction('quiet')).toBe('RIGHT');

    const { elements } = await codeToScene(recovery, { notation: 'mermaid' });
    const box = (id: string) => placed(elements, id);
    expect(box('S3').x).toBeGreaterThan(box('PRIMARY').x + box('PRIMARY').width);
    expect(Math.abs(box('S3').y + box('S3').height / 2 - (box('PRIMARY').y + box('PRIMARY').height / 2))).toBeLessThan(2);
    expect(box('START').y).toBeGreaterThan(box('BIND').y + box('BIND').height);
  });
});

describe('mermaidNotation invisible links', () => {
  it('places the ends of ~~~ as a link would and draws nothing: a router layer\'s files in a row in the author\'s order', async () => {
    // A CV generator's architecture README: five routers chained by ~~~ in a `direction LR` subgraph under main.py.
    const code = [
      'graph TB',
      '  subgraph Routers["Router-Schicht"]',
      '    direction LR',
      '    R1["system.py"]',
      '    R2["sessions.py"]',
      '    R3["documents.py"]',
      '    R4["generations.py"]',
      '    R5["exports.py"]',
      '    R1 ~~~ R2',
      '    R2 ~~~ R3',
      '    R3 ~~~ R4',
      '    R4 ~~~ R5',
      '  end',
      '  Main["main.py"] --> Routers',
    ].join('\n');
    const { elements } = await codeToScene(code, { notation: 'mermaid' });
    const routers = ['R1', 'R2', 'R3', 'R4', 'R5'].map((id) => placed(elements, id));
    for (const [left, right] of routers.slice(1).map((r, i) => [routers[i]!, r] as const)) {
      expect(right.x).toBeGreaterThan(left.x + left.width);
      expect(right.y).toBe(left.y);
    }
    // Only main.py's arrow is drawn.
    expect(elements.filter((e) => e.type === 'arrow')).toHaveLength(1);
  });
});

describe('mermaidNotation default styles', () => {
  it('styles every node with `classDef default` and every link with `linkStyle default`, under their own styles', async () => {
    const graph = await mermaidNotation.toGraph(
      ['flowchart LR', '  classDef default fill:#f9f,stroke:#333', '  A --> B', '  B --> C:::other', '  classDef other fill:#0f0', '  linkStyle default stroke:#f00,stroke-width:3px', '  linkStyle 1 stroke:#00f'].join('\n'),
    );
    const style = (id: string) => graph.nodes.find((n) => n.id === id)!.style;
    expect(style('A')).toEqual({ fillColor: '#ff99ff', strokeColor: '#333333' });
    expect(style('C')).toEqual({ fillColor: '#00ff00', strokeColor: '#333333' });
    expect(graph.edges.map((e) => e.style)).toEqual([
      { strokeColor: '#ff0000', strokeWidth: 3 },
      { strokeColor: '#0000ff', strokeWidth: 3 },
    ]);
  });
});

describe('mermaidNotation state transitions into the composite state around them', () => {
  it('draws a transition from a state to its own composite (re-entering it) to the composite\'s start point, not drops it', async () => {
    // A view model's states in a public Android app's architecture notes: Refreshing, inside Success, returns to Success.
    const code = [
      'stateDiagram-v2',
      '    [*] --> Loading',
      '    state Loading {',
      '        [*] --> Fetching',
      '    }',
      '    state Success {',
      '        [*] --> DataLoaded',
      '        DataLoaded --> Refreshing: Pull to Refresh',
      '    }',
      '    Loading --> Success: Data Received',
      '    Refreshing --> Success: Refresh Complete',
    ].join('\n');
    const graph = await mermaidNotation.toGraph(code);
    const start = graph.nodes.find((node) => node.kind === 'start' && node.parent === 'Success')!;
    expect(graph.edges.find((edge) => edge.label === 'Refresh Complete')).toMatchObject({ from: 'Refreshing', to: start.id });
    const scene = await codeToScene(code, { notation: 'mermaid' });
    expect(scene.warnings).toEqual([]);
    expect(scene.elements.filter((element) => element.type === 'text' && element.text === 'Refresh Complete')).toHaveLength(1);
  });
});

describe('mermaidNotation class and state colours', () => {
  it('keeps a class\'s `style` and `classDef` colours', async () => {
    const graph = await mermaidNotation.toGraph(['classDiagram', '  class A', '  class B:::warm', '  classDef warm fill:#f96,color:#fff', '  style A fill:#f9f,stroke:#333'].join('\n'));
    const style = (id: string) => graph.nodes.find((n) => n.id === id)!.style;
    // Every class's name in bold, as Mermaid sets it.
    expect(style('A')).toEqual({ fillColor: '#ff99ff', strokeColor: '#333333', fontWeight: 'bold' });
    expect(style('B')).toEqual({ fillColor: '#ff9966', textColor: '#ffffff', fontWeight: 'bold' });
  });

  it('keeps a state\'s `classDef` colours (`class Failed bad`), and none on pseudo-states', async () => {
    const graph = await mermaidNotation.toGraph(
      ['stateDiagram-v2', '  classDef bad fill:#f00,color:white,font-weight:bold', '  [*] --> Check', '  Check --> Failed', '  Failed --> [*]', '  class Failed bad'].join('\n'),
    );
    expect(graph.nodes.find((n) => n.id === 'Failed')!.style).toEqual({ fillColor: '#ff0000', textColor: '#ffffff' });
    expect(graph.nodes.find((n) => n.id === 'Check')!.style).toBeUndefined();
  });
});

describe('mermaidNotation fork and join bars', () => {
  it('stands a fork and a join bar upright across a left-to-right flow, flat across a top-down one', async () => {
    const body = ['  state fork_state <<fork>>', '  [*] --> fork_state', '  fork_state --> A', '  fork_state --> B', '  state join_state <<join>>', '  A --> join_state', '  B --> join_state', '  join_state --> [*]'];
    for (const [direction, upright] of [['LR', true], ['TB', false]] as const) {
      const { elements } = await codeToScene(['stateDiagram-v2', `  direction ${direction}`, ...body].join('\n'), { notation: 'mermaid' });
      for (const bar of ['fork_state', 'join_state'].map((id) => placed(elements, id))) expect(bar.height > bar.width).toBe(upright);
    }
  });
});

describe('mermaidNotation class compartments', () => {
  it('draws a class\'s operations in a compartment of their own under its attributes, as Mermaid and UML do', async () => {
    const graph = await mermaidNotation.toGraph(fixture('mermaid-readme-class.mmd'));
    const class01 = graph.nodes.find((n) => n.id === 'Class01')!;
    expect(class01.compartments).toEqual([3]);
    expect(graph.nodes.find((n) => n.id === 'Class07')!.compartments).toEqual([1]);
    // No attributes or no operations: one compartment, no rule of its own.
    expect(graph.nodes.find((n) => n.id === 'C2')!.compartments).toBeUndefined();

    const { elements } = await codeToScene(fixture('mermaid-readme-class.mmd'));
    const byId = (id: string) => placed(elements, id);
    const [attributes, operations, rule] = [byId('Class01-rows'), byId('Class01-rows-2'), byId('Class01-rule-2')];
    expect(attributes.text).toBe('int chimp\nint gorilla');
    expect(operations.text).toBe('size()');
    // The rule runs across the box between the two texts.
    expect(rule.y).toBeGreaterThan(attributes.y + attributes.height);
    expect(rule.y).toBeLessThan(operations.y);
    expect(rule.width).toBe(byId('Class01').width);
    expect(operations.y + operations.height).toBeLessThanOrEqual(byId('Class01').y + byId('Class01').height);
  });
});

describe('mermaidNotation class stereotypes', () => {
  it('draws `<<interface>>` as a line over the class name, as Mermaid does, not as the first member', async () => {
    const { elements } = await codeToScene(fixture('lock-contention-interfaces-class.mmd'));
    const byId = (id: string) => placed(elements, id);
    for (const [id, mark, firstRow] of [['LeaseWatcher', '«interface»', '+lease: String'], ['LeaseCandidate', '«interface»', '+candidateId: String'], ['AbstractLeaseCandidate', '«abstract»', '+lease: String']] as const) {
      const [box, stereotype, name, rows, rule] = [byId(id), byId(`${id}-stereotype`), byId(`${id}-header`), byId(`${id}-rows`), byId(`${id}-rule`)];
      expect([stereotype.text, name.text, rows.text!.split('\n')[0]]).toEqual([mark, id, firstRow]);
      // Stereotype, then name, both centred in the header band above its rule; the members below it.
      expect(stereotype.y).toBeGreaterThanOrEqual(box.y);
      expect(stereotype.y + stereotype.height).toBeLessThanOrEqual(name.y);
      expect(name.y + name.height).toBeLessThanOrEqual(rule.y);
      expect(rows.y).toBeGreaterThan(rule.y);
      expect(Math.abs(stereotype.x + stereotype.width / 2 - (box.x + box.width / 2))).toBeLessThan(1);
    }
    // An interface with nothing but its mark is a header over an empty compartment, as Mermaid draws it: no member text.
    expect(byId('Closeable-stereotype').text).toBe('«interface»');
    expect(elements.some((e) => e.id === 'Closeable-rows')).toBe(false);
    expect(byId('Closeable').height).toBeGreaterThan(byId('Closeable-rule').y - byId('Closeable').y);
  });

  it('draws a class written as its name alone as a class box, its name over an empty compartment, as Mermaid does', async () => {
    const { elements } = await codeToScene(fixture('lock-contention-interfaces-class.mmd'));
    const byId = (id: string) => placed(elements, id);
    for (const id of ['JdbcLeaseCandidate', 'RedisLeaseCandidate']) {
      // The same look as its base class: a header text in the ink colour, a rule, room under it; not a plain labelled box.
      expect(byId(`${id}-header`).text).toBe(id);
      expect(byId(`${id}-rule`).y).toBeLessThan(byId(id).y + byId(id).height - 10);
      expect(elements.find((e) => e.id === id)!.text ?? '').toBe('');
    }
  });

  it('reads the stereotype back as the class\'s annotation when the drawing is exported', async () => {
    const recovered = recoverGraph(intakeScene((await codeToScene(fixture('lock-contention-interfaces-class.mmd'))).elements).elements);
    const node = (label: string) => recovered.nodes.find((n) => n.label === label)!;
    expect(node('LeaseWatcher').rows).toEqual(['«interface»', '+lease: String', '+notifyHolder(state: LeaseState)']);
    expect(node('Closeable').rows).toEqual(['«interface»']);
    const back = await mermaidNotation.toGraph(toMermaid(recovered).code);
    expect(back.nodes.filter((n) => n.kind === 'interface').map((n) => n.label).sort()).toEqual(['Closeable', 'LeaseCandidate', 'LeaseWatcher']);
  }, 60_000);
});

describe('mermaidNotation details', () => {
  it('maps every bracket and @{ shape } form, and says which ones are approximated', async () => {
    const graph = await mermaidNotation.toGraph(
      'flowchart TD\n a[rect] --> b(round) --> c([stadium]) --> d[(db)] --> e((circle)) --> f{dec} --> g{{hex}} --> h[/lean/] --> i[/trap\\] --> j[[sub]]\n k@{ shape: doc, label: "Doc" }\n l@{ shape: cloud, label: "Cloud" }',
    );
    const shape = (id: string) => graph.nodes.find((n) => n.id === id)!;
    expect(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].map((id) => shape(id).shape)).toEqual([
      'rectangle', 'rectangle', 'terminator', 'cylinder', 'ellipse', 'diamond', 'hexagon', 'parallelogram', 'trapezoid', 'rectangle', 'document', 'cloud',
    ]);
    expect(shape('b').style).toEqual({ corner: 'rounded' });
    expect(shape('d').kind).toBe('database');
    expect(graph.warnings).toEqual(['Mermaid subroutine shape drawn as rectangle ("j")']);
  });

  it('reads link kinds: both ends, circles, crosses, thick and invisible links, nested subgraphs, edges to a subgraph', async () => {
    const graph = await mermaidNotation.toGraph('graph LR\n subgraph outer [Outer]\n subgraph inner [Inner]\n a\n end\n b\n end\n a <--> b\n a o--o b\n a x--x b\n a ==> b\n a ~~~ b\n b --> inner');
    // No link leaves Outer, so Mermaid lays it out on its own, across the diagram's LR: top-down.
    expect(graph.groups).toEqual([{ id: 'inner', label: 'Inner', parent: 'outer' }, { id: 'outer', label: 'Outer', direction: 'DOWN' }]);
    expect(graph.nodes.map((n) => [n.id, n.parent])).toEqual([['a', 'inner'], ['b', 'outer']]);
    expect(graph.edges.map((e) => [e.startArrowhead, e.endArrowhead, e.style?.strokeWidth])).toEqual([
      ['arrow', 'arrow', undefined],
      ['circle', 'circle', undefined],
      ['bar', 'bar', undefined],
      ['none', 'arrow', 4],
      ['none', 'none', undefined],
      ['none', 'arrow', undefined],
    ]);
    // `~~~` is laid out, not drawn.
    expect(graph.edges[4]).toMatchObject({ from: 'a', to: 'b', hidden: true });
    expect(graph.edges[5]).toMatchObject({ from: 'b', to: 'inner' });
    expect(graph.warnings).toEqual(['1 cross head (--x) drawn as a bar']);
  });

  it('shows a generic member type of the Powertools idempotency record as written, not HTML-escaped', async () => {
    const graph = await mermaidNotation.toGraph(fixture('powertools-idempotency-record-class.mmd'));
    expect(graph.nodes.find((n) => n.id === 'IdempotencyRecord')!.rows).toContain('responseData Json<string>');
    expect(graph.nodes.find((n) => n.id === 'Status')!.rows).toEqual(['«Enumeration»', 'INPROGRESS', 'COMPLETE', 'EXPIRED internal_only']);
  });

  it('shows named HTML entities as their characters, once: Mermaid draws labels as HTML', async () => {
    const graph = await mermaidNotation.toGraph('flowchart TD\n a["x &lt; y &amp;lt; z &unknown;"] --> b');
    expect(graph.nodes[0]!.label).toBe('x < y &lt; z &unknown;');
  });

  it('reads `&gt` without its `;` as HTML does, where a state diagram\'s `;` ended the statement (a Snowflake generator\'s notes)', async () => {
    const graph = await mermaidNotation.toGraph('stateDiagram-v2\n  Generating --> NewMs : currentTs &gt; lastTs\n  A --> B : AT&T &amp x &apos y');
    expect(graph.edges.map((e) => e.label)).toEqual(['currentTs >', 'AT&T & x &apos y']);
  });

  it('breaks a flowchart label at a written \\n, as Mermaid draws it (an ONNX toolchain\'s "Execution ordering\\n(topological)")', async () => {
    const graph = await mermaidNotation.toGraph('flowchart LR\n  Order("Execution ordering\\n(topological)") -->|"edge\\nlabel"| B');
    expect(graph.nodes[0]!.label).toBe('Execution ordering\n(topological)');
    expect(graph.edges[0]!.label).toBe('edge\nlabel');
  });

  it('keeps the front-matter title and decodes entity codes and line breaks', async () => {
    const graph = await mermaidNotation.toGraph('---\ntitle: "Orders #1"\n---\nflowchart TD\n a["x #35; y<br>z"] --> b');
    expect(graph.title).toBe('Orders #1');
    expect(graph.nodes[0]!.label).toBe('x # y\nz');
  });

  it('refuses a syntax error with Mermaid\'s message, line and column', async () => {
    const error = await refusal(mermaidNotation.toGraph('flowchart TD\n a --> b\n b -->> ]'));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'parse_error', details: { line: 3 } });
    expect(error!.message).toMatch(/^line 3, column \d+: Mermaid: Parse error on line 3: Expecting/);
  });

  it('refuses other Mermaid diagram types by name, and detects only Mermaid headers', async () => {
    expect(await refusal(mermaidNotation.toGraph('zenuml\n A->B: hi'))).toMatchObject({ code: 'unsupported_notation', message: expect.stringMatching(/^Mermaid zenuml diagrams are not supported/) });
    expect(detectNotation('graph TD; A-->B')).toBe('mermaid');
    expect(detectNotation('%% a comment\nsequenceDiagram\n A->>B: hi')).toBe('mermaid');
    expect(detectNotation('---\ntitle: x\n---\nerDiagram\n A ||--o{ B : has')).toBe('mermaid');
    expect(detectNotation('digraph { a -> b }')).toBe('dot');
    // An undirected Graphviz graph also starts with `graph`: Graphviz's, not ours.
    expect(detectNotation('graph G { a -- b }')).toBe('dot');
    expect(detectNotation('strict graph {\n a -- b\n}')).toBe('dot');
  });

  it('parses concurrent calls each into its own graph', async () => {
    const codes = ['erDiagram\n A ||--o{ B : x', 'sequenceDiagram\n A->>B: hi', 'classDiagram\n A <|-- B', 'stateDiagram-v2\n [*] --> S', 'graph TD\n P --> Q'];
    const graphs = await Promise.all(codes.map((code) => mermaidNotation.toGraph(code)));
    expect(graphs.map((g) => g.nodes.map((n) => n.label).join(','))).toEqual(['A,B', 'A,B', 'A,B', ',S', 'P,Q']);
  });
});

describe('Mermaid round trip: from code → scene → export → from code draws the same structure', () => {
  it.each(['k8s-ingress-flowchart.mmd', 'mermaid-readme-class.mmd', 'mermaid-docs-er.mmd', 'mermaid-readme-state.mmd', 'powertools-batch-class.mmd', 'lock-contention-interfaces-class.mmd'])('%s', async (file) => {
    const first = recoverGraph(intakeScene((await codeToScene(fixture(file))).elements).elements);
    const exported = toMermaid(first);
    const second = recoverGraph(intakeScene((await codeToScene(exported.code, { notation: 'mermaid' })).elements).elements);
    expect(structure(second)).toEqual(structure(first));
  }, 60_000);
});

describe('mermaidNotation direction', () => {
  it('leaves the direction free when the author wrote none, and keeps a written `direction` statement', async () => {
    expect((await mermaidNotation.toGraph('classDiagram\n A <|-- B')).forcedDirection).toBeUndefined();
    const turned = await mermaidNotation.toGraph('classDiagram\n direction LR\n A <|-- B');
    expect([turned.direction, turned.forcedDirection]).toEqual(['RIGHT', true]);
  });
});

describe('mermaidNotation sequence highlights', () => {
  it('paints `rect rgb(…)` as a background behind the messages it holds, inside an alt too, instead of dropping it', async () => {
    const graph = await mermaidNotation.toGraph(fixture('signup-transaction-rect-sequence.mmd'));
    expect(graph.warnings).toEqual([]);
    const { elements } = await codeToScene(fixture('signup-transaction-rect-sequence.mmd'));
    const highlights = elements.filter((e) => e.type === 'frame' && e.name === '');
    expect(highlights.map((e) => e.fillColor)).toEqual(['#eef5ff', '#ff00001a']);
    const [transaction] = highlights.map((e) => placed(elements, e.id));
    // It holds BEGIN … COMMIT and not the reply after them, and lies under them: drawn before the messages it holds.
    const labelled = (pattern: RegExp) => elements.filter((e) => e.type === 'text' && pattern.test(e.text ?? ''));
    const inside = (e: (typeof elements)[number]) => (e.y ?? 0) > transaction!.y && (e.y ?? 0) < transaction!.y + transaction!.height;
    expect(labelled(/BEGIN|INSERT|COMMIT/).map(inside)).toEqual([true, true, true, true]);
    expect(labelled(/Hash password|202 Accepted/).map(inside)).toEqual([false, false]);
    for (const label of labelled(/BEGIN|INSERT|COMMIT/)) expect(elements.indexOf(label)).toBeGreaterThan(elements.indexOf(highlights[0]!));
    // The alt's frame keeps its name; the highlight has none and no border of another colour.
    expect(elements.find((e) => e.type === 'frame' && e.name?.startsWith('alt'))).toBeDefined();
    expect(highlights[0]!.strokeColor).toBe('#eef5ff');
  });

  it('reads `box rgb(…) Title` colours as Mermaid does', async () => {
    const graph = await mermaidNotation.toGraph(['sequenceDiagram', '    box rgb(33, 66, 99) Backend', '    participant A', '    end', '    A->>A: ping'].join('\n'));
    expect(graph.sequence!.boxes).toEqual([{ label: 'Backend', participants: ['A'], fillColor: '#214263' }]);
  });
});

describe('mermaidNotation sequence boxes', () => {
  it('draws `box Aqua Group … end` around its participants instead of refusing the diagram (Mermaid checks box colours with browser CSS)', async () => {
    const graph = await mermaidNotation.toGraph(
      ['sequenceDiagram', '    box Aqua Group Description', '    participant A', '    participant B as Bee', '    end', '    box Another Group', '    participant C', '    end', '    A->>C: Hello'].join('\n'),
    );
    expect(graph.sequence!.boxes).toEqual([
      { label: 'Group Description', participants: ['A', 'B'], fillColor: '#00ffff' },
      { label: 'Another Group', participants: ['C'] },
    ]);
    expect(graph.warnings).toEqual([]);
  });

  it('keeps Mermaid\'s error positions when boxes were taken out', async () => {
    const error = await refusal(mermaidNotation.toGraph(['sequenceDiagram', 'box Group', 'participant A', 'end', 'A->>: oops'].join('\n')));
    expect(error?.message).toMatch(/line 5/);
  });
});

describe('mermaidNotation diagram families it does not draw', () => {
  const sample = (name: string) => readFileSync(new URL(`../../../../test/fixtures/conformance/mermaid/${name}`, import.meta.url), 'utf8');

  it.each(['packages--mermaid--src--docs--syntax--zenuml.L38.mmd', 'packages--mermaid--src--docs--syntax--wardley.L380.mmd'])(
    'names the family of %s as not supported, even one newer than our Mermaid, instead of a syntax error',
    async (name) => {
      const error = await Promise.resolve(mermaidNotation.toGraph(sample(name))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('unsupported_notation');
      expect((error as AppError).message).toMatch(/^Mermaid (zenuml|wardley(-beta)?) diagrams are not supported/);
    },
  );
});

describe('mermaidNotation ER attributes written name first', () => {
  it('keeps `id int PK` as the author wrote it: Mermaid reads `id` as the type but prints the words in that order', async () => {
    // A schema sketch in a project's docs writes its columns as SQL does, name before type.
    const graph = await mermaidNotation.toGraph('erDiagram\n  USERS {\n    id int PK\n    email varchar(255)\n    created_at timestamp\n    string name\n  }');
    expect(graph.nodes[0]!.rows).toEqual(['PK    id  int', '      email  varchar(255)', '      created_at  timestamp', '      name  string']);
  });
});

describe('mermaidNotation bold and italic in flowchart labels', () => {
  it('keeps the words of `<b>`, `<i>`, `<strong>`, `<em>` and markdown emphasis, draws a label emphasised whole so, and says a part\'s emphasis is drawn plain', async () => {
    // A service map in a project's README bolds each box's name over an italic version line, as Mermaid draws HTML labels.
    const graph = await mermaidNotation.toGraph(
      'flowchart LR\n  A["<b>Order</b> service<br><i>v2</i>"] -->|<em>calls</em>| B[<strong>Billing</strong>]\n  C["`**Stock** _reserve_`"]\n  D["plain * not emphasis"]\n  B --> D',
    );
    expect(graph.nodes.map((n) => n.label)).toEqual(['Order service\nv2', 'Billing', 'Stock reserve', 'plain * not emphasis']);
    expect(graph.edges[0]!.label).toBe('calls');
    expect(graph.warnings).toEqual(['bold and italic drawn as plain text in 3 labels ("A", "C", "A" → "B")']);
    expect(graph.nodes.find((n) => n.id === 'B')!.style).toMatchObject({ fontWeight: 'bold' });
  });

  it('draws a label emphasised as a whole in bold or italic, in HTML or a markdown string (a gateway named in bold)', async () => {
    const graph = await mermaidNotation.toGraph('flowchart LR\n  a["`**Gateway**`"] --> b["<b><i>Worker</i></b>"] --> c["`_queue_`"] --> d["`mixed **bold** part`"]');
    const emphasis = (id: string) => {
      const style = graph.nodes.find((n) => n.id === id)!.style;
      return [style?.fontWeight, style?.fontStyle];
    };
    expect(['a', 'b', 'c', 'd'].map(emphasis)).toEqual([['bold', undefined], ['bold', 'italic'], [undefined, 'italic'], [undefined, undefined]]);
    expect(graph.warnings).toEqual(['bold and italic drawn as plain text in 1 label ("d")']);
  });
});
