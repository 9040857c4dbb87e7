/** Graphviz DOT → GraphIR, through @ts-graphviz/ast's parser (the full DOT grammar, with source locations). */
import {
  parse,
  type AttributeASTNode,
  type ClusterStatementASTNode,
  type EdgeTargetASTNode,
  type GraphASTNode,
  type LiteralASTNode,
  type NodeRefASTNode,
  type SubgraphASTNode,
} from '@ts-graphviz/ast';
import { AppError } from '../../errors.js';
import { LIMITS } from '../../limits.js';
import type { CellBlock, GraphEdge, GraphGroup, GraphIR, GraphNode, GraphStyle } from '../../graph/types.js';
import { lenientDot } from './lenient.js';
import { dotLayoutSource } from './layout-source.js';
import { type Emphasis, wholeEmphasis } from '../emphasis.js';
import { htmlRecordText, htmlToText, splitHeader, tableParts, unescapeLabel, type LabelParts } from './labels.js';
import { htmlTable } from './html-table.js';
import { cellPorts, cellTexts, recordCells } from './record.js';
import { FONT, POINTS_PER_INCH } from '../../layout/drawing-rules.js';
import { APPROXIMATE_SHAPES, fontSizeOf, mapArrowhead, mapColor, mapShape, OUTLINELESS, parseStyle, RANKDIR } from './style.js';

interface Value {
  value: string;
  html: boolean;
}
type Attrs = Map<string, Value>;

interface Scope {
  nodeDefaults: Attrs;
  edgeDefaults: Attrs;
  /** The innermost cluster around this scope: nodes first seen here are drawn inside it. */
  cluster?: string;
}

interface DotNode {
  id: string;
  attrs: Attrs;
  cluster?: string;
}

interface DotEdge {
  from: string;
  to: string;
  attrs: Attrs;
  /** The ports named at each end (`node:port`, not compass points), to tell whether the node has them. */
  fromPort?: string;
  toPort?: string;
}

interface DotCluster {
  id: string;
  parent?: string;
  attrs: Attrs;
}

const valueOf = (literal: LiteralASTNode): Value => ({ value: literal.value, html: literal.quoted === 'html' });
/** Graphviz's default fontcolor. */
const GRAPHVIZ_FONT_COLOR = '#000000';

/** Parses DOT source; throws AppError('parse_error') with the line and column of the first syntax error. */
/**
 * The emphasis Graphviz draws a node's whole label in: a bold or italic face named by `fontname` ("Helvetica-Bold",
 * "Arial Bold Italic", "Times-Oblique"), or an HTML-like label wrapped whole in `<b>`, `<i>`.
 */
function emphasisOf(fontname: string | undefined, label: Value | undefined): Emphasis {
  const named: Emphasis = { ...(/\bbold\b|-bold|black\b|heavy\b/i.test(fontname ?? '') && { fontWeight: 'bold' }), ...(/italic|oblique/i.test(fontname ?? '') && { fontStyle: 'italic' }) };
  return { ...named, ...(label?.html ? wholeEmphasis(label.value, ['html']) : {}) };
}

export function dotToGraph(code: string): GraphIR {
  const lenient = lenientDot(code);
  let root;
  try {
    root = parse(lenient.code);
  } catch (error) {
    // DotSyntaxError carries the parser's own error, with the location, as its cause.
    type Located = { location?: { start?: { line: number; column: number } }; cause?: unknown };
    const location = ((error as Located).location ?? ((error as Located).cause as Located | undefined)?.location)?.start;
    const message = error instanceof Error ? error.message : String(error);
    // The parser's own bound on what it builds (100,000 parts), far past what layout takes: the graph is too large.
    const parts = /AST node count \((\d+)\) exceeds maximum allowed \((\d+)\)/.exec(message);
    if (parts) throw new AppError('too_complex', `the graph has more than ${parts[2]} parts (nodes, edges, attributes); at most ${LIMITS.graphNodes} nodes and ${LIMITS.graphEdges} edges can be laid out`, { limit: 'DOT parts', max: Number(parts[2]) });
    if (location) throw new AppError('parse_error', `line ${location.line}, column ${location.column}: ${message}`, { line: location.line, column: location.column });
    throw new AppError('parse_error', `DOT: ${message}`);
  }
  const graph = root.children.find((child): child is GraphASTNode => child.type === 'Graph');
  if (!graph) throw new AppError('parse_error', 'line 1, column 1: expected a graph or digraph', { line: 1, column: 1 });
  const builder = new DotGraphBuilder(graph, lenient.code);
  builder.warnings.push(...lenient.warnings);
  return builder.build();
}

class DotGraphBuilder {
  readonly warnings: string[] = [];
  /** Graphviz shape → the nodes drawn with our nearest outline instead, said once per shape. */
  private readonly approximated = new Map<string, string[]>();
  private readonly nodes = new Map<string, DotNode>();
  private readonly edges: DotEdge[] = [];
  private readonly clusters = new Map<string, DotCluster>();
  private readonly graphAttrs: Attrs = new Map();
  private readonly name: string;
  /** Port names of each record or table node's cells. */
  private readonly ports = new Map<string, Set<string>>();
  /** GraphIR id of each DOT edge, in the order met; undefined when it is not drawn. */
  private readonly edgeIds: (string | undefined)[] = [];

  constructor(
    private readonly graph: GraphASTNode,
    private readonly code: string,
  ) {
    this.name = graph.id?.value ?? '';
  }

  build(): GraphIR {
    this.walk(this.graph.children, { nodeDefaults: new Map(), edgeDefaults: new Map() }, this.graphAttrs);
    const rankdir = this.graphAttrs.get('rankdir')?.value.toUpperCase() ?? 'TB';
    // The root graph's label titles the whole drawing (cluster labels title their containers).
    // Blank lines around it only pushed Graphviz's title clear of the drawing; ours is drawn above it anyway.
    const title = this.text(this.graphAttrs.get('label'), {}).replace(/^\s*\n|\n\s*$/g, '');

    const invisible = new Set<string>();
    const nodes: GraphNode[] = [];
    for (const dotNode of this.nodes.values()) {
      const node = this.toNode(dotNode);
      if (node) nodes.push(node);
      else invisible.add(dotNode.id);
    }
    if (invisible.size > 0) this.warnings.push(`${invisible.size} invisible node(s) (style=invis) and their edges are not drawn`);
    for (const [dotShape, ids] of this.approximated) {
      const named = ids.slice(0, 5).map((id) => `"${id}"`).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');
      this.warnings.push(`shape "${dotShape}" is drawn as its nearest outline, ${mapShape(dotShape)} (${named})`);
    }

    const edges = this.toEdges(invisible);
    const groups: GraphGroup[] = [...this.clusters.values()].map((cluster) => ({
      id: cluster.id,
      label: this.text(cluster.attrs.get('label'), {}),
      kind: 'cluster',
      ...(cluster.parent !== undefined && { parent: cluster.parent }),
      ...optionalStyle(clusterStyle(cluster.attrs)),
    }));
    return {
      layout: 'layered',
      direction: RANKDIR[rankdir] ?? 'DOWN',
      ...(title.trim() !== '' && { title }),
      nodes,
      edges,
      groups,
      warnings: this.warnings,
      dot: dotLayoutSource(
        this.code,
        this.graph,
        this.edges.map((edge, k) => ({ tail: edge.from, head: edge.to, ...(this.edgeIds[k] !== undefined && { id: this.edgeIds[k] }) })),
      ),
    };
  }

  private walk(statements: ClusterStatementASTNode[], scope: Scope, ownAttrs: Attrs): void {
    // Defaults are scoped and apply from where they are set on, as in Graphviz; copies keep siblings apart.
    const local: Scope = { ...scope, nodeDefaults: new Map(scope.nodeDefaults), edgeDefaults: new Map(scope.edgeDefaults) };
    for (const statement of statements) {
      switch (statement.type) {
        case 'Attribute':
          ownAttrs.set(statement.key.value, valueOf(statement.value));
          break;
        case 'AttributeList': {
          const target = statement.kind === 'Node' ? local.nodeDefaults : statement.kind === 'Edge' ? local.edgeDefaults : ownAttrs;
          setAll(target, statement.children);
          break;
        }
        case 'Node': {
          const node = this.touch(statement.id.value, local);
          setAll(node.attrs, statement.children);
          break;
        }
        case 'Edge':
          this.addEdges(statement.targets, statement.children, local);
          break;
        case 'Subgraph':
          this.walkSubgraph(statement, local);
          break;
        case 'Comment':
          break;
      }
    }
  }

  private walkSubgraph(subgraph: SubgraphASTNode, scope: Scope): void {
    const name = subgraph.id?.value;
    // Graphviz draws a subgraph as a box only when its name starts with "cluster".
    if (name === undefined || !/^cluster/i.test(name)) {
      this.walk(subgraph.children, scope, new Map());
      return;
    }
    let cluster = this.clusters.get(name);
    if (!cluster) {
      cluster = { id: name, attrs: new Map(), ...(scope.cluster !== undefined && { parent: scope.cluster }) };
      this.clusters.set(name, cluster);
    }
    this.walk(subgraph.children, { ...scope, cluster: name }, cluster.attrs);
  }

  /** The node named `id`, created with the defaults in force on first mention; a mention inside a deeper cluster moves it there. */
  private touch(id: string, scope: Scope): DotNode {
    let node = this.nodes.get(id);
    if (!node) {
      node = { id, attrs: new Map(scope.nodeDefaults), ...(scope.cluster !== undefined && { cluster: scope.cluster }) };
      this.nodes.set(id, node);
    } else if (scope.cluster !== undefined && (node.cluster === undefined || this.isInside(scope.cluster, node.cluster))) {
      node.cluster = scope.cluster;
    }
    return node;
  }

  /**
   * The cluster an edge end is clipped at, as Graphviz does it: only under `compound=true`, and only when the cluster
   * holds the end's node and not the other end's (else Graphviz warns and draws the edge to the node).
   */
  private clippedAt(cluster: string | undefined, end: string, other: string): string | undefined {
    if (cluster === undefined || !this.clusters.has(cluster) || !/^(true|yes|[1-9]\d*)$/i.test(this.graphAttrs.get('compound')?.value ?? '')) return undefined;
    const holds = (node: string): boolean => {
      const inner = this.nodes.get(node)?.cluster;
      return inner !== undefined && (inner === cluster || this.isInside(inner, cluster));
    };
    return holds(end) && !holds(other) ? cluster : undefined;
  }

  private isInside(cluster: string, ancestor: string): boolean {
    for (let up = this.clusters.get(cluster)?.parent; up !== undefined; up = this.clusters.get(up)?.parent) if (up === ancestor) return true;
    return false;
  }

  private addEdges(targets: EdgeTargetASTNode[], attributes: ClusterStatementASTNode[], scope: Scope): void {
    const attrs = new Map(scope.edgeDefaults);
    setAll(attrs, attributes);
    const ends = targets.map((target) => (target.type === 'NodeRef' ? [target] : target.children));
    for (const group of ends) for (const ref of group) this.touch(ref.id.value, scope);
    for (let i = 1; i < ends.length; i++) {
      for (const from of ends[i - 1]!) {
        for (const to of ends[i]!) {
          this.edges.push({ from: from.id.value, to: to.id.value, attrs, ...portOf('fromPort', from), ...portOf('toPort', to) });
        }
      }
    }
  }

  private text(value: Value | undefined, context: { node?: string; edge?: string }): string {
    if (!value) return '';
    if (value.html) return htmlToText(value.value);
    return unescapeLabel(value.value, { ...context, graph: this.name });
  }

  /**
   * A node's text as header and rows (what exports draw), and its cells where Graphviz draws it as cells: an HTML
   * table whatever the shape (psg's Mrecord states), a record's fields, turned as the flow turns them.
   */
  private labelParts(node: DotNode, shape: string): LabelParts & { cells?: CellBlock } {
    const raw = node.attrs.get('label') ?? { value: '\\N', html: false };
    const context = { node: node.id, graph: this.name };
    if (raw.html && /<table/i.test(raw.value)) {
      const cells = htmlTable(raw.value, node.attrs.get('colorscheme')?.value);
      // The first row, all its lines, heads the others (git.gv's `changes<br/>in the working tree`).
      return { ...tableParts(raw.value), ...(cells && { cells }) };
    }
    if (shape === 'record' || shape === 'mrecord') {
      // Records run across a top-to-bottom flow and down a sideways one; each {} turns the other way.
      const rankdir = this.graphAttrs.get('rankdir')?.value.toUpperCase() ?? 'TB';
      const cells = recordCells(raw.html ? htmlRecordText(raw.value) : raw.value, rankdir !== 'LR' && rankdir !== 'RL', context);
      const [label = '', ...rest] = cellTexts(cells);
      return { label, rows: rest.flatMap((field) => field.split('\n')).filter((row) => row.trim() !== ''), cells };
    }
    return { label: this.text(raw, context), rows: [] };
  }

  private toNode(dotNode: DotNode): GraphNode | undefined {
    const { attrs } = dotNode;
    const style = parseStyle(attrs.get('style')?.value);
    if (style.invisible) return undefined;
    const dotShape = (attrs.get('shape')?.value ?? 'ellipse').toLowerCase();
    const shape = mapShape(dotShape);
    if (shape === undefined) this.warnings.push(`node "${dotNode.id}": shape "${dotShape}" is drawn as a rectangle`);
    else if (APPROXIMATE_SHAPES.has(dotShape)) {
      const ids = this.approximated.get(dotShape) ?? [];
      ids.push(dotNode.id);
      this.approximated.set(dotShape, ids);
    }
    const parts = this.labelParts(dotNode, dotShape);
    let { label } = parts;
    const { rows, cells } = parts;
    if (cells) this.ports.set(dotNode.id, new Set(cellPorts(cells)));
    const xlabel = attrs.get('xlabel');
    if (label === '' && rows.length === 0 && xlabel) label = this.text(xlabel, { node: dotNode.id });

    const color = attrs.has('color') ? mapColor(attrs.get('color')!.value, attrs.get('colorscheme')?.value) : undefined;
    const fill = attrs.has('fillcolor') ? mapColor(attrs.get('fillcolor')!.value, attrs.get('colorscheme')?.value) : undefined;
    const graphStyle: GraphStyle = {};
    // plain, plaintext and none are text without a border, and without a fill unless filled. The schema's stroke
    // colour is hex only: fully transparent black draws no outline.
    const outlineless = OUTLINELESS.has(dotShape);
    if (outlineless) graphStyle.strokeColor = '#00000000';
    else if (color) graphStyle.strokeColor = color;
    if (style.filled) graphStyle.fillColor = fill ?? color ?? '#d3d3d3';
    else if (outlineless) graphStyle.fillColor = 'transparent';
    if (style.strokeStyle) graphStyle.strokeStyle = style.strokeStyle;
    if (style.rounded || dotShape === 'mrecord') graphStyle.corner = 'rounded';
    const nodeWidth = strokeWidthOf(attrs.get('penwidth')?.value ?? style.lineWidth);
    if (nodeWidth !== undefined) graphStyle.strokeWidth = nodeWidth;
    const fontSize = fontSizeOf(attrs.get('fontsize')?.value, FONT.label);
    if (fontSize !== undefined) graphStyle.fontSize = fontSize;
    const fontColor = attrs.has('fontcolor') ? mapColor(attrs.get('fontcolor')!.value, attrs.get('colorscheme')?.value) : undefined;
    // Graphviz writes a label in its fontcolor, black unless set, whatever colour the outline is (ladder99's gray
    // outlines kept black words; drawn in the outline's gray they faded).
    if (fontColor) graphStyle.textColor = fontColor;
    else if (color) graphStyle.textColor = GRAPHVIZ_FONT_COLOR;
    Object.assign(graphStyle, emphasisOf(attrs.get('fontname')?.value, attrs.get('label')));
    // width and height are Graphviz's least size, in inches (72 points, our px): a box drawn wider than its label says so.
    const inches = (name: string) => {
      const value = Number(attrs.get(name)?.value);
      return Number.isFinite(value) && value > 0 ? value * POINTS_PER_INCH : undefined;
    };
    const least = { width: inches('width'), height: inches('height') };
    return {
      id: dotNode.id,
      label,
      kind: 'generic',
      shape: shape ?? 'rectangle',
      ...((least.width !== undefined || least.height !== undefined) && { leastSize: Object.fromEntries(Object.entries(least).filter(([, v]) => v !== undefined)) }),
      ...(rows.length > 0 && { rows }),
      ...(cells && { cells }),
      ...(dotNode.cluster !== undefined && { parent: dotNode.cluster }),
      ...optionalStyle(graphStyle),
    };
  }

  private toEdges(invisible: Set<string>): GraphEdge[] {
    const directed = this.graph.directed;
    const edges: GraphEdge[] = [];
    const strictIndex = new Map<string, number>();
    const unknownPorts = new Set<string>();
    let hidden = 0;
    for (const dotEdge of this.edges) {
      const { attrs } = dotEdge;
      const style = parseStyle(attrs.get('style')?.value);
      // lhead/ltail clip an edge at a cluster's border: we end the edge on the cluster itself. An invisible node
      // inside is then only the anchor (alfa's dependency graph joins its clusters through invisible `exit_` nodes),
      // and Graphviz draws the edge.
      const lhead = attrs.get('lhead')?.value;
      const ltail = attrs.get('ltail')?.value;
      const from = this.clippedAt(ltail, dotEdge.from, dotEdge.to) ?? dotEdge.from;
      const to = this.clippedAt(lhead, dotEdge.to, dotEdge.from) ?? dotEdge.to;
      if (style.invisible || invisible.has(from) || invisible.has(to)) {
        hidden += style.invisible ? 1 : 0;
        this.edgeIds.push(undefined);
        continue;
      }
      for (const [node, port] of [[dotEdge.from, dotEdge.fromPort], [dotEdge.to, dotEdge.toPort]] as const) {
        if (port !== undefined && !this.ports.get(node)?.has(port)) unknownPorts.add(`${node}:${port}`);
      }

      const dir = attrs.get('dir')?.value ?? (directed ? 'forward' : 'none');
      const head = mapArrowhead(attrs.get('arrowhead')?.value ?? 'normal');
      const tail = mapArrowhead(attrs.get('arrowtail')?.value ?? 'normal');
      const context = { edge: `${dotEdge.from}${directed ? '->' : '--'}${dotEdge.to}` };
      const label = this.text(attrs.get('label') ?? attrs.get('xlabel'), context);
      const headLabel = this.text(attrs.get('headlabel'), context);
      const tailLabel = this.text(attrs.get('taillabel'), context);
      const color = attrs.has('color') ? mapColor(attrs.get('color')!.value, attrs.get('colorscheme')?.value) : undefined;
      const width = strokeWidthOf(attrs.get('penwidth')?.value ?? style.lineWidth);
      const fontSize = fontSizeOf(attrs.get('fontsize')?.value, FONT.edgeLabel);
      const fontColor = label !== '' && attrs.has('fontcolor') ? mapColor(attrs.get('fontcolor')!.value, attrs.get('colorscheme')?.value) : undefined;
      const edge: GraphEdge = {
        id: `e${edges.length + 1}`,
        from,
        to,
        startArrowhead: dir === 'back' || dir === 'both' ? tail : 'none',
        endArrowhead: dir === 'forward' || dir === 'both' ? head : 'none',
        ...(label !== '' && { label }),
        ...(tailLabel !== '' && { startLabel: tailLabel }),
        ...(headLabel !== '' && { endLabel: headLabel }),
        ...((color || style.strokeStyle || width !== undefined || fontSize !== undefined || fontColor) && {
          style: {
            ...(color && { strokeColor: color }),
            ...(style.strokeStyle && { strokeStyle: style.strokeStyle }),
            ...(width !== undefined && { strokeWidth: width }),
            ...(fontSize !== undefined && { fontSize }),
            ...(fontColor && { textColor: fontColor }),
          },
        }),
      };
      if (this.graph.strict) {
        // strict: at most one edge per pair of ends (unordered when undirected); later attributes win.
        const key = directed || from <= to ? `${from}\u0000${to}` : `${to}\u0000${from}`;
        const seen = strictIndex.get(key);
        if (seen !== undefined) {
          edges[seen] = { ...edge, id: edges[seen]!.id };
          this.edgeIds.push(edges[seen]!.id);
          continue;
        }
        strictIndex.set(key, edges.length);
      }
      this.edgeIds.push(edge.id);
      edges.push(edge);
    }
    if (hidden > 0) this.warnings.push(`${hidden} invisible edge(s) (style=invis) are not drawn`);
    if (unknownPorts.size > 0) {
      const named = [...unknownPorts].slice(0, 5).join(', ') + (unknownPorts.size > 5 ? ` and ${unknownPorts.size - 5} more` : '');
      this.warnings.push(`edges to ports no record field or table cell names attach to the whole node (${named})`);
    }
    return edges;
  }
}

/** Graphviz's compass points: `node:n` names a side of the node, not a port, unless a cell is so named. */
const COMPASS = new Set(['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw', 'c', '_']);

/** The port an edge end names (`a:p1`, `a:p1:n`), leaving out a compass point alone (`a:n`). */
function portOf(key: 'fromPort' | 'toPort', ref: NodeRefASTNode): Partial<Record<'fromPort' | 'toPort', string>> {
  const port = ref.port?.value;
  return port === undefined || (ref.compass === undefined && COMPASS.has(port.toLowerCase())) ? {} : { [key]: port };
}

function setAll(target: Attrs, attributes: readonly ClusterStatementASTNode[]): void {
  for (const attribute of attributes) {
    if (attribute.type === 'Attribute') target.set((attribute as AttributeASTNode).key.value, valueOf((attribute as AttributeASTNode).value));
  }
}

function clusterStyle(attrs: Attrs): GraphStyle {
  const style = parseStyle(attrs.get('style')?.value);
  const scheme = attrs.get('colorscheme')?.value;
  const color = mapColor(attrs.get('pencolor')?.value ?? attrs.get('color')?.value ?? '', scheme);
  const fill = mapColor(attrs.get('fillcolor')?.value ?? attrs.get('bgcolor')?.value ?? (style.filled ? (attrs.get('color')?.value ?? 'lightgrey') : ''), scheme);
  return {
    ...(color && { strokeColor: color }),
    ...(fill && { fillColor: fill }),
    // Graphviz draws a cluster solid and square unless its style says otherwise.
    strokeStyle: style.strokeStyle ?? 'solid',
    corner: style.rounded ? 'rounded' : 'sharp',
  };
}

/**
 * DOT's penwidth (1 by default) as our stroke width (2 by default, 1–8): profilers (gprof2dot) encode cost in it, so
 * the ratio between edges is kept as far as the schema's range allows.
 */
function strokeWidthOf(penwidth: string | undefined): number | undefined {
  const value = penwidth === undefined ? NaN : Number(penwidth);
  return Number.isFinite(value) && value !== 1 ? Math.min(8, Math.max(1, Math.round(value * 2 * 10) / 10)) : undefined;
}

const optionalStyle = (style: GraphStyle) => (Object.keys(style).length > 0 ? { style } : {});
