/**
 * Mermaid `classDiagram` → GraphIR: classes with their members and methods as rows, `<<interface>>`-style
 * annotations as the kind and a «mark» row, namespaces as groups, notes as notes tied by a dashed line, and relations
 * with their UML ends: inheritance and realisation a hollow triangle, composition a filled diamond, aggregation a
 * hollow one, dependency/association an open arrow, multiplicities as end labels.
 */
import type { Arrowhead, GraphEdge, GraphGroup, GraphIR, GraphNode, NodeKind } from '../../graph/types.js';
import { MERMAID_DIRECTIONS } from './flowchart.js';
import { decodeMermaid } from './parser.js';
import { cssStyle } from './style.js';
import { dictionary } from '../../dictionary.js';

interface Member {
  text?: string;
}
interface ClassNode {
  id: string;
  label?: string;
  type?: string;
  parent?: string;
  annotations?: string[];
  members?: Member[];
  methods?: Member[];
  /** `style` declarations and those of its `classDef` classes (`:::warm`, `cssClass`), as Mermaid compiles them. */
  styles?: string[];
}
interface Relation {
  id1: string;
  id2: string;
  title?: string;
  relationTitle1?: string;
  relationTitle2?: string;
  relation: { type1: number | 'none'; type2: number | 'none'; lineType: number };
}
export interface ClassDb {
  getClasses(): Map<string, ClassNode>;
  getRelations(): Relation[];
  getNamespaces?(): Map<string, { id: string; label?: string; parent?: string }>;
  getNotes?(): Map<string, { id: string; class?: string; text: string }> | Array<{ id: string; class?: string; text: string }>;
  getDirection?(): string | undefined;
  relationType: Record<string, number>;
  lineType: Record<string, number>;
}

const KINDS: Record<string, NodeKind> = dictionary({ interface: 'interface', enumeration: 'enum', enum: 'enum', abstract: 'class' });

/** Mermaid marks members that start with a visibility sign with a backslash (`\+int age`). */
const memberRow = (member: Member) => decodeMermaid(member.text ?? '').replace(/^\\/, '');

export function classToGraph(db: ClassDb): GraphIR {
  const warnings: string[] = [];
  const heads: Record<number, Arrowhead> = {
    [db.relationType.EXTENSION!]: 'triangle-outline',
    [db.relationType.COMPOSITION!]: 'diamond',
    [db.relationType.AGGREGATION!]: 'diamond-outline',
    [db.relationType.DEPENDENCY!]: 'arrow',
    [db.relationType.LOLLIPOP!]: 'circle',
  };
  const head = (type: number | 'none'): Arrowhead => (type === 'none' ? 'none' : (heads[type] ?? 'arrow'));

  const groups: GraphGroup[] = [...(db.getNamespaces?.().values() ?? [])].map((ns) => {
    const group: GraphGroup = { id: ns.id, label: decodeMermaid(ns.label ?? ns.id), kind: 'package' };
    if (ns.parent !== undefined) group.parent = ns.parent;
    return group;
  });
  const nodes: GraphNode[] = [];
  for (const cls of db.getClasses().values()) {
    const attributes = (cls.members ?? []).map(memberRow).filter((row) => row !== '');
    const operations = (cls.methods ?? []).map(memberRow).filter((row) => row !== '');
    // An exported class keeps its «mark» as its first member row: read back as the annotation it was.
    const marks = [...(cls.annotations ?? [])];
    while (attributes.length > 0 && /^«[^«»]+»$/.test(attributes[0]!)) marks.push(attributes.shift()!.slice(1, -1));
    const rows = [...attributes, ...operations];
    const generic = cls.type ? `<${decodeMermaid(cls.type).replace(/~/g, '')}>` : '';
    const node: GraphNode = { id: cls.id, label: `${decodeMermaid(cls.label ?? cls.id)}${generic}`, kind: KINDS[marks[0]?.toLowerCase() ?? ''] ?? 'class', shape: 'rectangle' };
    const allRows = [...(marks.length > 0 ? [marks.map((mark) => `«${mark}»`).join(' ')] : []), ...rows];
    // Rows even when there are none: a class written as its name alone is drawn as a class box all the same.
    node.rows = allRows;
    // Mermaid draws operations in a compartment under the attributes, as UML does.
    if (attributes.length > 0 && operations.length > 0) node.compartments = [allRows.length - operations.length];
    // Its name in bold, as Mermaid (and UML) set a class's name over its members.
    node.style = { ...cssStyle(cls.styles ?? []), fontWeight: 'bold' };
    if (cls.parent !== undefined) node.parent = cls.parent;
    nodes.push(node);
  }
  const known = new Set(nodes.map((n) => n.id));
  const edges: GraphEdge[] = [];
  let lollipops = 0;
  for (const relation of db.getRelations()) {
    if (!known.has(relation.id1) || !known.has(relation.id2)) {
      lollipops++;
      continue;
    }
    const edge: GraphEdge = { id: `e${edges.length + 1}`, from: relation.id1, to: relation.id2, startArrowhead: head(relation.relation.type1), endArrowhead: head(relation.relation.type2) };
    if (relation.relation.lineType === db.lineType.DOTTED_LINE) edge.style = { strokeStyle: 'dashed' };
    const label = decodeMermaid(relation.title ?? '').trim();
    if (label !== '') edge.label = label;
    if (relation.relationTitle1 && relation.relationTitle1 !== 'none') edge.startLabel = decodeMermaid(relation.relationTitle1);
    if (relation.relationTitle2 && relation.relationTitle2 !== 'none') edge.endLabel = decodeMermaid(relation.relationTitle2);
    edges.push(edge);
  }
  if (lollipops > 0) warnings.push(`${lollipops} lollipop interface relation${lollipops === 1 ? '' : 's'} (()--) left out`);
  const notes = db.getNotes?.();
  for (const note of notes === undefined ? [] : notes instanceof Map ? notes.values() : notes) {
    const id = `note-${note.id}`;
    nodes.push({ id, label: decodeMermaid(note.text), kind: 'note' });
    if (note.class !== undefined && known.has(note.class)) {
      edges.push({ id: `e${edges.length + 1}`, from: id, to: note.class, startArrowhead: 'none', endArrowhead: 'none', style: { strokeStyle: 'dashed' } });
    }
  }
  return { layout: 'layered', direction: MERMAID_DIRECTIONS[db.getDirection?.() ?? 'TB'] ?? 'DOWN', nodes, edges, groups, warnings };
}
