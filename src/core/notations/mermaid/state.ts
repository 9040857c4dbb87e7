/**
 * Mermaid `stateDiagram`/`stateDiagram-v2` → GraphIR: states (composite ones as groups), `[*]` start and end
 * points, choice, fork and join, notes tied by a dashed line, transitions with their labels. A transition from a
 * state to the composite state around it (`Refreshing --> Success` inside Success) re-enters the composite: it is
 * drawn to the composite's start point, where re-entering leads.
 */
import { mergeParallelEdges } from '../../graph/parallel-edges.js';
import type { GraphEdge, GraphGroup, GraphIR, GraphNode, NodeKind } from '../../graph/types.js';
import { MERMAID_DIRECTIONS } from './flowchart.js';
import { decodeMermaid, withoutEmphasis } from './parser.js';
import { cssStyle } from './style.js';
import { dictionary } from '../../dictionary.js';

interface StateNode {
  id: string;
  label?: string;
  shape?: string;
  parentId?: string;
  isGroup?: boolean;
  /** Its `classDef` classes' declarations (`class X bad`, `X:::bad`), then its own `style` ones. */
  cssCompiledStyles?: string[];
  cssStyles?: string[];
}
interface StateEdge {
  start: string;
  end: string;
  label?: string;
  classes?: string;
}
export interface StateDb {
  getData(): { nodes: StateNode[]; edges: StateEdge[] };
  getStates?(): Map<string, { descriptions?: string[] }>;
  getDirection?(): string | undefined;
}

/** Pseudo-states: drawn by role, without a label (as PlantUML's). */
const PSEUDO: Record<string, NodeKind> = dictionary({ stateStart: 'start', stateEnd: 'end', choice: 'decision', fork: 'fork', join: 'fork' });

/** Mermaid draws a state diagram's labels as markdown (`*Checking for update*` in italics): the words are ours. */
const stateText = (text: string): string => withoutEmphasis(decodeMermaid(text));

export function stateToGraph(db: StateDb): GraphIR {
  const data = db.getData();
  const states = db.getStates?.();
  // A note sits in a group of its own (`X----parent`) with the state it annotates; the note is what we draw.
  const noteGroups = new Map(data.nodes.filter((n) => n.shape === 'noteGroup').map((n) => [n.id, n.parentId]));
  const groups: GraphGroup[] = [];
  const nodes: GraphNode[] = [];
  for (const item of data.nodes) {
    if (item.shape === 'noteGroup') continue;
    const parent = noteGroups.has(item.parentId ?? '') ? noteGroups.get(item.parentId!) : item.parentId;
    if (item.isGroup) {
      // Concurrent regions (`--`) are untitled groups inside their state.
      const group: GraphGroup = { id: item.id, label: item.shape === 'divider' ? '' : stateText(item.label ?? item.id), kind: 'state' };
      const groupStyle = cssStyle([...(item.cssCompiledStyles ?? []), ...(item.cssStyles ?? [])]);
      if (groupStyle !== undefined) group.style = groupStyle;
      if (parent !== undefined) group.parent = parent;
      groups.push(group);
      continue;
    }
    const pseudo = item.shape === undefined ? undefined : PSEUDO[item.shape];
    const node: GraphNode =
      pseudo !== undefined
        ? { id: item.id, label: '', kind: pseudo }
        : { id: item.id, label: stateText(item.label ?? item.id), kind: item.shape === 'note' ? 'note' : 'state' };
    // `Still : first` then `Still : second`: the first is the label Mermaid draws, the rest lines under it.
    const more = (states?.get(item.id)?.descriptions ?? []).slice(1).map(stateText);
    if (pseudo === undefined && more.length > 0) node.rows = more;
    const style = pseudo === undefined ? cssStyle([...(item.cssCompiledStyles ?? []), ...(item.cssStyles ?? [])]) : undefined;
    if (style !== undefined) node.style = style;
    if (parent !== undefined) node.parent = parent;
    nodes.push(node);
  }
  const parentOf = new Map<string, string | undefined>([...groups.map((g) => [g.id, g.parent] as const), ...nodes.map((n) => [n.id, n.parent] as const)]);
  const encloses = (outer: string, id: string): boolean => {
    for (let up = parentOf.get(id); up !== undefined; up = parentOf.get(up)) if (up === outer) return true;
    return false;
  };
  const startOf = new Map(nodes.filter((n) => n.kind === 'start' && n.parent !== undefined).map((n) => [n.parent!, n.id]));
  const edges: GraphEdge[] = data.edges.map((transition, index) => {
    const note = (transition.classes ?? '').includes('note-edge');
    const reentered = encloses(transition.end, transition.start) ? startOf.get(transition.end) : undefined;
    const edge: GraphEdge = { id: `e${index + 1}`, from: transition.start, to: reentered ?? transition.end, startArrowhead: 'none', endArrowhead: note ? 'none' : 'arrow' };
    if (note) edge.style = { strokeStyle: 'dashed' };
    const label = stateText(transition.label ?? '').trim();
    if (label !== '') edge.label = label;
    return edge;
  });
  return { layout: 'layered', direction: MERMAID_DIRECTIONS[db.getDirection?.() ?? 'TB'] ?? 'DOWN', nodes, edges: mergeParallelEdges(edges), groups, warnings: [] };
}
