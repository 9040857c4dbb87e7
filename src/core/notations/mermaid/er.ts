/**
 * Mermaid `erDiagram` → GraphIR, drawn as SQL tables are: entities as tables whose rows are their attributes (`PK FK
 * name  type`), relationships with crow's-foot ends and cardinality labels, solid when identifying, dashed when not.
 */
import type { Arrowhead, GraphEdge, GraphIR, GraphNode } from '../../graph/types.js';
import { MERMAID_DIRECTIONS } from './flowchart.js';
import { decodeMermaid } from './parser.js';
import { dictionary } from '../../dictionary.js';

interface Attribute {
  type: string;
  name: string;
  keys?: string[];
  comment?: string;
}
interface Entity {
  id: string;
  label?: string;
  alias?: string;
  attributes?: Attribute[];
}
interface Relationship {
  entityA: string;
  entityB: string;
  roleA?: string;
  relSpec: { cardA: string; cardB: string; relType: string };
}
export interface ErDb {
  getEntities(): Map<string, Entity>;
  getRelationships(): Relationship[];
  getDirection?(): string | undefined;
}

/** Mermaid cardinality → crow's-foot end and the label written beside it. */
const CARDINALITY: Record<string, { head: Arrowhead; label: string }> = dictionary({
  ZERO_OR_ONE: { head: 'circle-bar', label: '0..1' },
  ONLY_ONE: { head: 'double-bar', label: '1' },
  ZERO_OR_MORE: { head: 'circle-crows-foot', label: '0..*' },
  ONE_OR_MORE: { head: 'crows-foot-bar', label: '1..*' },
  MD_PARENT: { head: 'bar', label: '1' },
});

/**
 * A word that names a data type (SQL's and programming languages' common ones, sized or as an array: `varchar(255)`,
 * `int[]`). Mermaid reads an attribute's first word as its type, but authors who write SQL put the name first
 * (`id int PK`); Mermaid prints the words in the order written, so when only the second word is a type we read it so.
 */
const TYPE_WORD =
  /^(?:u?int\d*|integer|(?:big|small|tiny|medium)int|(?:big|small)?serial|float\d*|double|decimal|numeric|real|number|money|bool(?:ean)?|bit|byte|short|long|char|n?varchar\d*|n?text|string|str|uuid|guid|date|datetime\d*|timestamp(?:tz)?|time|interval|json|jsonb|xml|blob|bytea|binary|varbinary|enum)(?:\(\s*[\d\s,]*\))?(?:\[\])?$/i;

/**
 * A comment that is only key names (`u64 BlockNumber "PK"`): the author marked the key in the comment, Mermaid's
 * place for free text, where its key column holds PK, FK and UK. Read as keys, it sits in the key column like any other.
 */
const KEYS_COMMENT = /^(?:PK|FK|UK)(?:\s*,\s*(?:PK|FK|UK))*$/i;

/**
 * One attribute as a table row. Our export writes a row Mermaid's words cannot hold verbatim as the attribute's
 * comment; a comment that names the attribute is that row, read back as it was. `keysFromComment` is true when the
 * comment was read as the row's keys.
 */
function attributeRow(attribute: Attribute): { row: string; keysFromComment: boolean } {
  const nameFirst = TYPE_WORD.test(attribute.name) && !TYPE_WORD.test(attribute.type);
  const name = decodeMermaid(nameFirst ? attribute.type : attribute.name);
  const type = decodeMermaid(nameFirst ? attribute.name : attribute.type);
  let comment = attribute.comment === undefined ? '' : decodeMermaid(attribute.comment).trim();
  if (comment !== '' && comment.includes(name.replace(/^_/, ''))) return { row: comment, keysFromComment: false };
  const keys = (attribute.keys ?? []).map((key) => key.toUpperCase());
  const keysFromComment = KEYS_COMMENT.test(comment);
  if (keysFromComment) {
    keys.push(...comment.split(',').map((key) => key.trim().toUpperCase()));
    comment = '';
  }
  const row = `${[...new Set(keys)].join(' ').padEnd(5)} ${name}  ${type}`.trimEnd();
  return { row: comment === '' ? row : `${row}  "${comment}"`, keysFromComment };
}

export function erToGraph(db: ErDb): GraphIR {
  const byEntityId = new Map<string, string>();
  const nodes: GraphNode[] = [];
  let keyComments = 0;
  for (const [name, entity] of db.getEntities()) {
    byEntityId.set(entity.id, name);
    const node: GraphNode = { id: name, label: decodeMermaid(entity.alias || entity.label || name), kind: 'entity', shape: 'rectangle' };
    const rows = (entity.attributes ?? []).map(attributeRow);
    keyComments += rows.filter((row) => row.keysFromComment).length;
    if (rows.length > 0) node.rows = rows.map((row) => row.row);
    nodes.push(node);
  }
  const warnings = keyComments === 0 ? [] : [`${keyComments} attribute comment(s) that only name keys ("PK", "FK", "UK") drawn as the rows' keys`];
  const edges: GraphEdge[] = db.getRelationships().map((relationship, index) => {
    // Mermaid names the cardinality by the entity it sits beside: cardB beside entityA, cardA beside entityB.
    const start = CARDINALITY[relationship.relSpec.cardB] ?? CARDINALITY.ONLY_ONE!;
    const end = CARDINALITY[relationship.relSpec.cardA] ?? CARDINALITY.ONLY_ONE!;
    const edge: GraphEdge = {
      id: `e${index + 1}`,
      from: byEntityId.get(relationship.entityA) ?? relationship.entityA,
      to: byEntityId.get(relationship.entityB) ?? relationship.entityB,
      startArrowhead: start.head,
      endArrowhead: end.head,
      startLabel: start.label,
      endLabel: end.label,
    };
    if (relationship.relSpec.relType !== 'IDENTIFYING') edge.style = { strokeStyle: 'dashed' };
    const label = decodeMermaid(relationship.roleA ?? '').trim();
    if (label !== '') edge.label = label;
    return edge;
  });
  return { layout: 'layered', direction: MERMAID_DIRECTIONS[db.getDirection?.() ?? 'TB'] ?? 'DOWN', nodes, edges, groups: [], warnings };
}
