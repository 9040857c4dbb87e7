/**
 * Mermaid `mindmap` → the tree model (notations/mindmap.ts): each topic with its outline (`[square]`, `(rounded)`,
 * `((circle))`, `))bang((`, `)cloud(`, `{{hexagon}}`), its `::icon(…)` as an icon keyword.
 */
import { AppError } from '../../errors.js';
import type { GraphIR } from '../../graph/types.js';
import { treeToGraph, type Topic, type TopicShape } from '../mindmap.js';
import { decodeMermaid } from './parser.js';

interface MindmapNode {
  descr: string;
  /** Mermaid's nodeType: 0 default, 1 rounded, 2 rect, 3 circle, 4 cloud, 5 bang, 6 hexagon. */
  type: number;
  children: MindmapNode[];
  icon?: string;
}
export interface MindmapDb {
  getMindmap(): MindmapNode | null | undefined;
}

const SHAPES: readonly TopicShape[] = ['box', 'rounded', 'square', 'circle', 'cloud', 'bang', 'hexagon'];

/** `fa fa-book`, `mdi mdi-skull-outline` → `book`, `skull-outline`: the name without its font's prefix. */
function iconKeyword(icon: string): string | undefined {
  const name = icon.trim().split(/\s+/).pop()?.replace(/^(fa[a-z]?|mdi)-/, '');
  return name === undefined || name === '' ? undefined : name.replace(/-/g, ' ');
}

function topicOf(node: MindmapNode): Topic {
  const topic: Topic = { label: decodeMermaid(node.descr).trim(), shape: SHAPES[node.type] ?? 'box', children: node.children.map(topicOf) };
  const icon = node.icon === undefined ? undefined : iconKeyword(node.icon);
  if (icon !== undefined) topic.iconHint = icon;
  return topic;
}

export function mindmapToGraph(db: MindmapDb): GraphIR {
  const root = db.getMindmap();
  if (root === null || root === undefined) throw new AppError('parse_error', 'Mermaid: the mindmap has no topics: write the root on the line after `mindmap`');
  return treeToGraph(topicOf(root), { direction: 'RIGHT', branchColours: true });
}
