/**
 * Mermaid C4 diagrams (`C4Context`, `C4Container`, `C4Component`, `C4Dynamic`, `C4Deployment`) → GraphIR. Mermaid's
 * C4 copies C4-PlantUML's macros, so its elements are drawn as our PlantUML C4 draws them (plantuml/c4.ts): persons,
 * systems, containers, databases and queues with their `[Kind: techn]` row and description, boundaries and deployment
 * nodes as nested groups, `Rel`/`BiRel` with label and technology, `Rel_U`… as the side the target goes.
 */
import type { GraphEdge, GraphGroup, GraphIR, GraphNode, GraphStyle } from '../../graph/types.js';
import { C4_ELEMENTS, c4NodeParts } from '../plantuml/c4.js';
import { TOWARD } from '../plantuml/links.js';
import { decodeMermaid } from './parser.js';
import { cssStyle } from './style.js';

interface Text {
  text?: unknown;
}
interface C4Shape {
  alias: string;
  label?: Text;
  descr?: Text;
  techn?: Text;
  /** `person`, `external_system_db`, `container_queue`, … */
  typeC4Shape: Text;
  parentBoundary?: string;
  bgColor?: string;
  fontColor?: string;
  borderColor?: string;
}
interface C4Boundary {
  alias: string;
  label?: Text;
  type?: Text;
  parentBoundary?: string;
  /** Deployment nodes only: `node`, `nodeL`, `nodeR`. */
  nodeType?: string;
  bgColor?: string;
  fontColor?: string;
  borderColor?: string;
}
interface C4Rel {
  /** `rel`, `birel`, `rel_u`, `rel_d`, `rel_l`, `rel_r`, `rel_b`. */
  type: string;
  from: string;
  to: string;
  label?: Text;
  techn?: Text;
  textColor?: string;
  lineColor?: string;
}
export interface C4Db {
  getC4ShapeArray(): C4Shape[];
  getBoundaries(): C4Boundary[];
  getRels(): C4Rel[];
  getTitle?(): string | undefined;
}

/** Mermaid keeps `$techn={…}` and the like as text; anything else is not text we draw. */
const text = (value: Text | undefined): string => (typeof value?.text === 'string' ? decodeMermaid(value.text).trim() : '');

/** `external_system_db` → `SystemDb_Ext`: the C4-PlantUML macro Mermaid's shape type stands for. */
function macroOf(type: string): string {
  const external = type.startsWith('external_');
  const base = type.replace(/^external_/, '').split('_').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
  return external ? `${base}_Ext` : base;
}

/** `UpdateElementStyle(x, $bgColor="grey", $fontColor="red", $borderColor="red")` and `UpdateRelStyle(a, b, $lineColor=…, $textColor=…)`, read as CSS. */
function styleOf(item: { bgColor?: string; fontColor?: string; borderColor?: string; lineColor?: string; textColor?: string }): GraphStyle | undefined {
  const declarations = [
    ...(item.bgColor ? [`fill:${item.bgColor}`] : []),
    ...((item.borderColor ?? item.lineColor) ? [`stroke:${item.borderColor ?? item.lineColor}`] : []),
    ...((item.fontColor ?? item.textColor) ? [`color:${item.fontColor ?? item.textColor}`] : []),
  ];
  return cssStyle(declarations);
}

/** An element or boundary with its parent boundary (Mermaid's top level is `global`) and its style over the default. */
function placed<T extends GraphNode | GraphGroup>(item: T, from: C4Shape | C4Boundary, base: GraphStyle | undefined): T {
  const style = { ...base, ...styleOf(from) };
  if (Object.keys(style).length > 0) item.style = style;
  if (from.parentBoundary && from.parentBoundary !== 'global') item.parent = from.parentBoundary;
  return item;
}

export function c4ToGraph(db: C4Db): GraphIR {
  const warnings: string[] = [];
  const groups: GraphGroup[] = [];
  const ids = new Set<string>();
  for (const boundary of db.getBoundaries()) {
    if (boundary.alias === 'global') continue;
    const type = text(boundary.type);
    const label = text(boundary.label) || boundary.alias;
    // Deployment nodes name what they run on (`Ubuntu 16.04 LTS`) in brackets on a line of their own, as Mermaid and
    // C4-PlantUML draw them: on one line, the title was as wide as its node and every edge into it crossed it.
    const deployment = boundary.nodeType !== undefined;
    const group: GraphGroup = { id: boundary.alias, label: deployment && type !== '' && type !== 'node' ? `${label}\n[${type}]` : label, kind: deployment ? 'node' : 'boundary' };
    groups.push(placed(group, boundary, deployment ? undefined : { strokeStyle: 'dashed' }));
    ids.add(boundary.alias);
  }
  const nodes: GraphNode[] = [];
  for (const shape of db.getC4ShapeArray()) {
    const macro = macroOf(text(shape.typeC4Shape));
    const element = C4_ELEMENTS[macro] ?? C4_ELEMENTS.System!;
    if (C4_ELEMENTS[macro] === undefined) warnings.push(`${shape.alias}: C4 element type "${text(shape.typeC4Shape)}" drawn as a System`);
    const parts = c4NodeParts(macro, element, { techn: text(shape.techn) || undefined, descr: text(shape.descr) || undefined });
    const node: GraphNode = { id: shape.alias, label: text(shape.label) || shape.alias, kind: element.kind, ...parts };
    if (element.shape) node.shape = element.shape;
    nodes.push(placed(node, shape, parts.style));
    ids.add(shape.alias);
  }
  const edges: GraphEdge[] = [];
  for (const rel of db.getRels()) {
    if (!ids.has(rel.from) || !ids.has(rel.to)) {
      warnings.push(`Rel(${rel.from}, ${rel.to}) names an element the diagram does not declare: left out`);
      continue;
    }
    const back = rel.type === 'rel_b';
    const edge: GraphEdge = { id: `e${edges.length + 1}`, from: back ? rel.to : rel.from, to: back ? rel.from : rel.to, startArrowhead: rel.type === 'birel' ? 'arrow' : 'none', endArrowhead: 'arrow' };
    const techn = text(rel.techn);
    const label = [text(rel.label), techn ? `[${techn}]` : undefined].filter(Boolean).join('\n');
    if (label !== '') edge.label = label;
    const toward = /^rel_([udlr])$/.exec(rel.type)?.[1];
    if (toward !== undefined) edge.toward = TOWARD[toward]!;
    const style = styleOf({ ...(rel.lineColor && { lineColor: rel.lineColor }), ...(rel.textColor && { textColor: rel.textColor }) });
    if (style !== undefined) edge.style = style;
    edges.push(edge);
  }
  const title = db.getTitle?.();
  return { layout: 'layered', direction: 'DOWN', nodes, edges, groups, warnings, ...(title && { title: decodeMermaid(title) }) };
}
