/**
 * Mermaid flowcharts (`flowchart`/`graph`) → GraphIR: vertices with their shapes, links with their ends, bodies and
 * labels, subgraphs as nested groups, `style`/`classDef`/`linkStyle` colours.
 */
import type { Arrowhead, Direction, GraphEdge, GraphGroup, GraphIR, GraphNode, GraphStyle, NodeKind } from '../../graph/types.js';
import { wholeEmphasis } from '../emphasis.js';
import { decodeMermaid, withoutEmphasis } from './parser.js';
import { cssStyle } from './style.js';
import type { ThemeDeclarations } from './theme.js';
import { dictionary } from '../../dictionary.js';

interface Vertex {
  id: string;
  text?: string;
  type?: string;
  styles?: string[];
  classes?: string[];
  icon?: string;
  labelType?: string;
}
interface Link {
  start: string;
  end: string;
  type?: string;
  stroke?: 'normal' | 'thick' | 'dotted' | 'invisible';
  text?: string;
  style?: string[];
}
interface Subgraph {
  id: string;
  nodes: string[];
  title: string;
  classes?: string[];
  /** Its `direction` statement, as written (TB, TD, BT, LR, RL). */
  dir?: string;
}
export interface FlowDb {
  getVertices(): Map<string, Vertex>;
  /** The links in order; `linkStyle default` is kept on the list itself. */
  getEdges(): Link[] & { defaultStyle?: string[] };
  getSubGraphs(): Subgraph[];
  getClasses(): Map<string, { styles?: string[] }>;
  getDirection(): string | undefined;
}

export const MERMAID_DIRECTIONS: Record<string, Direction> = dictionary({ TB: 'DOWN', TD: 'DOWN', BT: 'UP', LR: 'RIGHT', RL: 'LEFT' });

/** Mermaid shape (bracket form or `@{ shape }` name) → our outline; `approximate` when ours only resembles it. */
export interface MappedShape {
  shape: string;
  kind?: NodeKind;
  corner?: 'rounded';
  approximate?: true;
}
export const SHAPES: Record<string, MappedShape> = dictionary({
  square: { shape: 'rectangle' },
  rect: { shape: 'rectangle' },
  round: { shape: 'rectangle', corner: 'rounded' },
  rounded: { shape: 'rectangle', corner: 'rounded' },
  stadium: { shape: 'terminator' },
  subroutine: { shape: 'rectangle', approximate: true },
  cylinder: { shape: 'cylinder', kind: 'database' },
  cyl: { shape: 'cylinder', kind: 'database' },
  'h-cyl': { shape: 'horizontal-cylinder', kind: 'queue' },
  circle: { shape: 'ellipse' },
  doublecircle: { shape: 'ellipse', approximate: true },
  ellipse: { shape: 'ellipse' },
  diamond: { shape: 'diamond', kind: 'decision' },
  diam: { shape: 'diamond', kind: 'decision' },
  hexagon: { shape: 'hexagon' },
  hex: { shape: 'hexagon' },
  lean_right: { shape: 'parallelogram' },
  'lean-r': { shape: 'parallelogram' },
  lean_left: { shape: 'parallelogram', approximate: true },
  trapezoid: { shape: 'trapezoid' },
  'trap-b': { shape: 'trapezoid' },
  inv_trapezoid: { shape: 'trapezoid', approximate: true },
  odd: { shape: 'arrow-right', approximate: true },
  doc: { shape: 'document' },
  cloud: { shape: 'cloud' },
  'sl-rect': { shape: 'manual-input' },
  'curv-trap': { shape: 'display' },
  'bow-rect': { shape: 'data-storage' },
  'st-rect': { shape: 'stacked' },
  processes: { shape: 'stacked' },
  procs: { shape: 'stacked' },
  'stacked-rectangle': { shape: 'stacked' },
  tri: { shape: 'triangle' },
  text: { shape: 'text' },
});
export const BOX: MappedShape = { shape: 'rectangle', approximate: true };

/** Link end → arrowhead: `-->` arrow, `--o` circle, `--x` cross (our bar), `---` none. */
const HEADS: Record<string, Arrowhead> = dictionary({ point: 'arrow', circle: 'circle', cross: 'bar', open: 'none' });

function ends(type = 'arrow_point'): { startArrowhead: Arrowhead; endArrowhead: Arrowhead } {
  const double = type.startsWith('double_');
  const head = HEADS[type.replace(/^(double_)?arrow_/, '')] ?? 'arrow';
  return { startArrowhead: double ? head : 'none', endArrowhead: head };
}

/**
 * The flow Mermaid lays each subgraph out in (its dagre renderer, mermaid-graphlib's extractor): a subgraph that no link
 * crosses, in or out, is laid out on its own, in its `direction` or, without one, across the flow around it (TB
 * becomes LR, any other TB); a subgraph a link crosses follows the flow around it, whatever `direction` it names.
 * Links to the subgraph itself do not cross it. Returns the subgraphs whose flow differs from the one around them.
 */
function subgraphFlows(subgraphs: readonly Subgraph[], parents: ReadonlyMap<string, string>, links: readonly Link[], diagram: string): Map<string, string> {
  const within = (id: string, group: string): boolean => {
    for (let up = parents.get(id); up !== undefined; up = parents.get(up)) if (up === group) return true;
    return false;
  };
  const byId = new Map(subgraphs.map((subgraph) => [subgraph.id, subgraph]));
  const flows = new Map<string, string>();
  const flowOf = (id: string | undefined): string => {
    if (id === undefined || !byId.has(id)) return diagram;
    const known = flows.get(id);
    if (known !== undefined) return known;
    const subgraph = byId.get(id)!;
    const around = flowOf(parents.get(id));
    const crossed = links.some((link) => within(link.start, id) !== within(link.end, id));
    const own = crossed || subgraph.nodes.length === 0 ? around : normalDirection(subgraph.dir) ?? (around === 'TB' ? 'LR' : 'TB');
    flows.set(id, own);
    return own;
  };
  const changed = new Map<string, string>();
  for (const subgraph of subgraphs) if (flowOf(subgraph.id) !== flowOf(parents.get(subgraph.id))) changed.set(subgraph.id, flowOf(subgraph.id));
  return changed;
}

/** Mermaid writes top-down as TB or TD; its layout compares with TB. */
const normalDirection = (dir: string | undefined): string | undefined => (dir === undefined || dir.trim() === '' ? undefined : dir.trim() === 'TD' ? 'TB' : dir.trim());

/** A Font Awesome icon written in a label (`fa:fa-user Researcher`, `fab:fa-github`): Mermaid draws the icon, not the words. */
const FONT_AWESOME = /\bfa[bklrs]?:fa-([\w-]+)\s*/g;

/** The first Font Awesome icon named in a label, as a hint for our catalog (`fa:fa-user` → `user`). */
const fontAwesomeHint = (text: string): string | undefined => [...text.matchAll(FONT_AWESOME)][0]?.[1]?.replace(/-/g, ' ');

/**
 * Markdown strings (`"`**bold**`"`) keep their words; emphasis has no place in our labels. A written `\n` breaks the
 * line in a flowchart's labels, as `<br>` does (Mermaid's sequence and state diagrams print it as it stands).
 */
const labelOf = (text: string, labelType?: string) => {
  const decoded = decodeMermaid(text.replace(/\\n/g, '<br>').replace(FONT_AWESOME, '').trim());
  return labelType === 'markdown' ? withoutEmphasis(decoded) : decoded;
};

/** Mermaid draws `<b>`, `<strong>`, `<i>`, `<em>` and a markdown string's emphasis; our labels keep only the words. */
const EMPHASIS_TAG = /<(?:b|strong|i|em)(?:\s[^<>]*)?>/i;
const emphasised = (text: string, labelType?: string): boolean => EMPHASIS_TAG.test(text) || (labelType === 'markdown' && withoutEmphasis(text) !== text);

export function flowchartToGraph(db: FlowDb, theme: ThemeDeclarations = { node: [], cluster: [], link: [] }): GraphIR {
  const warnings: string[] = [];
  const subgraphs = db.getSubGraphs();
  const groupIds = new Set(subgraphs.map((s) => s.id));
  const classes = db.getClasses();
  const parents = new Map<string, string>();
  // Mermaid lists subgraphs innermost first, each with its direct members: the first one to claim an id is its parent.
  for (const subgraph of subgraphs) for (const member of subgraph.nodes) if (member !== subgraph.id && !parents.has(member)) parents.set(member, subgraph.id);

  const plain: string[] = [];
  const approximated = new Map<string, string[]>();
  const nodes: GraphNode[] = [];
  for (const vertex of db.getVertices().values()) {
    // An edge to a subgraph makes Mermaid record a vertex of the same id; it is the subgraph.
    if (groupIds.has(vertex.id)) continue;
    const mapped = SHAPES[vertex.type ?? 'square'] ?? BOX;
    if (mapped.approximate) approximated.set(vertex.type ?? 'square', [...(approximated.get(vertex.type ?? 'square') ?? []), vertex.id]);
    const node: GraphNode = { id: vertex.id, label: labelOf(vertex.text ?? vertex.id, vertex.labelType), kind: mapped.kind ?? 'generic', shape: mapped.shape };
    // A label emphasised as a whole is drawn so; one emphasised in part is said to be drawn plain.
    const emphasis = wholeEmphasis(vertex.text ?? '', vertex.labelType === 'markdown' ? ['markdown', 'html'] : ['html']);
    if (Object.keys(emphasis).length === 0 && emphasised(vertex.text ?? '', vertex.labelType)) plain.push(JSON.stringify(vertex.id));
    // Mermaid styles every node with the `default` and `node` classDefs first, then its own classes, then `style`.
    const declarations = [...theme.node, ...['default', 'node', ...(vertex.classes ?? [])].flatMap((name) => classes.get(name)?.styles ?? []), ...(vertex.styles ?? [])];
    const style: GraphStyle = { ...cssStyle(declarations), ...(mapped.corner ? { corner: mapped.corner } : {}), ...emphasis };
    if (Object.keys(style).length > 0) node.style = style;
    // `A@{ icon: "logos:aws-lambda" }`: the icon's name is a hint for our catalog.
    const iconHint = vertex.icon ? vertex.icon.split(':').pop()!.replace(/[-_]/g, ' ') : fontAwesomeHint(vertex.text ?? '');
    if (iconHint !== undefined) node.iconHint = iconHint;
    const parent = parents.get(vertex.id);
    if (parent !== undefined) node.parent = parent;
    nodes.push(node);
  }
  for (const [shape, ids] of approximated) warnings.push(`Mermaid ${shape} shape drawn as ${(SHAPES[shape] ?? BOX).shape} (${ids.map((id) => JSON.stringify(id)).join(', ')})`);

  const vertices = db.getVertices();
  const flows = subgraphFlows(subgraphs, parents, db.getEdges(), normalDirection(db.getDirection()) ?? 'TB');
  const groups: GraphGroup[] = subgraphs.map((subgraph) => {
    const group: GraphGroup = { id: subgraph.id, label: labelOf(subgraph.title ?? '') };
    if (emphasised(subgraph.title ?? '')) plain.push(JSON.stringify(subgraph.id));
    const flow = MERMAID_DIRECTIONS[flows.get(subgraph.id) ?? ''];
    if (flow !== undefined) group.direction = flow;
    // `style one fill:…` records its declarations on a vertex of the subgraph's id; `class one dark` on the subgraph.
    const style = cssStyle([...theme.cluster, ...(subgraph.classes ?? []).flatMap((name) => classes.get(name)?.styles ?? []), ...(vertices.get(subgraph.id)?.styles ?? [])]);
    if (style) group.style = style;
    const parent = parents.get(subgraph.id);
    if (parent !== undefined) group.parent = parent;
    return group;
  });

  const edges: GraphEdge[] = [];
  let crossed = 0;
  const links = db.getEdges();
  for (const link of links) {
    // `~~~` places its ends as a link would, drawn as nothing: a row of subgraph members in the author's order.
    if (link.stroke === 'invisible') {
      edges.push({ id: `e${edges.length + 1}`, from: link.start, to: link.end, startArrowhead: 'none', endArrowhead: 'none', hidden: true });
      continue;
    }
    const edge: GraphEdge = { id: `e${edges.length + 1}`, from: link.start, to: link.end, ...ends(link.type) };
    if (link.type?.includes('cross')) crossed++;
    const label = labelOf(link.text ?? '');
    if (label !== '') edge.label = label;
    if (emphasised(link.text ?? '')) plain.push(`${JSON.stringify(link.start)} → ${JSON.stringify(link.end)}`);
    // `linkStyle default` comes first, a link's own `linkStyle` after it, as Mermaid applies them.
    const { strokeColor, strokeWidth, strokeStyle } = cssStyle([...theme.link, ...(links.defaultStyle ?? []), ...(link.style ?? [])]) ?? {};
    const style: GraphEdge['style'] = {
      ...(link.stroke === 'dotted' ? { strokeStyle: strokeStyle ?? 'dashed' } : {}),
      ...(link.stroke === 'thick' ? { strokeWidth: Math.max(4, strokeWidth ?? 4) } : strokeWidth !== undefined ? { strokeWidth } : {}),
      ...(strokeColor !== undefined ? { strokeColor } : {}),
    };
    if (Object.keys(style).length > 0) edge.style = style;
    edges.push(edge);
  }
  if (plain.length > 0) warnings.push(`bold and italic drawn as plain text in ${plain.length} label${plain.length === 1 ? '' : 's'} (${plain.join(', ')})`);
  if (crossed > 0) warnings.push(`${crossed} cross head${crossed === 1 ? '' : 's'} (--x) drawn as ${crossed === 1 ? 'a bar' : 'bars'}`);
  return { layout: 'layered', direction: MERMAID_DIRECTIONS[db.getDirection() ?? 'TB'] ?? 'DOWN', nodes, edges, groups, warnings };
}
