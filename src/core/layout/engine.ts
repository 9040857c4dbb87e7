/**
 * Which engine lays out which graph, decided in this one place. DOT input is always laid out by Graphviz: its author
 * wrote it for Graphviz (rank=same rows, invisible nodes and edges, ordering, weights) and expects Graphviz's layout.
 * Every other notation is laid out by ELK or by Graphviz's placement with our own right-angle routes
 * (graphviz-orthogonal.ts), by measurement (bench/engines.ts, same sizes, same checker, the corpus): ELK broke 11 drawing
 * rules where Graphviz's own splines broke 1,308, and crossed fewer edges on compose, Terraform and PlantUML. ELK is
 * 5–25× slower than Graphviz per notation (issue 27 asks 3×), as one ELK run per file alone is about 3.5× Graphviz's
 * whole layout. Graphviz's placement with our routes takes 2–3.5× Graphviz's time, and on Kubernetes breaks fewer
 * rules (1 vs 2) than ELK, and on Helm as few (none) with its loose services set in an even grid; on Mermaid, since its
 * routes keep off each other's crossings and a container's parts may stack, none where ELK breaks one (C4 context's
 * text) and no crossing either way, in 1.5–1.7× Graphviz's time against ELK's 8–9×; on SQL, with foreign keys ending
 * on the sides of tables along the flow, their cardinalities given room and labels run side by side finding room
 * (README), 1 rule broken on the corpus where ELK breaks 3, 28 crossings against 40, on a smaller canvas but for one
 * schema (drawn with every column: 2 rules against 3, 139 crossings against 116); on Terraform as many rules broken as ELK
 * (2, folded), every canvas within Graphviz's where ELK's exceeds it on 4 of 14 files, 102 crossings against 79, in
 * 3–4× Graphviz's time against ELK's 19–32×; on compose as many rules broken as ELK on the 10 corpus files and all 39
 * of awesome-compose, crossings 7 against 6 and 0 against 0, every canvas within Graphviz's (ELK's exceeds it on 6),
 * Nextcloud's two networks drawn top-down where ELK ran web → app upwards, in 3.9× Graphviz's time against ELK's 19×
 * (Sentry's folded file is wider on it, 1,961 against 1,353 px, both too wide for 11 px text at 880). Those five, and
 * SQL schemas, are drawn that way (placedByGraphviz): above 40 tables Graphviz's placement keeps the canvas within
 * Graphviz's (Ranger 1.58 → 1.01, AdventureWorks 1.37 → 0.95); since stop 45 smaller schemas too, their keys' end legs
 * lengthened and a small schema's parts sharing Graphviz's ranks (petclinic): on the bench's 8 schemas of 40 tables
 * or fewer, no rule broken (ELK 1), 12 crossings against 14, a smaller canvas on all 8, in 4.3× Graphviz's time
 * against ELK's 15× (one bench run, load average 2.6). On the others it still breaks more rules or crosses more
 * edges, so ELK draws them (README). PlantUML's diagrams whose edges stay within their containers are drawn that way
 * too: on 220 such files of the Cluster API, java-design-patterns, C4-PlantUML and other repositories, 13 rules broken
 * against ELK's 32 (mostly text too small at 880 px), 49 crossings against 30, in a quarter of ELK's time, and so are
 * those whose packages nest but whose edges stay within one, and those whose containers are joined only to what is
 * outside every container; where edges join containers to each other, Graphviz's clusters broke more rules
 * (containersJoinEachOther), and ELK keeps them. A graph whose author put targets on a side of their sources
 * (PlantUML `-r->`, C4 `Lay_R`, `Rel_Neighbor`) goes to Graphviz too, as PlantUML itself does: one rank and an order
 * in it say "to the right of", which ELK's layering cannot. The README says which engine draws what.
 */
import type { GraphIR, Notation } from '../graph/types.js';
import { hasBlocks, withBlocks } from './blocks.js';
import { layoutGraph } from './elk.js';
import { foldsSideways, withFoldedFlow } from './folded-flow.js';
import { layoutWithGraphviz } from './graphviz.js';
import { layoutGraphvizOrthogonal, layoutWithGraphvizEndLabels } from './graphviz-orthogonal.js';
import { hasSwimlanes, layoutSwimlanes, layoutSwimlanesWith } from './swimlanes.js';
import type { LayoutEngine } from './types.js';

/**
 * DOT input, and a graph with edges put on a side of their sources: laid out by Graphviz. A note set beside what it
 * annotates (`note right of`) is no such edge but in swimlanes: the engine is chosen as for the diagram without it, and
 * Graphviz's placement still sets it beside. A component diagram's four notes sent its packages, joined to each other
 * and holding components of components, to Graphviz's own layout: 11,203 px wide (PlantUML: 3,779), 3,450 with ELK.
 * On the 16 files of the collections whose only sides are notes: 1,079 rules broken against 1,144, 0.93 × the area,
 * 18 crossings against 7 (in a downward flow ELK sets a note above what it annotates, not beside it; in a flow to
 * the right, beside it, elk.ts).
 */
export const drawnByGraphviz = (graph: GraphIR): boolean => {
  if (graph.dot !== undefined) return true;
  const sided = graph.edges.filter((edge) => edge.toward !== undefined);
  if (sided.length === 0) return false;
  const notes = new Set(graph.nodes.filter((node) => node.kind === 'note').map((node) => node.id));
  return hasSwimlanes(graph) || sided.some((edge) => !notes.has(edge.from) && !notes.has(edge.to));
};

/** Notations other than DOT laid out by Graphviz's placement with our right-angle routes rather than ELK. */
const PLACED_BY_GRAPHVIZ: ReadonlySet<Notation> = new Set<Notation>(['kubernetes', 'helm', 'mermaid', 'terraform', 'compose', 'sql']);

/**
 * Whether an edge joins two containers, each end in one that does not hold the other (PlantUML's packages that refer
 * to each other): Graphviz orders each cluster's nodes apart, and edges between clusters then cross where ELK's
 * crossing minimisation across the levels untangles them (161 crossings against ELK's 119 on the 65 such files of the
 * conformance collections, the onion architecture 26 against 11; with `newrank=true`, 104, but 40 rules broken against
 * ELK's 19). Since containers that refer to each other both ways are ranked node by node (graphviz.ts), 93 crossings
 * against ELK's 116 on the 41 such files of the collections as the service draws them, but 22 rules broken against 18:
 * end labels on boxes set side by side, relations run together (README). Edges between a container and what is
 * outside every container (a person using a system's parts, a database they share) are no reason: on the 11 such
 * files, Graphviz's placement breaks as few rules (1) and crosses as few edges (3) as ELK, on 0.77 of its canvas in a
 * seventh of its time. Nor are containers in containers: on the 6 files whose edges stay within one, Graphviz's
 * placement breaks no rule and crosses no edge, as ELK, on half its canvas.
 */
const containersJoinEachOther = (graph: GraphIR): boolean => {
  const parent = new Map<string, string | undefined>([...graph.groups.map((g): [string, string | undefined] => [g.id, g.parent]), ...graph.nodes.map((n): [string, string | undefined] => [n.id, n.parent])]);
  const groups = new Set(graph.groups.map((group) => group.id));
  const containers = (id: string) => {
    const chain = new Set(groups.has(id) ? [id] : []);
    for (let up = parent.get(id); up !== undefined && groups.has(up) && !chain.has(up); up = parent.get(up)) chain.add(up);
    return chain;
  };
  // An end in a container that does not hold the other end.
  const apart = (id: string, other: string) => {
    const holders = containers(other);
    return [...containers(id)].some((group) => !holders.has(group));
  };
  return graph.edges.some((edge) => apart(edge.from, edge.to) && apart(edge.to, edge.from));
};

/**
 * Whether a graph not drawn by Graphviz itself is placed by it, with our routes: the notations above, and a PlantUML
 * diagram whose containers are not joined to each other (containersJoinEachOther) but for an activity in swimlanes,
 * whose lanes swimlanes.ts sets as columns.
 */
export const placedByGraphviz = (graph: GraphIR, notation?: Notation): boolean =>
  notation !== undefined &&
  (PLACED_BY_GRAPHVIZ.has(notation) || (notation === 'plantuml' && !containersJoinEachOther(graph) && !hasSwimlanes(graph)));

/** The engine for a graph read from `notation` (undefined: a graph from elsewhere, an AI answer or a scene, drawn by ELK). */
export function layoutEngineFor(graph: GraphIR, notation?: Notation): LayoutEngine {
  const engine = drawnByGraphviz(graph)
    ? // DOT keeps its author's `headlabel` where Graphviz sets it.
      graph.dot === undefined
      ? layoutWithGraphvizEndLabels
      : layoutWithGraphviz
    : placedByGraphviz(graph, notation)
      ? layoutGraphvizOrthogonal
      : layoutGraph;
  // Grids and containers with a direction of their own (D2) are laid out apart, then placed as one box.
  // A flow in swimlanes is laid out flat, then its lanes made columns (swimlanes.ts).
  if (hasSwimlanes(graph)) return engine === layoutGraph ? layoutSwimlanes : layoutSwimlanesWith(engine);
  // A long sideways flow of containers may be folded into a column of them (folded-flow.ts), each a block of its own.
  if (engine === layoutGraph && foldsSideways(graph)) return withFoldedFlow(withBlocks(engine));
  return hasBlocks(graph) ? withBlocks(engine) : engine;
}
