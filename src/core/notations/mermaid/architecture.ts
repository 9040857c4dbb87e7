/**
 * Mermaid `architecture-beta` → GraphIR: services with their icons, groups nested with `in`, junctions as points where
 * lines meet, and edges whose written sides (`db:L -- R:server`) say where the other end goes (`server` left of `db`).
 */
import type { Direction, GraphEdge, GraphGroup, GraphIR, GraphNode } from '../../graph/types.js';
import { decodeMermaid } from './parser.js';
import { dictionary } from '../../dictionary.js';

interface ArchitectureService {
  id: string;
  icon?: string;
  iconText?: string;
  title?: string;
  in?: string;
}
interface ArchitectureEdge {
  lhsId: string;
  lhsDir: string;
  lhsInto?: boolean;
  rhsId: string;
  rhsDir: string;
  rhsInto?: boolean;
  title?: string;
}
export interface ArchitectureDb {
  getServices(): ArchitectureService[];
  getJunctions(): { id: string; in?: string }[];
  getGroups(): ArchitectureService[];
  getEdges(): ArchitectureEdge[];
  getDiagramTitle?(): string | undefined;
}

/** Mermaid's built-in icons, as the icons of our libraries that draw the same thing. */
const BUILT_IN_ICONS: Record<string, string> = dictionary({
  cloud: 'generic/Cloud',
  database: 'databases/Database',
  disk: 'generic/Storage',
  internet: 'generic/Internet',
  server: 'generic/Server',
});
/** The role a built-in icon tells, so the box takes its colour and outline. */
const ICON_KINDS: Record<string, GraphNode['kind']> = dictionary({ database: 'database', disk: 'storage', internet: 'external', cloud: 'external', server: 'service' });

/** `db:L -- R:server`: the side of the first end the line leaves from is where the second end is. */
const SIDES: Record<string, Direction> = dictionary({ L: 'LEFT', R: 'RIGHT', T: 'UP', B: 'DOWN' });

/** `logos:aws-s3` (an Iconify pack's icon) → `aws s3`, a keyword for our icon search. */
const iconKeyword = (icon: string): string => (icon.split(':').pop() ?? icon).replace(/[-_]+/g, ' ').trim();

function iconOf(target: { iconRef?: string; iconHint?: string }, icon: string | undefined): void {
  if (icon === undefined || icon === '') return;
  const builtIn = BUILT_IN_ICONS[icon];
  if (builtIn !== undefined) target.iconRef = builtIn;
  else target.iconHint = iconKeyword(icon);
}

export function architectureToGraph(db: ArchitectureDb): GraphIR {
  const groups: GraphGroup[] = db.getGroups().map((group) => ({
    id: group.id,
    label: decodeMermaid(group.title ?? group.id),
    kind: 'group',
    ...(group.in !== undefined && { parent: group.in }),
  }));
  const nodes: GraphNode[] = db.getServices().map((service) => {
    const node: GraphNode = { id: service.id, label: decodeMermaid(service.title ?? service.iconText ?? service.id), kind: ICON_KINDS[service.icon ?? ''] ?? 'service' };
    iconOf(node, service.icon);
    if (service.in !== undefined) node.parent = service.in;
    return node;
  });
  for (const junction of db.getJunctions()) {
    // A point where lines meet, drawn as a small dot (Mermaid draws it unseen).
    const node: GraphNode = { id: junction.id, label: '', kind: 'generic', size: { width: 10, height: 10 }, style: { fillColor: '#1e1e1e', strokeColor: '#1e1e1e' } };
    if (junction.in !== undefined) node.parent = junction.in;
    nodes.push(node);
  }
  const edges: GraphEdge[] = db.getEdges().map((line, index) => {
    const edge: GraphEdge = { id: `e${index + 1}`, from: line.lhsId, to: line.rhsId, startArrowhead: line.lhsInto ? 'arrow' : 'none', endArrowhead: line.rhsInto ? 'arrow' : 'none' };
    const toward = SIDES[line.lhsDir];
    if (toward !== undefined) edge.toward = toward;
    const label = decodeMermaid(line.title ?? '').trim();
    if (label !== '') edge.label = label;
    return edge;
  });
  const title = db.getDiagramTitle?.();
  // Mermaid's architecture diagrams have no flow: laid out along one axis and kept so, the side hints (across and
  // along) are the author's layout.
  return { layout: 'layered', direction: flowOf(db.getEdges()), forcedDirection: true, nodes, edges, groups, warnings: [], ...(title && { title: decodeMermaid(title) }) };
}

/**
 * The axis to lay an architecture out along. Lines along it may share a side of a service (`proxy:R --> L:local`,
 * `proxy:R --> L:github`): their other ends stack in the next layer. Lines across it are kept in one layer, so two
 * from one side of a service put one end beyond the other and the line to the far one arcs over the near one. The
 * axis with fewer such lines across it is taken; on a tie, the one more lines run along (downwards when even).
 */
function flowOf(lines: readonly ArchitectureEdge[]): Direction {
  const horizontal = (side: string) => side === 'L' || side === 'R';
  const sharingSide = (across: (line: ArchitectureEdge) => boolean) => {
    const ends = lines.filter(across).flatMap((line) => [`${line.lhsId}:${line.lhsDir}`, `${line.rhsId}:${line.rhsDir}`]);
    const count = new Map<string, number>();
    for (const end of ends) count.set(end, (count.get(end) ?? 0) + 1);
    return lines.filter(across).filter((line) => count.get(`${line.lhsId}:${line.lhsDir}`)! > 1 || count.get(`${line.rhsId}:${line.rhsDir}`)! > 1).length;
  };
  const acrossDown = sharingSide((line) => horizontal(line.lhsDir));
  const acrossRight = sharingSide((line) => !horizontal(line.lhsDir));
  if (acrossDown !== acrossRight) return acrossDown < acrossRight ? 'DOWN' : 'RIGHT';
  const along = lines.filter((line) => horizontal(line.lhsDir)).length;
  return along > lines.length - along ? 'RIGHT' : 'DOWN';
}
