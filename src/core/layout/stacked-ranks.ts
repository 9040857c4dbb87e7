/**
 * Rows for Graphviz's placement with each container's parts stacked along the flow, as ELK's stacked try arranges
 * them (elk.ts, arrangingEdges): Graphviz ranks parts joined by no edge side by side, so a boundary holding three
 * boundaries and a few systems (Mermaid's C4 context example) is a row of them 1,985 px wide, text 6.2 px at a
 * README's 880, where stacked they take a column.
 */
import type { Direction, GraphIR } from '../graph/types.js';
import { SPACING } from './drawing-rules.js';
import { backEdges, READABLE_WIDTH, vertical } from './elk.js';
import { looseRows } from './graphviz.js';
import { sizeNode } from './node-size.js';

/**
 * Fewer single nodes than this in a container stay steps of their own, one after another; this many or more are set
 * in rows of a README column (as ELK's STAIRCASE_MIN).
 */
const STAIRCASE_MIN = 3;

/** What a container's items are stacked as: a node or a container, keyed `n:id` or `g:id`. */
type Item = string;

/**
 * Each node's row (0 first along the flow), each container's parts (connected by edges between what they hold) one
 * after another in the order written, a part's items ranked by the edges between them; undefined when no container
 * holds two parts (stacking changes nothing). `turnsBack`: containers of one part refer to each other both ways, so one
 * of those edges runs against the flow.
 */
export function stackedRanks(graph: GraphIR, direction: Direction): { ranks: Map<string, number>; turnsBack: boolean } | undefined {
  const groupIds = new Set(graph.groups.map((group) => group.id));
  const nodeIds = new Set(graph.nodes.map((node) => node.id));
  const parent = new Map<Item, string | undefined>();
  const children = new Map<string | undefined, Item[]>();
  const add = (item: Item, container: string | undefined) => {
    parent.set(item, container);
    children.set(container, [...(children.get(container) ?? []), item]);
  };
  for (const node of graph.nodes) add(`n:${node.id}`, node.parent !== undefined && groupIds.has(node.parent) ? node.parent : undefined);
  for (const group of graph.groups) add(`g:${group.id}`, group.parent !== undefined && groupIds.has(group.parent) ? group.parent : undefined);
  // Items in the order the author wrote what they hold (a container where its first node is), so a cycle through
  // containers breaks where the author's flow starts: a flow's output node outside its containers (CrewAI's proposed
  // slots, written after its subgraphs) came first, stacked over the subgraph that starts the flow.
  const written = new Map<Item, number>();
  graph.nodes.forEach((node, i) => {
    for (let item: Item | undefined = `n:${node.id}`, depth = 0; item !== undefined && depth <= graph.groups.length + 1; depth++) {
      if (!written.has(item)) written.set(item, i);
      const up = parent.get(item);
      item = up === undefined ? undefined : `g:${up}`;
    }
  });
  for (const [container, items] of children) children.set(container, [...items].sort((a, b) => (written.get(a) ?? Infinity) - (written.get(b) ?? Infinity)));
  const itemOf = (id: string): Item | undefined => (nodeIds.has(id) ? `n:${id}` : groupIds.has(id) ? `g:${id}` : undefined);
  /** The item directly in `container` that holds `item` (or is it). */
  const childOf = (item: Item, container: string | undefined): Item | undefined => {
    for (let at: Item | undefined = item, depth = 0; at !== undefined && depth <= graph.groups.length + 1; depth++) {
      const up = parent.get(at);
      if (up === container) return at;
      at = up === undefined ? undefined : `g:${up}`;
    }
    return undefined;
  };
  const links = graph.edges.flatMap((edge) => {
    const [from, to] = [itemOf(edge.from), itemOf(edge.to)];
    return from === undefined || to === undefined || from === to ? [] : [[from, to] as const];
  });
  const across = (item: Item) => {
    const box = sizeNode(graph.nodes.find((node) => `n:${node.id}` === item)!, direction);
    return { item, width: vertical(direction) ? box.width : box.height, height: vertical(direction) ? box.height : box.width };
  };
  const rank = new Map<string, number>();
  let stacks = false;
  let turnsBack = false;
  const placing = new Set<string | undefined>();
  /** Ranks the nodes inside `container` from `first`; returns how many ranks it takes. */
  const place = (container: string | undefined, first: number): number => {
    if (placing.has(container)) return 0; // a cycle of parents is placed once
    placing.add(container);
    const items = children.get(container) ?? [];
    const inner = links.map(([a, b]) => [childOf(a, container), childOf(b, container)] as const).filter((pair): pair is readonly [Item, Item] => pair[0] !== undefined && pair[1] !== undefined && pair[0] !== pair[1]);
    const component = new Map(items.map((item) => [item, item]));
    const find = (item: Item): Item => (component.get(item) === item ? item : find(component.get(item)!));
    for (const [a, b] of inner) component.set(find(a), find(b));
    const parts = new Map<Item, Item[]>();
    for (const item of items) parts.set(find(item), [...(parts.get(find(item)) ?? []), item]);
    const singles = [...parts.values()].filter((part) => part.length === 1 && part[0]!.startsWith('n:')).map(([item]) => item!);
    const grid = singles.length >= STAIRCASE_MIN ? singles : [];
    stacks ||= parts.size - Math.max(0, grid.length - 1) >= 2;
    let at = first;
    for (const part of parts.values()) {
      if (grid.includes(part[0]!)) {
        if (part[0] !== grid[0]) continue;
        const rows = looseRows(grid.map(across), READABLE_WIDTH, [SPACING.nodeNode, SPACING.betweenLayers]);
        rows.forEach((row, r) => row.forEach(({ item }) => rank.set(item.slice(2), at + r)));
        at += rows.length;
        continue;
      }
      // A part's items in the order of its edges (a cycle's back edges turned), each after all it comes from.
      const within = inner.filter(([a, b]) => part.includes(a) && part.includes(b)).map(([from, to]) => ({ from, to }));
      const back = backEdges(part, within);
      turnsBack ||= [...back].some((i) => within[i]!.from.startsWith('g:') || within[i]!.to.startsWith('g:'));
      const before = new Map(part.map((item) => [item, [] as Item[]]));
      within.forEach((edge, i) => (back.has(i) ? before.get(edge.from)!.push(edge.to) : before.get(edge.to)!.push(edge.from)));
      const start = new Map<Item, number>();
      const span = new Map<Item, number>();
      const startOf = (item: Item): number => {
        if (!start.has(item)) {
          start.set(item, at);
          start.set(item, Math.max(at, ...before.get(item)!.map((from) => startOf(from) + spanOf(from))));
        }
        return start.get(item)!;
      };
      const spanOf = (item: Item): number => {
        if (!span.has(item)) span.set(item, item.startsWith('n:') ? 1 : Math.max(1, place(item.slice(2), startOf(item))));
        return span.get(item)!;
      };
      // A node nothing leads into sits in the rank right before the first it leads to, as Graphviz's ranking sets it,
      // not with the part's first: an abstract factory's six implementations were in the top row, their realisations
      // running down past the whole drawing to interfaces five ranks below.
      const after = new Map(part.map((item) => [item, [] as Item[]]));
      for (const [item, froms] of before) for (const from of froms) after.get(from)!.push(item);
      const rowOf = (item: Item) => (before.get(item)!.length === 0 && after.get(item)!.length > 0 ? Math.min(...after.get(item)!.map(startOf)) - 1 : startOf(item));
      let end = at;
      for (const item of part) {
        if (item.startsWith('n:')) rank.set(item.slice(2), rowOf(item));
        end = Math.max(end, startOf(item) + spanOf(item));
      }
      at = end;
    }
    return at - first;
  };
  place(undefined, 0);
  return stacks ? { ranks: rank, turnsBack } : undefined;
}
