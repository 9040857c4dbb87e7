/** Entity-relationship scenes → Mermaid `erDiagram`: tables with attributes, relationships with cardinalities. */
import type { Arrowhead } from '../graph/types.js';
import type { RecoveredGraph } from './graph-recovery.js';
import type { Losses } from './losses.js';
import type { CodeExport } from './mermaid.js';
import { MERMAID_DIRECTION, mermaidString, mermaidText } from './mermaid-syntax.js';
import { columnOf } from './table-rows.js';

/** Cardinality at the left (start) and right (end) of `--`, per arrowhead. */
const CARDINALITY: Partial<Record<Arrowhead, { left: string; right: string; exact: boolean }>> = {
  'circle-bar': { left: '|o', right: 'o|', exact: true },
  'double-bar': { left: '||', right: '||', exact: true },
  bar: { left: '||', right: '||', exact: true },
  'circle-crows-foot': { left: '}o', right: 'o{', exact: true },
  'crows-foot-bar': { left: '}|', right: '|{', exact: true },
  'crows-foot': { left: '}o', right: 'o{', exact: false },
};
const EXACTLY_ONE = { left: '||', right: '||', exact: false };

export interface Attribute {
  type: string;
  name: string;
  keys: string[];
  /** The row as written, when the type or name had to be cleaned. */
  comment?: string;
}

/** Mermaid's attribute words: a letter or `_` (or `*`) first, then letters, digits and `-_()[]`. */
const word = (text: string, fallback: string) => {
  const cleaned = text.replace(/[^A-Za-z0-9_\-()[\]]/g, '_');
  return cleaned === '' ? fallback : /^[A-Za-z_*]/.test(cleaned) ? cleaned : `_${cleaned}`;
};

/** A table row as an attribute; whatever Mermaid's words cannot hold verbatim rides along as its comment. */
export function attributeOf(row: string): Attribute {
  const { name, type, keys } = columnOf(row);
  const compactType = type.replace(/\s+/g, '');
  const attribute: Attribute = { type: word(compactType, 'string'), name: word(name, 'column'), keys };
  if (attribute.name !== name || attribute.type !== compactType) attribute.comment = row.trim();
  return attribute;
}

export function erDiagram(graph: RecoveredGraph, ids: Map<string, string>, losses: Losses): CodeExport {
  const warnings: string[] = [];
  const lines = ['erDiagram', `  direction ${MERMAID_DIRECTION[graph.direction]}`];
  const id = (sceneId: string) => ids.get(sceneId)!;
  if (graph.groups.length > 0) {
    warnings.push(`erDiagram has no grouping: ${graph.groups.length} container(s) left out (${graph.groups.map((g) => JSON.stringify(g.label || g.id)).join(', ')})`);
  }
  for (const node of graph.nodes) {
    const head = `  ${id(node.id)}[${mermaidString(node.label)}]`;
    if (!node.rows?.length) {
      lines.push(head);
      continue;
    }
    // The scene has no tables: a shape is read as one from the text under its label (table-rows.ts).
    losses.add('read as an ER entity from the text under its label', node.id);
    lines.push(`${head} {`);
    for (const row of node.rows) {
      const a = attributeOf(row);
      const keys = a.keys.length > 0 ? ` ${a.keys.join(', ')}` : '';
      lines.push(`    ${a.type} ${a.name}${keys}${a.comment !== undefined ? ` "${mermaidText(a.comment, ' ')}"` : ''}`);
    }
    lines.push('  }');
  }
  for (const edge of graph.edges) {
    const start = CARDINALITY[edge.startArrowhead] ?? EXACTLY_ONE;
    const end = CARDINALITY[edge.endArrowhead] ?? EXACTLY_ONE;
    for (const [head, mapped] of [
      [edge.startArrowhead, start],
      [edge.endArrowhead, end],
    ] as const) {
      if (!mapped.exact) losses.add(`a ${head} end has no exact ER cardinality; written as ${mapped === EXACTLY_ONE ? 'exactly one' : 'zero or more'}`, edge.id);
    }
    // ER relationships are identifying (solid) or not (dashed).
    const line = edge.style.strokeStyle === 'solid' ? '--' : '..';
    if (edge.style.strokeStyle === 'dotted') losses.add('dotted line drawn dashed (erDiagram lines are solid or dashed)', edge.id);
    lines.push(`  ${id(edge.from)} ${start.left}${line}${end.right} ${id(edge.to)} : ${mermaidString(edge.label ?? '')}`);
  }
  return { code: `${lines.join('\n')}\n`, warnings };
}
