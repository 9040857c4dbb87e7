/**
 * Recovered graph → Mermaid.
 *
 * Which diagram (the rule; checked in this order):
 * 1. `erDiagram` when at least one edge carries a crow's foot (crows-foot, crows-foot-bar, circle-crows-foot), every
 *    arrowhead is an ER marker or none (bar, double-bar, circle-bar and the crow's feet), every edge joins two
 *    rectangles, and every node is a rectangle: an entity-relationship drawing. Its tables' rows become attributes
 *    and its ends cardinalities. Mermaid's erDiagram has no grouping, so containers (a SQL schema) are dropped and
 *    that is said in `warnings`.
 * 2. `classDiagram` when at least one edge carries a UML class head (triangle-outline: inheritance; diamond:
 *    composition; diamond-outline: aggregation), no edge carries a crow's foot, every node is a rectangle and the
 *    scene has no containers (Mermaid namespaces are flat and untitled, so a flowchart keeps containers better).
 *    Rows become members, end labels multiplicities.
 * 3. `flowchart` otherwise: direction from the geometry, nested subgraphs, every node shape mapped (the `@{ shape }`
 *    forms of Mermaid 11.3+ where no bracket form exists), edge styles, labels, colours through classDef/linkStyle,
 *    and `look: handDrawn` for sketchy scenes.
 */
import type { Arrowhead } from '../graph/types.js';
import { iconShapeOf, type Look, type NodeShape, type RecoveredEdge, type RecoveredGraph, type RecoveredNode } from './graph-recovery.js';
import { printedIds } from './identifiers.js';
import { Losses } from './losses.js';
import { classDiagram } from './mermaid-class.js';
import { erDiagram } from './mermaid-er.js';
import { MERMAID_DIRECTION, mermaidString, mermaidText } from './mermaid-syntax.js';
import { dictionary } from '../dictionary.js';

export type MermaidDiagram = 'flowchart' | 'erDiagram' | 'classDiagram';

export interface CodeExport {
  code: string;
  warnings: string[];
}

/** Words no printed id may be: flowchart, ER and class diagram keywords. */
export const MERMAID_KEYWORDS = new Set([
  ...['end', 'graph', 'flowchart', 'flowchart-elk', 'subgraph', 'style', 'class', 'classdef', 'click', 'linkstyle', 'direction'],
  ...['default', 'call', 'href', 'interpolate', 'tb', 'td', 'bt', 'lr', 'rl', 'acctitle', 'accdescr', 'namespace', 'note', 'cssclass'],
  ...['callback', 'link', 'erdiagram', 'classdiagram', 'one', 'zero', 'many', 'only', 'optionally', 'to', 'more', 'or', 'u', 'pk', 'fk', 'uk'],
]);

const CROWS_FEET = new Set<Arrowhead>(['crows-foot', 'crows-foot-bar', 'circle-crows-foot']);
const ER_MARKERS = new Set<Arrowhead>([...CROWS_FEET, 'bar', 'double-bar', 'circle-bar', 'none']);
const UML_HEADS = new Set<Arrowhead>(['triangle-outline', 'diamond', 'diamond-outline']);

const heads = (graph: RecoveredGraph) => graph.edges.flatMap((e) => [e.startArrowhead, e.endArrowhead]);
const joinsRectangles = (graph: RecoveredGraph) => {
  const rectangles = new Set(graph.nodes.filter((n) => n.shape === 'rectangle').map((n) => n.id));
  return graph.nodes.every((n) => rectangles.has(n.id)) && graph.edges.every((e) => rectangles.has(e.from) && rectangles.has(e.to));
};

export function mermaidDiagramOf(graph: RecoveredGraph): MermaidDiagram {
  const all = heads(graph);
  if (all.some((h) => CROWS_FEET.has(h)) && all.every((h) => ER_MARKERS.has(h)) && joinsRectangles(graph)) return 'erDiagram';
  if (all.some((h) => UML_HEADS.has(h)) && !all.some((h) => CROWS_FEET.has(h)) && graph.groups.length === 0 && joinsRectangles(graph)) return 'classDiagram';
  return 'flowchart';
}

/** Mermaid's defaults for two site-level settings a diagram cannot raise; past them it refuses to draw. */
export const MERMAID_LIMITS = { maxEdges: 500, maxTextSize: 50_000 } as const;

export function toMermaid(graph: RecoveredGraph): CodeExport & { diagram: MermaidDiagram } {
  const diagram = mermaidDiagramOf(graph);
  const ids = printedIds([...graph.groups.map((g) => g.id), ...graph.nodes.map((n) => n.id)], MERMAID_KEYWORDS);
  const losses = new Losses();
  // What no Mermaid diagram draws, whichever is chosen.
  for (const item of [...graph.nodes, ...graph.groups]) {
    if (item.iconRef !== undefined) losses.add('icon not carried to Mermaid (the D2 export keeps icons)', item.id);
    if (item.style.fillColor !== 'transparent' && item.look.fillStyle !== 'solid') losses.add(`${item.look.fillStyle} fill not carried (Mermaid has no fill patterns)`, item.id);
    if (item.style.corner === 'beveled') losses.add('beveled corners not carried (Mermaid has no bevel)', item.id);
  }
  for (const item of [...graph.nodes, ...graph.groups, ...graph.edges]) if (item.look.shadow) losses.add('shadow left out (Mermaid has no shadows)', item.id);
  const write = diagram === 'erDiagram' ? erDiagram : diagram === 'classDiagram' ? classDiagram : flowchart;
  const out = write(graph, ids, losses);
  const warnings = [...graph.warnings, ...out.warnings, ...losses.lines()];
  if (graph.edges.length > MERMAID_LIMITS.maxEdges || out.code.length > MERMAID_LIMITS.maxTextSize) {
    warnings.push(
      `${graph.edges.length} edges and ${out.code.length} characters: Mermaid draws at most ${MERMAID_LIMITS.maxEdges} edges and ${MERMAID_LIMITS.maxTextSize} characters unless the site raises its maxEdges and maxTextSize settings`,
    );
  }
  return { diagram, code: `${frontMatter(graph, diagram)}${out.code}`, warnings };
}

/** Mermaid's front matter: the title (any diagram type) and the hand-drawn look (flowcharts). A JSON string is valid YAML. */
function frontMatter(graph: RecoveredGraph, diagram: MermaidDiagram): string {
  const lines = [
    ...(graph.title !== undefined ? [`title: ${JSON.stringify(graph.title.replace(/\s*\n\s*/g, ' '))}`] : []),
    ...(graph.sketch && diagram === 'flowchart' ? ['config:', '  look: handDrawn'] : []),
  ];
  return lines.length === 0 ? '' : `---\n${lines.join('\n')}\n---\n`;
}

/** Classic bracket forms (understood by every Mermaid version) where they exist, else the `@{ shape }` name. */
const BRACKETS: Partial<Record<string, [string, string]>> = dictionary({
  rect: ['[', ']'],
  rounded: ['(', ')'],
  stadium: ['([', '])'],
  cyl: ['[(', ')]'],
  circle: ['((', '))'],
  diam: ['{', '}'],
  hex: ['{{', '}}'],
  'lean-r': ['[/', '/]'],
  'trap-b': ['[/', '\\]'],
});

/** Scene shape → Mermaid shape, and what is lost when there is no twin. */
const SHAPES: Record<NodeShape, { shape: string; lossy?: true }> = dictionary({
  rectangle: { shape: 'rect' },
  ellipse: { shape: 'circle' },
  diamond: { shape: 'diam' },
  triangle: { shape: 'tri' },
  'right-triangle': { shape: 'tri', lossy: true },
  parallelogram: { shape: 'lean-r' },
  trapezoid: { shape: 'trap-b' },
  star: { shape: 'rect', lossy: true },
  hexagon: { shape: 'hex' },
  heptagon: { shape: 'hex', lossy: true },
  octagon: { shape: 'hex', lossy: true },
  cross: { shape: 'rect', lossy: true },
  cloud: { shape: 'cloud' },
  cylinder: { shape: 'cyl' },
  'horizontal-cylinder': { shape: 'h-cyl' },
  'speech-bubble': { shape: 'rounded', lossy: true },
  // A flowchart has no person (only a sequence diagram's actor): the circle an actor was drawn as before.
  person: { shape: 'circle', lossy: true },
  // Nor has it an interface's lollipop or the robustness glyphs: a small circle, and a circle round the label.
  lollipop: { shape: 'sm-circ', lossy: true },
  boundary: { shape: 'circle', lossy: true },
  control: { shape: 'circle', lossy: true },
  entity: { shape: 'circle', lossy: true },
  document: { shape: 'doc' },
  'manual-input': { shape: 'sl-rect' },
  display: { shape: 'curv-trap' },
  terminator: { shape: 'stadium' },
  'data-storage': { shape: 'bow-rect' },
  preparation: { shape: 'hex' },
  'arrow-right': { shape: 'odd', lossy: true },
  'arrow-left': { shape: 'rect', lossy: true },
  'arrow-up': { shape: 'rect', lossy: true },
  'arrow-down': { shape: 'rect', lossy: true },
  // Mermaid has no chevron; its flag (`odd`) is notched on one side too.
  step: { shape: 'odd', lossy: true },
  folder: { shape: 'rect', lossy: true },
  'box-3d': { shape: 'rect', lossy: true },
  page: { shape: 'rect', lossy: true },
  stacked: { shape: 'st-rect' },
  component: { shape: 'rect', lossy: true },
  text: { shape: 'text' },
  code: { shape: 'rect', lossy: true },
  math: { shape: 'rect', lossy: true },
  image: { shape: 'rect', lossy: true },
  embed: { shape: 'rect', lossy: true },
});

function mermaidShape(node: RecoveredNode): { shape: string; lossy?: true } {
  // A queue icon is D2's queue shape, a horizontal cylinder; Mermaid has that too (person and package it has not).
  if (iconShapeOf(node) === 'queue') return { shape: 'h-cyl' };
  if (node.shape === 'rectangle' && node.style.corner === 'rounded') return { shape: 'rounded' };
  // Mermaid has circles but no ellipses: a wide ellipse reads better as a stadium.
  // Read back, a stadium is a terminator: said in warnings, as every shape without a twin.
  if (node.shape === 'ellipse' && node.box.width > 1.3 * node.box.height) return { shape: 'stadium', lossy: true };
  return SHAPES[node.shape];
}

/** Mermaid draws `<b>` and `<i>` in a flowchart label (its HTML labels), which its readers take back as emphasis. */
function emphasised(text: string, look: Look): string {
  const bold = look.fontWeight === 'bold' ? `<b>${text}</b>` : text;
  return look.fontStyle === 'italic' ? `<i>${bold}</i>` : bold;
}

function nodeStatement(node: RecoveredNode, id: string): string {
  const { shape } = mermaidShape(node);
  const text = mermaidText([node.label, ...(node.rows ?? [])].join('\n'));
  const label = text === '' ? mermaidString('') : `"${emphasised(text, node.look)}"`;
  const brackets = BRACKETS[shape];
  return brackets ? `${id}${brackets[0]}${label}${brackets[1]}` : `${id}@{ shape: ${shape}, label: ${label} }`;
}

type Head = 'arrow' | 'circle' | 'cross' | 'none';
const FLOW_HEAD: Record<Arrowhead, Head> = {
  none: 'none',
  arrow: 'arrow',
  triangle: 'arrow',
  'triangle-outline': 'arrow',
  circle: 'circle',
  diamond: 'arrow',
  'diamond-outline': 'arrow',
  bar: 'cross',
  'crows-foot': 'arrow',
  'crows-foot-bar': 'arrow',
  'double-bar': 'cross',
  'circle-bar': 'circle',
  'circle-crows-foot': 'arrow',
};
const EXACT_HEADS = new Set<Arrowhead>(['none', 'arrow', 'triangle', 'circle']);

/** `a -->|"x"| b` and its kin: Mermaid links have one body (solid, dotted, thick) and a marker at either end. */
function link(edge: RecoveredEdge): { reversed: boolean; arrow: string } {
  let start = FLOW_HEAD[edge.startArrowhead];
  let end = FLOW_HEAD[edge.endArrowhead];
  // Mermaid draws a start marker only together with an end marker; a start-only arrow is drawn the other way round.
  const reversed = start !== 'none' && end === 'none';
  if (reversed) [start, end] = [end, start];
  const open = { arrow: '<', circle: 'o', cross: 'x', none: '' }[start];
  const close = { arrow: '>', circle: 'o', cross: 'x', none: '' }[end];
  const dashed = edge.style.strokeStyle !== 'solid';
  const thick = !dashed && edge.look.strokeWidth >= 4;
  const arrow = dashed ? `${open}-.-${close}` : thick ? `${open}==${close || '='}` : `${open}--${close || '-'}`;
  return { reversed, arrow };
}

/** CSS declarations for classDef/style; Mermaid separates them with commas. */
function css(style: { fillColor?: string; strokeColor: string; strokeStyle: string }, look: RecoveredNode['look'], fontSize = true): string {
  const parts = [
    ...(style.fillColor !== undefined ? [`fill:${style.fillColor}`] : []),
    `stroke:${style.strokeColor}`,
    `stroke-width:${look.strokeWidth}px`,
  ];
  if (style.strokeStyle !== 'solid') parts.push(`stroke-dasharray:${style.strokeStyle === 'dashed' ? '8 4' : '2 4'}`);
  if (look.opacity < 100) parts.push(`opacity:${look.opacity / 100}`);
  if (fontSize && look.fontSize !== undefined) parts.push(`font-size:${look.fontSize}px`);
  return parts.join(',');
}

function flowchart(graph: RecoveredGraph, ids: Map<string, string>, losses: Losses): CodeExport {
  const warnings: string[] = [];
  const lines: string[] = [];
  lines.push(`flowchart ${MERMAID_DIRECTION[graph.direction]}`);
  const id = (sceneId: string) => ids.get(sceneId)!;

  for (const node of graph.nodes) {
    const mapped = mermaidShape(node);
    if (mapped.lossy) losses.add(`Mermaid has no ${node.shape} shape; drawn as ${mapped.shape}`, node.id);
  }
  for (const group of graph.groups) if (group.shape !== 'rectangle') losses.add(`${group.shape} container drawn as a rectangle (Mermaid subgraphs are rectangles)`, group.id);
  const childGroups = (parent: string | undefined) => graph.groups.filter((g) => g.parent === parent);
  const childNodes = (parent: string | undefined) => graph.nodes.filter((n) => n.parent === parent);
  const writeLevel = (parent: string | undefined, indent: string) => {
    for (const group of childGroups(parent)) {
      lines.push(`${indent}subgraph ${id(group.id)}[${mermaidString(group.label)}]`);
      writeLevel(group.id, `${indent}  `);
      lines.push(`${indent}end`);
    }
    for (const node of childNodes(parent)) lines.push(`${indent}${nodeStatement(node, id(node.id))}`);
  };
  writeLevel(undefined, '  ');

  const edgeStyles = new Map<string, number[]>();
  graph.edges.forEach((edge, index) => {
    const { reversed, arrow } = link(edge);
    const [from, to] = reversed ? [edge.to, edge.from] : [edge.from, edge.to];
    const label = edge.label !== undefined && edge.label !== '' ? `|${mermaidString(edge.label)}|` : '';
    lines.push(`  ${id(from)} ${arrow}${label} ${id(to)}`);
    for (const head of [edge.startArrowhead, edge.endArrowhead]) {
      if (!EXACT_HEADS.has(head)) losses.add(`Mermaid flowcharts have no ${head} arrowhead; drawn as ${FLOW_HEAD[head]}`, edge.id);
    }
    const ends = [edge.startLabel, edge.endLabel].filter((l): l is string => l !== undefined && l !== '');
    if (ends.length > 0) warnings.push(`edge "${edge.id}": flowcharts have no end labels; ${ends.map((l) => JSON.stringify(l)).join(' and ')} left out`);
    // Mermaid's one broken link (-.-) is drawn with 2px dashes; the dash array tells dashed from dotted.
    const key = css(edge.style, edge.look, false);
    edgeStyles.set(key, [...(edgeStyles.get(key) ?? []), index]);
  });

  const classes = new Map<string, string[]>();
  for (const node of graph.nodes) {
    const key = css(node.style, node.look, node.look.fontSize !== undefined);
    classes.set(key, [...(classes.get(key) ?? []), id(node.id)]);
  }
  [...classes].forEach(([style, members], i) => lines.push(`  classDef s${i} ${style}`, `  class ${members.join(',')} s${i}`));
  for (const group of graph.groups) lines.push(`  style ${id(group.id)} ${css(group.style, group.look, false)}`);
  for (const [style, indices] of edgeStyles) lines.push(`  linkStyle ${indices.join(',')} ${style}`);
  return { code: `${lines.join('\n')}\n`, warnings };
}
