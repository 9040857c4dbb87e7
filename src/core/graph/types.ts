/**
 * GraphIR: the one graph model between notation parsers and layout. Every notation (and, later, AI generation)
 * produces it; layout and scene building consume it. It carries meaning and hints, never coordinates.
 */
import type { AppError } from '../errors.js';


/** What a node stands for; drives default shape, colour by role and icon guesses. */
export const NODE_KINDS = ['service', 'workload', 'database', 'storage', 'queue', 'cache', 'network', 'config', 'secret', 'user', 'external', 'gateway', 'entity', 'class', 'interface', 'enum', 'actor', 'usecase', 'component', 'note', 'start', 'end', 'action', 'decision', 'fork', 'state', 'generic'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** Arrowheads use the native element schema's names. */
export type Arrowhead =
  | 'none'
  | 'arrow'
  | 'triangle'
  | 'triangle-outline'
  | 'circle'
  | 'diamond'
  | 'diamond-outline'
  | 'bar'
  | 'crows-foot'
  | 'crows-foot-bar'
  | 'double-bar'
  | 'circle-bar'
  | 'circle-crows-foot';

export interface GraphStyle {
  strokeColor?: string;
  /** Within the schema's 1–8; notations scale their own units to it (DOT penwidth 1 is our 2). */
  strokeWidth?: number;
  fillColor?: string;
  strokeStyle?: 'solid' | 'dashed' | 'dotted';
  corner?: 'sharp' | 'rounded' | 'beveled';
  /** Label size in px; notations scale their own units to it (DOT fontsize 14 is our default). Profilers encode cost in it. */
  fontSize?: number;
  /**
   * Label colour, when the notation sets one apart from the border (DOT fontcolor, D2 font-color); on a shape, kept when
   * readable on its fill.
   */
  textColor?: string;
  /** Lines set from the left, as the notation writes prose and code in a box (D2 Markdown and code blocks); centred when absent. */
  textAlign?: 'left';
  /**
   * The author's emphasis of a node's whole label (D2 `style.bold`, DOT `<b>…</b>` or a bold `fontname`, Mermaid's
   * `**…**`, PlantUML's creole): drawn in the bold face, slanted. Emphasis of a part of a label is not kept.
   */
  fontWeight?: 'bold';
  fontStyle?: 'italic';
}

export interface GraphNode {
  id: string;
  label: string;
  kind: NodeKind;
  /** Native element type to draw (rectangle, cylinder, diamond, …); layout picks from `kind` when absent. */
  shape?: string;
  /** Extra lines drawn under the label: record fields, class members, table columns. */
  rows?: string[];
  /** Indices of `rows` that open a compartment of their own under a rule: a UML class's operations under its attributes. */
  compartments?: number[];
  /**
   * The box drawn as cells where they lie, not as a header over rows: a DOT record's fields or an HTML-like table.
   * `label` and `rows` still hold its text in reading order, for exports that draw rows.
   */
  cells?: CellBlock;
  /** Explicit icon (`library/Label`) or a keyword for the icon search (e.g. the image name `postgres`). */
  iconRef?: string;
  iconHint?: string;
  /** The icon (`library/Label`) to use when neither `iconRef` nor `iconHint` finds one: what the node is in general. */
  iconFallback?: string;
  /** Id of the group that contains this node, if any. */
  parent?: string;
  style?: GraphStyle;
  /** A box of this size, unlabelled: a container laid out on its own stands so in the layout around it (layout/blocks.ts). */
  size?: { width: number; height: number };
  /** The width or height its author set (D2 `width`/`height`): kept, or grown only as far as the label needs. */
  authorSize?: { width?: number; height?: number };
  /** The least width or height its author set (DOT `width`/`height`, in px): the box grows to it, past the drawing rules' bounds. */
  leastSize?: { width?: number; height?: number };
  /** A diagram drawn inside the node's box, the node's label its title: a D2 sequence diagram inside a container (scene/insets.ts). */
  inset?: GraphIR;
  /**
   * An `end` that closes one flow, not the whole activity: UML's flow final, a ring with a cross (PlantUML's `end`),
   * apart from the activity final, a ring round a dot (`stop`).
   */
  flowFinal?: boolean;
}

/**
 * Cells of a box: a DOT record's fields side by side (`across`) or stacked, each `{…}` turning the other way; or an
 * HTML-like table's rows, cells spanning columns and rows.
 */
export type CellBlock =
  | { kind: 'fields'; across: boolean; cells: GraphCell[] }
  | {
      kind: 'table';
      rows: GraphCell[][];
      /** Graphviz's BORDER, CELLBORDER, CELLSPACING and CELLPADDING, in points (px). */
      border: number;
      cellBorder: number;
      cellSpacing: number;
      cellPadding: number;
      fillColor?: string;
      strokeColor?: string;
    };

export interface GraphCell {
  /** Its lines; '' for a blank field. */
  text: string;
  /** Edges written to `node:port` end at this cell. */
  port?: string;
  textAlign?: 'left' | 'center' | 'right';
  /** A sub-record (turned the other way) or a table nested in the cell, drawn in place of the text. */
  inner?: CellBlock;
  columnSpan?: number;
  rowSpan?: number;
  /** Its border, in px (a table's CELLBORDER unless the cell sets BORDER). */
  border?: number;
  fillColor?: string;
  textColor?: string;
  bold?: boolean;
  italic?: boolean;
  /** The least size its author set (WIDTH/HEIGHT), in px. */
  leastSize?: { width?: number; height?: number };
}

export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  label?: string;
  startArrowhead?: Arrowhead;
  endArrowhead?: Arrowhead;
  style?: Pick<GraphStyle, 'strokeColor' | 'strokeStyle' | 'strokeWidth' | 'fontSize' | 'textColor'>;
  /** Labels at each end (UML multiplicities, ER cardinalities). */
  startLabel?: string;
  endLabel?: string;
  /** Laid out but not drawn: an invisible edge its author wrote to place shapes (D2 `style.opacity: 0`). */
  hidden?: true;
  /** The side of its source the author put the target on (PlantUML `-r->`, `-up->`, C4 `Rel_L`): layout keeps it there. */
  toward?: Direction;
}

/**
 * What an edge says: its labels (an activity branch's `yes` is a start label) and line. Edges that say different things
 * may share an end point, never a trunk (the quality checker's rule on mixed trunks, which reads every label an arrow
 * has and which layout's hub merging and run separation keep).
 */
export const edgeMeaning = (edge: Pick<GraphEdge, 'id' | 'label' | 'startLabel' | 'endLabel' | 'style'>): string =>
  [
    [edge.label, edge.startLabel, edge.endLabel].filter(Boolean).sort().join(' '),
    edge.style?.strokeStyle ?? 'solid',
    edge.style?.strokeColor ?? '',
    // A cardinality at each end makes it one relation (a foreign key, an ER relationship) that means itself: relations
    // labelled alike ("1:N") are still different ones, and a shared trunk joins them into one with many ends.
    edge.startLabel && edge.endLabel ? edge.id : '',
  ].join('\u0000');

/** A container: network, namespace, VPC, cluster, package, schema. Groups nest through `parent`. */
export interface GraphGroup {
  id: string;
  label: string;
  kind?: string;
  parent?: string;
  style?: GraphStyle;
  /** Its contents' own flow, when the author gave it one apart from the diagram's (D2 `direction` on a container). */
  direction?: Direction;
  /** Its children placed in rows and columns (D2 `grid-rows`/`grid-columns`) instead of by their edges. */
  grid?: GraphGrid;
  /**
   * The group this one continues in another swimlane: a PlantUML partition the flow left its lane in is drawn as one
   * box per lane, framed round its steps there, and laid out as the one group it is.
   */
  continues?: string;
}

/** A grid of a container's children (or the diagram's top level): each child's row and column, and the gaps between. */
export interface GraphGrid {
  /** Child id (a node's or a group's) → its row and column, from 0, and how many columns and rows it spans (1 when absent). */
  cells: Record<string, { row: number; column: number; columnSpan?: number; rowSpan?: number }>;
  rowGap: number;
  columnGap: number;
  /**
   * The columns share out the room a container's cell stretches it to (Mermaid's composite blocks, whose children
   * fill their parent's width); without it the children keep their size, centred in the container.
   */
  fill?: true;
}

/** The author's DOT for Graphviz (notations/dot/layout-source.ts writes it). */
export interface DotSource {
  /** The source, with the root label emptied and edge labels and cluster titles as placeholders for sized boxes. */
  source: string;
  /**
   * Every edge in the order Graphviz creates them: its ends, and the id of its GraphIR edge when drawn; `reversed` when
   * written head to tail (so Graphviz ranks the head first), its route read back the other way.
   */
  edges: { tail: string; head: string; id?: string; reversed?: true }[];
  /** Cluster names; placeholder `drawbridge:cluster:<i>` stands for the title of `clusters[i]`. */
  clusters: string[];
}

export type Direction = 'DOWN' | 'RIGHT' | 'UP' | 'LEFT';

export interface GraphIR {
  /** Which layout family fits: a layered graph, a sequence diagram with lifelines, or a chart drawn in its own fixed layout. */
  layout: 'layered' | 'sequence' | 'chart';
  direction: Direction;
  /**
   * The author wrote the direction (`flowchart LR`, `left to right direction`, D2 `direction:`): layout keeps it. When
   * absent, `direction` is the notation's habit and layout may turn the graph to fit a README column.
   */
  forcedDirection?: boolean;
  /**
   * Branches keep the order they are written in, where layout could swap them to save a crossing: PlantUML draws an
   * activity's `then` branch left of its `else` and fork branches left to right.
   */
  inSourceOrder?: boolean;
  /**
   * A flow of short steps (a PlantUML activity): its layers sit as close as the original tool sets them, a step's
   * arrow a short stroke, where the usual gap between layers left a 66-step activity twice PlantUML's height.
   */
  closeSteps?: boolean;
  /**
   * The diagram's own title (PlantUML `title`, the root graph's `label` in DOT), as plain display text with lines split
   * on \n; drawn once above the whole diagram. Container titles are `GraphGroup.label`.
   */
  title?: string;
  /** The title's size in px, where its author set it larger than our heading (D2's `style.font-size` on its title text). */
  titleSize?: number;
  /** Where across the top the author pinned the title (D2 `near: top-center`, `top-right`); at the left when unset. */
  titleAlign?: 'center' | 'right';
  /** The author's key to the drawing (PlantUML `legend` … `end legend`): a box of text drawn under the whole diagram. */
  legend?: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  groups: GraphGroup[];
  /** Things the parser skipped or approximated, said to the user. */
  warnings: string[];
  /** The top level's items in a grid (D2 `grid-rows` at the root). */
  grid?: GraphGrid;
  /**
   * DOT only: the author's graph as Graphviz reads it, so layout honours every attribute that shapes it (rank=same,
   * invisible nodes and edges, ordering, constraint, weight, newrank, nodesep, ranksep).
   */
  dot?: DotSource;
  /** Sequence diagrams only: ordered messages, notes and fragments (the parser defines the shape with the layout). */
  sequence?: import('../layout/sequence.js').SequenceDiagram;
  /** Charts only (gitGraph, gantt, timeline, pie, journey): the chart's data; `nodes` and `edges` stay empty. */
  chart?: import('./chart.js').Chart;
}

export const NOTATIONS = ['compose', 'kubernetes', 'dot', 'plantuml', 'terraform', 'helm', 'sql', 'mermaid', 'd2'] as const;
export type Notation = (typeof NOTATIONS)[number];

/** How each notation is named to people (default diagram names, messages). */
export const NOTATION_TITLES: Record<Notation, string> = {
  compose: 'docker-compose',
  kubernetes: 'Kubernetes',
  dot: 'Graphviz',
  plantuml: 'PlantUML',
  terraform: 'Terraform',
  helm: 'Helm',
  sql: 'SQL',
  mermaid: 'Mermaid',
  d2: 'D2',
};

/**
 * Each notation plugs into one registry with this shape (STYLE: converters plug in). `Result` is a promise for
 * parsers that load lazily (Mermaid's grammars); line and grammar parsers answer at once.
 */
export interface NotationConverter<Result extends GraphIR | Promise<GraphIR> = GraphIR> {
  id: Notation;
  /** A confidence 0..1 that `code` is this notation; detection picks the highest above a threshold. */
  detect(code: string): number;
  /** Throws AppError('parse_error', message with line and column, {line, column}) on a syntax error. */
  toGraph(code: string): Result;
  /**
   * For a notation whose synchronous parser can only say roughly where an error is: the error with its exact position,
   * found by an asynchronous parser, or undefined when that one finds none. codeToScene asks it after a parse_error.
   */
  locateError?(code: string): Promise<AppError | undefined>;
}
