/**
 * What a model answers when asked for a diagram: structure only (nodes, edges, groups, a kind and a direction),
 * never coordinates. Our layout places it, exactly as it places a graph read from code. Optional facts are `null`
 * rather than absent: OpenAI's strict structured output requires every property to be listed as required.
 */
import { z } from 'zod';
import type { Arrowhead, GraphEdge, GraphGroup, GraphIR, GraphNode } from '../graph/types.js';
import { NODE_KINDS } from '../graph/types.js';
import type { SequenceStep } from '../layout/sequence.js';

export const DIAGRAM_KINDS = ['architecture', 'flowchart', 'sequence', 'class', 'er', 'state'] as const;
export type DiagramKind = (typeof DIAGRAM_KINDS)[number];

/** The arrowheads a model may use, with what each means (the system prompt lists them). */
export const ANSWER_ARROWHEADS = {
  none: 'no head',
  arrow: 'flow, call, dependency',
  triangle: 'UML generalisation (filled)',
  'triangle-outline': 'UML inheritance / realisation',
  'diamond-outline': 'UML aggregation',
  diamond: 'UML composition',
  'crows-foot': 'ER: many',
  'crows-foot-bar': 'ER: one or many',
  'double-bar': 'ER: exactly one',
  'circle-bar': 'ER: zero or one',
  'circle-crows-foot': 'ER: zero or many',
} as const satisfies Partial<Record<Arrowhead, string>>;
const ARROWHEAD_NAMES = Object.keys(ANSWER_ARROWHEADS) as [keyof typeof ANSWER_ARROWHEADS, ...(keyof typeof ANSWER_ARROWHEADS)[]];

const text = (max: number) => z.string().trim().min(1).max(max);

export const diagramAnswer = z.object({
  title: text(200).nullable().describe('The diagram title, or null'),
  kind: z.enum(DIAGRAM_KINDS),
  direction: z.enum(['down', 'right']).describe('down: top to bottom; right: left to right'),
  groups: z
    .array(
      z.object({
        id: text(100),
        label: text(200),
        parent: text(100).nullable().describe('Id of the enclosing group, or null'),
      }),
    )
    .max(200)
    .describe('Containers: VPCs, clusters, namespaces, packages, swimlanes'),
  nodes: z
    .array(
      z.object({
        id: text(100),
        label: text(200),
        kind: z.enum(NODE_KINDS),
        icon: text(100).nullable().describe('A product or concept to find an icon for ("postgres", "aws lambda", "kafka"), or null'),
        group: text(100).nullable().describe('Id of the group this node is in, or null'),
        rows: z.array(text(200)).max(100).nullable().describe('Class members or table columns ("id: uuid PK"), or null'),
      }),
    )
    .min(1)
    .max(300),
  edges: z
    .array(
      z.object({
        from: text(100),
        to: text(100),
        label: text(200).nullable(),
        style: z.enum(['solid', 'dashed', 'dotted']),
        startArrowhead: z.enum(ARROWHEAD_NAMES),
        endArrowhead: z.enum(ARROWHEAD_NAMES),
      }),
    )
    .max(1000)
    .describe('In a sequence diagram: the messages, in order; dashed for replies'),
});
export type DiagramAnswer = z.infer<typeof diagramAnswer>;

/**
 * The problems that make an answer unusable though it fits the schema (an edge to a node that does not exist, a
 * group cycle): said back to the model on its one retry, so they are phrased for it.
 */
export function answerProblems(answer: DiagramAnswer): string[] {
  const problems: string[] = [];
  const nodeIds = new Set<string>();
  for (const node of answer.nodes) {
    if (nodeIds.has(node.id)) problems.push(`node id "${node.id}" is used twice`);
    nodeIds.add(node.id);
  }
  const groupIds = new Set(answer.groups.map((g) => g.id));
  for (const node of answer.nodes) if (node.group !== null && !groupIds.has(node.group)) problems.push(`node "${node.id}" is in group "${node.group}", which is not in groups`);
  for (const group of answer.groups) if (group.parent !== null && !groupIds.has(group.parent)) problems.push(`group "${group.id}" has parent "${group.parent}", which is not in groups`);
  answer.edges.forEach((edge, i) => {
    for (const end of [edge.from, edge.to]) if (!nodeIds.has(end)) problems.push(`edges[${i}] refers to node "${end}", which is not in nodes`);
  });
  const parentOf = new Map(answer.groups.map((g) => [g.id, g.parent]));
  for (const group of answer.groups) {
    const seen = new Set<string>();
    for (let at: string | null | undefined = group.id; at; at = parentOf.get(at)) {
      if (seen.has(at)) {
        problems.push(`group "${group.id}" is inside itself`);
        break;
      }
      seen.add(at);
    }
  }
  return problems;
}

/** An existing diagram as the model sees it when asked to change it: the graph recovered from its scene. */
export function recoveredToAnswer(graph: GraphIR): DiagramAnswer {
  const allowed = (head: Arrowhead | undefined): keyof typeof ANSWER_ARROWHEADS => (head && head in ANSWER_ARROWHEADS ? (head as keyof typeof ANSWER_ARROWHEADS) : 'arrow');
  return {
    title: graph.title ?? null,
    kind: graph.nodes.some((n) => n.kind === 'entity') ? 'er' : graph.nodes.some((n) => n.kind === 'class') ? 'class' : 'architecture',
    direction: graph.direction === 'RIGHT' || graph.direction === 'LEFT' ? 'right' : 'down',
    groups: graph.groups.map((g) => ({ id: g.id, label: g.label || g.id, parent: g.parent ?? null })),
    nodes: graph.nodes.map((n) => ({
      id: n.id,
      label: n.label || n.id,
      kind: n.kind,
      icon: n.iconRef ? n.iconRef.slice(n.iconRef.indexOf('/') + 1) : (n.iconHint ?? null),
      group: n.parent ?? null,
      rows: n.rows?.length ? n.rows : null,
    })),
    edges: graph.edges.map((e) => ({
      from: e.from,
      to: e.to,
      label: e.label ?? null,
      style: e.style?.strokeStyle ?? 'solid',
      startArrowhead: e.startArrowhead ? allowed(e.startArrowhead) : 'none',
      endArrowhead: allowed(e.endArrowhead),
    })),
  };
}

/** The answer as the graph model every notation produces; call `answerProblems` first. */
export function answerToGraph(answer: DiagramAnswer): GraphIR {
  const nodes: GraphNode[] = answer.nodes.map((n) => ({
    id: n.id,
    label: n.label,
    kind: n.kind,
    ...(n.icon ? { iconHint: n.icon } : {}),
    ...(n.group ? { parent: n.group } : {}),
    ...(n.rows?.length ? { rows: n.rows } : {}),
  }));
  const groups: GraphGroup[] = answer.groups.map((g) => ({ id: g.id, label: g.label, ...(g.parent ? { parent: g.parent } : {}) }));
  const base = { direction: answer.direction === 'right' ? ('RIGHT' as const) : ('DOWN' as const), ...(answer.title ? { title: answer.title } : {}), warnings: [] };
  if (answer.kind === 'sequence') {
    const steps: SequenceStep[] = answer.edges.map((e) => ({
      type: 'message',
      from: e.from,
      to: e.to,
      ...(e.label ? { label: e.label } : {}),
      dashed: e.style !== 'solid',
      startArrowhead: e.startArrowhead,
      endArrowhead: e.endArrowhead,
    }));
    return { ...base, layout: 'sequence', nodes, edges: [], groups: [], sequence: { steps } };
  }
  const edges: GraphEdge[] = answer.edges.map((e, i) => ({
    id: `e${i + 1}`,
    from: e.from,
    to: e.to,
    ...(e.label ? { label: e.label } : {}),
    startArrowhead: e.startArrowhead,
    endArrowhead: e.endArrowhead,
    ...(e.style !== 'solid' ? { style: { strokeStyle: e.style } } : {}),
  }));
  return { ...base, layout: 'layered', nodes, edges, groups };
}
