/** UML class scenes → Mermaid `classDiagram`: classes with members, relations with their UML ends and multiplicities. */
import type { Arrowhead } from '../graph/types.js';
import type { RecoveredGraph } from './graph-recovery.js';
import type { Losses } from './losses.js';
import type { CodeExport } from './mermaid.js';
import { MEMBER_SYNTAX, MERMAID_DIRECTION, mermaidString, mermaidText } from './mermaid-syntax.js';

/** Relation end markers at the left (start) and right (end) of the line. */
const MARKER: Record<Arrowhead, { left: string; right: string; exact: boolean }> = {
  none: { left: '', right: '', exact: true },
  'triangle-outline': { left: '<|', right: '|>', exact: true },
  diamond: { left: '*', right: '*', exact: true },
  'diamond-outline': { left: 'o', right: 'o', exact: true },
  arrow: { left: '<', right: '>', exact: true },
  triangle: { left: '<|', right: '|>', exact: false },
  circle: { left: '()', right: '()', exact: false },
  bar: { left: '<', right: '>', exact: false },
  'crows-foot': { left: '<', right: '>', exact: false },
  'crows-foot-bar': { left: '<', right: '>', exact: false },
  'double-bar': { left: '<', right: '>', exact: false },
  'circle-bar': { left: '<', right: '>', exact: false },
  'circle-crows-foot': { left: '<', right: '>', exact: false },
};

/** A member line; a leading visibility mark (+ - # ~) stays as written, the rest is escaped. */
function member(row: string): string {
  const visibility = /^[+\-#~]/.test(row) ? row[0]! : '';
  return `${visibility}${mermaidText(row.slice(visibility.length), ' ', MEMBER_SYNTAX)}`;
}

export function classDiagram(graph: RecoveredGraph, ids: Map<string, string>, losses: Losses): CodeExport {
  const lines = ['classDiagram', `  direction ${MERMAID_DIRECTION[graph.direction]}`];
  const id = (sceneId: string) => ids.get(sceneId)!;
  for (const node of graph.nodes) {
    const rows = (node.rows ?? []).filter((row) => row.trim() !== '');
    const head = `  class ${id(node.id)}[${mermaidString(node.label)}]`;
    if (rows.length === 0) lines.push(head);
    else lines.push(`${head} {`, ...rows.map((row) => `    ${member(row.trim())}`), '  }');
    // The scene has no classes: a shape is read as one from the text under its label (table-rows.ts).
    if (rows.length > 0) losses.add('read as a UML class from the text under its label', node.id);
  }
  for (const edge of graph.edges) {
    const start = MARKER[edge.startArrowhead];
    const end = MARKER[edge.endArrowhead];
    if (!start.exact) losses.add(`class diagrams have no ${edge.startArrowhead} end; written as ${start.left}`, edge.id);
    if (!end.exact) losses.add(`class diagrams have no ${edge.endArrowhead} end; written as ${end.right}`, edge.id);
    const line = edge.style.strokeStyle === 'solid' ? '--' : '..';
    if (edge.style.strokeStyle === 'dotted') losses.add('dotted line drawn dashed (class diagram lines are solid or dashed)', edge.id);
    const multiplicity = (text: string | undefined) => (text !== undefined && text !== '' ? ` ${mermaidString(text)}` : '');
    const label = edge.label !== undefined && edge.label !== '' ? ` : ${mermaidText(edge.label, ' ')}` : '';
    lines.push(`  ${id(edge.from)}${multiplicity(edge.startLabel)} ${start.left}${line}${end.right}${multiplicity(edge.endLabel)} ${id(edge.to)}${label}`);
  }
  return { code: `${lines.join('\n')}\n`, warnings: [] };
}
