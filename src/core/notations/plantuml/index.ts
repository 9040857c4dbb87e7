/**
 * PlantUML (`@startuml … @enduml`) → GraphIR. The diagram kind is told from its statements, as PlantUML does, and
 * each kind has its own line-oriented reader.
 *
 * Why not a library: `plantuml-parser` (0.4.0, the one JS parser on npm) rejects three of our five real inputs (C4
 * `Deployment_Node`, a `-class` with visibility, sequence notes), returns nothing for new-syntax activity diagrams and
 * reads files through `fs` in its entry module. PlantUML's own grammar is the Java implementation's line regexes, so
 * line readers are also the faithful way to follow it.
 */
import { AppError } from '../../errors.js';
import type { GraphIR, GraphStyle, NodeKind, NotationConverter } from '../../graph/types.js';
import { dictionary } from '../../dictionary.js';
import { grayOf } from '../../layout/contrast.js';
import { activityToGraph } from './activity.js';
import { LEGACY_ACTIVITY, legacyActivityToGraph } from './activity-legacy.js';
import { CLASS_DECLARATION, classToGraph } from './class.js';
import { descriptionToGraph } from './description.js';
import { parseLink } from './links.js';
import { ganttToGraph } from './gantt.js';
import { mindmapToGraph } from './mindmap.js';
import { sequenceToGraph } from './sequence.js';
import { readDiagram, type DiagramSource, type SkinColors } from './source.js';
import { stateToGraph } from './state.js';

export type PlantumlKind = 'sequence' | 'class' | 'description' | 'activity' | 'state';

/** Statements that only one kind of diagram has. */
const MARKS: Record<PlantumlKind, RegExp[]> = {
  activity: [LEGACY_ACTIVITY, /^(start|stop);?$/i, /^(#[\w#]+)?:[^:]*[^:\s][;|<>/\]}]$/, /^if\s*\(.*\)\s*then\b/i, /^(repeat|endif|end\s*while|fork|end\s*fork|fork\s+again)\b/i, /^while\s*\(/i],
  state: [/^state\s/i, /\[\*\]/],
  sequence: [
    /^(participant|boundary|control|collections)\s/i,
    /^(activate|deactivate|autonumber|return)\b/i,
    /^(alt|opt|loop|par|par2|break|critical)\b/i,
    /^[hr]?note\s+over\b/i,
    /^box\b/i,
    /^==.*==$/,
    /^\|\|\d*\|\|\|?$/,
    // Message shortcuts only sequences have: `A -> B ++`, `A -> B !!`, a slant `->(10)`.
    /^\S+\s*<?-+>+\s*\S+\s*(\+\+|--|\*\*|!!)(\s|:|$)/,
    /-+>+\(\d+\)/,
  ],
  class: [/^<>\s/, /^\(\s*[\w.$"]+\s*,\s*[\w.$"]+\s*\)\s*[-.]/, /^(abstract\s+class|abstract|class|enum|annotation|struct|object|map)\s/i, /^entity\s.*\{$/i, /^(?:[-+#~]\s*)?class\s/i, /(<\|--|--\|>|<\|\.\.|\.\.\|>|\*--|--\*|o--|--o)/],
  // `package` is in class diagrams too (java-design-patterns' packages of classes): it tells neither kind.
  description: [
    /^(component|node|cloud|rectangle|frame|folder|artifact|storage|file|card|agent|stack|usecase|hexagon|person|archimate)\s/i,
    // `collections` is a participant and a deployment element alike: it counts for both (a tie is a sequence), so the
    // cards beside GitLab's `collections "**Sidekiq** x2"` tell a deployment diagram.
    /^collections\s/i,
    // `action build`, not `Process -> Keyring : …` (a participant of that name in a sequence).
    /^(action|process)\s+[^-<>.\s]+$/i,
    // `[Comp]`; `[*]` is a state diagram's start or end point.
    /^\[(?!\*\])[^\]]+\]/,
    // `(use case)`; `(*)` is the legacy activity start.
    /^\((?!\*)[^)]+\)/,
    /^:[^:]+:/,
    /^[A-Z]\w*\(\w+\s*,/,
  ],
};

/** `hide`/`show` of parts we draw the same either way (empty descriptions, the class circle) or apply elsewhere (the foot box, sequence.ts). */
const LOOK_ONLY = /^(hide|show)\s+(.*\s)?(footbox|circle|circled|spot|stereotypes?|empty\s+(description|members|fields|methods|attributes))$/i;

/** Tells the diagram kind from its statements; arrows only (`A -> B : hi`) is a sequence diagram, as in PlantUML. */
export function plantumlKind(source: DiagramSource): PlantumlKind {
  const score: Record<PlantumlKind, number> = { sequence: 0, class: 0, description: 0, activity: 0, state: 0 };
  // A class body's lines are members and separators (`== Section ==`, `=====`), not statements that tell the kind.
  let inBody = false;
  for (const { text } of source.lines) {
    if (inBody) {
      inBody = text !== '}';
      continue;
    }
    inBody = CLASS_DECLARATION.test(text) && text.endsWith('{');
    for (const kind of Object.keys(MARKS) as PlantumlKind[]) if (MARKS[kind].some((mark) => mark.test(text))) score[kind]++;
    if (CLASS_DECLARATION.test(text) && /^(?:[-+#~]\s*)?interface\s/i.test(text) && !/^interface\s+"[^"]*"\s+as\b/i.test(text)) score.class++;
  }
  // C4_Sequence.puml: C4's element and Rel macros (which read as a component diagram) with statements only sequences have.
  if (score.sequence > 0 && source.lines.some((line) => /^(Rel|BiRel)(_[A-Za-z]+)?\s*\(/.test(line.text))) return 'sequence';
  const ranked = (Object.keys(score) as PlantumlKind[]).filter((kind) => score[kind] > 0).sort((a, b) => score[b] - score[a]);
  if (ranked[0]) return ranked[0];
  // No telling statements: links with `--` bodies or bracketed ends read as a component diagram, `->` messages as a sequence.
  const links = source.lines.map((line) => parseLink(line.text)).filter((link) => link !== undefined);
  return links.length > 0 && links.every((link) => link.from.form === 'name' && link.to.form === 'name') ? 'sequence' : 'description';
}

/**
 * What PlantUML draws from `@startuml` besides UML graphs: timing, network (nwdiag) and wireframe (salt) diagrams,
 * and the listing commands (`listsprites`, `stdlib`, …) that draw PlantUML's own catalogue. Named as not supported,
 * as the families with their own @start line are.
 */
const OTHER_FAMILIES: ReadonlyArray<[RegExp, string]> = [
  [/^(concise|robust|clock|binary)\s/i, 'timing'],
  [/^nwdiag\s*\{/i, 'network (nwdiag)'],
  [/^salt$/i, 'wireframe (salt)'],
  [/^(listsprites?|listopeniconic|listfonts|stdlib|license|version|checkversion|help\b.*)$/i, 'listing'],
];

function refuseOtherFamilies(source: DiagramSource): void {
  const first = source.lines[0]?.text;
  const family = first === undefined ? undefined : OTHER_FAMILIES.find(([mark]) => mark.test(first))?.[1];
  if (family !== undefined) {
    throw new AppError('unsupported_notation', `PlantUML ${family} diagrams are not supported; PlantUML sequence, class, object, component, deployment, use case, activity and state diagrams are`, {
      supported: ['sequence', 'class', 'object', 'component', 'deployment', 'usecase', 'activity', 'state'],
    });
  }
}

const READERS: Record<PlantumlKind, (source: DiagramSource) => GraphIR> = {
  sequence: sequenceToGraph,
  class: classToGraph,
  description: descriptionToGraph,
  activity: activityToGraph,
  state: stateToGraph,
};

export const plantumlNotation: NotationConverter = {
  id: 'plantuml',
  detect(code) {
    // [ \t]*, not \s*: with the m flag \s* runs across every following blank line from every line start (quadratic).
    if (/^[ \t]*@start(uml|mindmap|wbs|gantt)\b/im.test(code)) return /^[ \t]*@end(uml|mindmap|wbs|gantt)\b/im.test(code) ? 0.98 : 0.85;
    return 0;
  },
  toGraph(code) {
    const read = readDiagram(code);
    if (read.family === 'gantt') return ganttToGraph(read);
    if (read.family !== undefined) return mindmapToGraph(read);
    refuseOtherFamilies(read);
    const kind = plantumlKind(read);
    // Only sequence diagrams have pages; elsewhere `newpage` is said and left out.
    const pages = kind === 'sequence' ? [] : read.lines.filter((line) => /^newpage\b/i.test(line.text));
    // Class, component and state diagrams apply hide/show/remove, sequences `hide unlinked`; activities say them.
    const unapplied = kind === 'class' || kind === 'description' || kind === 'state' ? [] : read.visibility.filter((line) => !LOOK_ONLY.test(line.text) && !(kind === 'sequence' && /^hide\s+@?unlinked$/i.test(line.text)));
    const source = {
      ...read,
      lines: read.lines.filter((line) => !pages.includes(line)),
      warnings: [
        ...read.warnings,
        ...pages.map((line) => `line ${line.line}: newpage is left out: the diagram is one page`),
        ...unapplied.map((line) => `line ${line.line}: ${line.text} is not applied here (class, component and state diagrams apply hide and remove)`),
      ],
    };
    // The legacy activity syntax (`(*) --> "A"`) has its own reader.
    const reader = kind === 'activity' && source.lines.some((line) => LEGACY_ACTIVITY.test(line.text)) ? legacyActivityToGraph : READERS[kind];
    const graph = withLegend(reader(source), source.legend);
    const colored = source.monochrome ? inMonochrome(graph) : inSkinColors(graph, source.skinColors);
    return source.title ? { ...colored, title: source.title } : colored;
  },
};

/** PlantUML's legend box: light grey, black text. */
const LEGEND_FILL = '#eeeeee';

/**
 * The author's `legend` … `end legend` (mojaloop's key to its table abbreviations): in a sequence a box under the last
 * message, centred on the middle participants as PlantUML centres it under the diagram; elsewhere the graph's legend,
 * drawn under the diagram once it is laid out. It was left out without a word.
 */
function withLegend(graph: GraphIR, legend: string | undefined): GraphIR {
  if (legend === undefined || legend === '') return graph;
  if (graph.sequence) {
    const ids = graph.nodes.map((node) => node.id);
    if (ids.length === 0) return graph;
    const middle = ids.length % 2 === 1 ? [ids[(ids.length - 1) / 2]!] : [ids[ids.length / 2 - 1]!, ids[ids.length / 2]!];
    return { ...graph, sequence: { ...graph.sequence, steps: [...graph.sequence.steps, { type: 'note', position: 'over', participants: middle, text: legend, shape: 'rectangle', fillColor: LEGEND_FILL }] } };
  }
  return { ...graph, legend };
}

/** The `skinparam` element whose colours a node of this kind takes (PlantUML's `class` covers interfaces and enums). */
const SKIN_ELEMENT: Partial<Record<NodeKind, string>> = dictionary({
  state: 'state',
  class: 'class',
  interface: 'class',
  enum: 'class',
  entity: 'class',
  action: 'activity',
  component: 'component',
  usecase: 'usecase',
  actor: 'actor',
  note: 'note',
  database: 'database',
  queue: 'queue',
  workload: 'node',
});

/**
 * The colours the author gave kinds of elements with `skinparam` (a state machine's cream states with golden borders),
 * on each element of that kind that has none of its own; arrows take `ArrowColor`.
 */
function inSkinColors(graph: GraphIR, colors: ReadonlyMap<string, SkinColors>): GraphIR {
  if (colors.size === 0) return graph;
  const styled = <T extends GraphStyle>(style: T | undefined, skin: SkinColors | undefined): T | undefined => {
    if (skin === undefined) return style;
    return {
      ...(skin.fill !== undefined && { fillColor: skin.fill }),
      ...(skin.stroke !== undefined && { strokeColor: skin.stroke }),
      // PlantUML writes the label black unless FontColor says otherwise, whatever the border.
      ...((skin.text !== undefined || skin.stroke !== undefined) && { textColor: skin.text ?? '#000000' }),
      ...style,
    } as T;
  };
  const of = (element: string | undefined) => (element === undefined ? undefined : colors.get(element));
  const arrow = colors.get('arrow');
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const style = styled(node.style, of(SKIN_ELEMENT[node.kind]));
      return style === node.style ? node : { ...node, style };
    }),
    groups: graph.groups.map((group) => {
      const style = styled(group.style, of(group.kind === 'state' || group.kind === 'package' ? group.kind : undefined));
      return style === group.style ? group : { ...group, style };
    }),
    edges: arrow?.stroke === undefined ? graph.edges : graph.edges.map((edge) => ({ ...edge, style: { strokeColor: arrow.stroke!, ...edge.style } })),
  };
}

/** Kinds drawn in solid ink whatever the skin: start and end points, fork and join bars. */
const INKED = new Set<NodeKind>(['start', 'end', 'fork']);

/**
 * `skinparam monochrome true`, as PlantUML draws it: shapes white with black borders instead of the colours of their
 * kind, and every colour the author set turned to its grey.
 */
function inMonochrome(graph: GraphIR): GraphIR {
  const grey = (color: string | undefined) => (color === undefined ? undefined : (grayOf(color) ?? color));
  const greyed = <T extends Pick<GraphStyle, 'fillColor' | 'strokeColor' | 'textColor'>>(style: T): T => ({
    ...style,
    ...(style.fillColor !== undefined && { fillColor: grey(style.fillColor) }),
    ...(style.strokeColor !== undefined && { strokeColor: grey(style.strokeColor) }),
    ...(style.textColor !== undefined && { textColor: grey(style.textColor) }),
  });
  return {
    ...graph,
    // Start and end dots and fork bars stay black, as PlantUML keeps them: whitened, a start read as an empty ring.
    nodes: graph.nodes.map((node) => (INKED.has(node.kind) && node.style === undefined ? node : { ...node, style: greyed({ fillColor: '#ffffff', strokeColor: '#1e1e1e', ...node.style }) })),
    edges: graph.edges.map((edge) => (edge.style ? { ...edge, style: greyed(edge.style) } : edge)),
    groups: graph.groups.map((group) => (group.style ? { ...group, style: greyed(group.style) } : group)),
  };
}
