/**
 * Folding: a large infrastructure graph drawn for reading. Above FOLD_NODES nodes (or DETAIL_FOLD_NODES when a third
 * of them is such detail), volumes, config, secrets and service accounts become rows on the workload that uses them;
 * above FOLD_NODES services wired exactly alike (sentry's twenty
 * Kafka consumers) become one node listing their names, their edges merged since each means the same thing; above
 * DETAIL_FOLD_NODES, a Terraform resource that only attaches to another (an ACL rule, a route, a route-table
 * association, an IAM grant, a secret's version) becomes a row on the resource it attaches to. A dense graph of SHARED_FOLD_NODES or more has its shared dependencies folded
 * too: a node most others depend on lists its users, and services that depend on one same set have one edge each to
 * a box of it (in a smaller graph, only a set whose edges are half the drawing). A large SQL schema names its reference hubs on the referencing columns instead of drawing a line from
 * each table (fold-references.ts). The warnings say what was folded; `detail: "full"` draws everything (issue 27:
 * 40–90 nodes drew 5,000–8,000 px wide, and a hub's 46 edges walled the OpenTelemetry demo).
 */
import { foldPlainColumns, READABLE_TABLE_AREA, tableArea } from './fold-columns.js';
import { foldEntityHubs, foldReferenceHubs, REFERENCE_HUB_TABLES } from './fold-references.js';
import type { GraphEdge, GraphIR, GraphNode, NodeKind, Notation } from './types.js';

export const DETAIL_LEVELS = ['auto', 'full'] as const;
export type Detail = (typeof DETAIL_LEVELS)[number];

/** Above this many nodes an infrastructure graph is folded (at 40 a README column still reads, READABLE_NODES). */
export const FOLD_NODES = 40;

/**
 * A smaller graph is folded too when its detail is a third or more of it (mailcow's 30 nodes, 13 of them volumes
 * shared by several services; netbox's 12, 6 of them volumes its three services mount alike, and Nextcloud's 13, 6
 * of them): the mounts' dashed lines and path labels would cross the whole drawing. Ten nodes or fewer still read
 * with every volume drawn.
 */
export const DETAIL_FOLD_NODES = 10;

/** The notations that describe deployments, whose volumes, config and secrets are detail of a workload. */
export const FOLDING_NOTATIONS: ReadonlySet<Notation> = new Set(['compose', 'kubernetes', 'helm', 'terraform']);

/** Detail kinds and the word a row on the owner calls them by. */
const DETAIL_NOUNS: Partial<Record<NodeKind, string>> = { storage: 'volume', config: 'config', secret: 'secret', user: 'account' };

/** Twins are merged only in runs of at least this many: two named boxes read better than one listing two names. */
const MIN_TWINS = 3;

/** The graph to draw at `detail`: folded when it is a large infrastructure graph and `detail` is auto. */
export function foldForReading(graph: GraphIR, notation: Notation, detail: Detail = 'auto'): GraphIR {
  const folded = foldByNotation(graph, notation, detail);
  return notation === 'terraform' ? titleSharedNames(folded) : folded;
}

function foldByNotation(graph: GraphIR, notation: Notation, detail: Detail): GraphIR {
  if (detail === 'auto' && notation === 'sql') return foldSchema(graph);
  if (detail === 'auto' && notation === 'mermaid' && isEntityDiagram(graph)) return foldEntities(graph);
  if (detail === 'full' || !FOLDING_NOTATIONS.has(notation) || graph.layout !== 'layered') return graph;
  const before = graph.nodes.length;
  const large = foldLarge(graph, notation);
  const sharedNodes = foldSharedDependencies(large.graph);
  const shared = foldSharedSets(sharedNodes.graph);
  const said = [...large.said, ...sharedNodes.said, ...shared.said];
  if (said.length === 0) return graph;
  const graphOut = dropEmptyGroups(shared.graph);
  const size = graphOut.nodes.length === before ? `${before} nodes drawn` : `${before} nodes drawn as ${graphOut.nodes.length}`;
  return {
    ...graphOut,
    warnings: [...graph.warnings, `${size} to stay readable: folded ${said.join(', and ')}; detail: "full" draws everything`],
  };
}

/**
 * Volumes, config and secrets, attachments and twins folded in a graph above DETAIL_FOLD_NODES; `said` what was.
 * Terraform's attachments are folded from there on (the Django-on-Cloud-Run module's 27 resources, 7 of them IAM
 * grants whose lines crossed it), detail only in a large graph or where it is a third of the nodes.
 */
function foldLarge(graph: GraphIR, notation: Notation): { graph: GraphIR; said: string[] } {
  const before = graph.nodes.length;
  if (before <= DETAIL_FOLD_NODES) {
    // A setting of one resource (a bucket's ACL and ownership controls) is part of it at any size: as boxes,
    // learn-terraform-lambda-api-gateway's one bucket stood as three, one depending on another.
    const settings = notation === 'terraform' ? foldAttachments(graph, { settingsOnly: true }) : { graph, folded: [] };
    return settings.folded.length === 0 ? { graph, said: [] } : { graph: settings.graph, said: [`${countBy(settings.folded)} into the resources they set, as rows`] };
  }
  const large = before > FOLD_NODES;
  const attachments = notation === 'terraform' ? foldAttachments(graph) : { graph, folded: [] };
  const foldsDetail = large || foldDetailNodes(graph).folded.length * 3 >= before;
  if (!foldsDetail && attachments.folded.length === 0) return { graph, said: [] };
  // Twins first, so a merged node lists its names before the rows of the detail folded into it.
  const twins = large ? foldTwins(attachments.graph) : { graph: attachments.graph, folded: 0, into: 0 };
  const details = foldsDetail ? foldDetailNodes(twins.graph) : { graph: twins.graph, folded: [] };
  const said = [
    ...(attachments.folded.length > 0 ? [`${countBy(attachments.folded)} into the resources they attach to, as rows`] : []),
    ...(details.folded.length > 0 ? [`${countBy(details.folded)} into the nodes that use them, as rows`] : []),
    ...(twins.folded > 0 ? [`${twins.folded} nodes wired exactly alike into ${twins.into}, each listing their names (their edges merged, as each meant the same)`] : []),
  ];
  return { graph: said.length === 0 ? graph : details.graph, said };
}

/** A graph this large and this dense (edges per node) has its shared dependencies folded (the OpenTelemetry demo: 20 services, 46 edges). */
export const SHARED_FOLD_NODES = 16;
export const SHARED_FOLD_DENSITY = 1.5;
/** A shared dependency is used by at least this many nodes, and by at least SHARED_USERS_SHARE of the graph's nodes. */
const SHARED_MIN_USERS = 6;
const SHARED_USERS_SHARE = 0.3;
/** A node only waited for (`depends_on`) by this many is folded whatever the graph's share (foldSharedDependencies). */
const MIN_AWAITING = 4;
/** A node this many others have an edge into is a shared dependency whatever the graph's size (foldSharedDependencies). */
const WALL_USERS = 8;
/** Names per line of a "used by" list: about the width of a service's box. */
const USERS_LINE_CHARS = 36;

/**
 * A shared dependency is a node nearly everything depends on and that depends on nothing itself (the telemetry
 * collector every service of the OpenTelemetry demo sends to, Sentry's Kafka): its edges cross the whole drawing, one
 * from each user, and hide the calls between the services. Each such edge means the same (one label or none, one
 * line style: Helm's ten "uses" into the OpenTelemetry demo's flagd), so they are merged into one "used by" list on
 * the dependency, which stays drawn as a node.
 */
function foldSharedDependencies(graph: GraphIR): { graph: GraphIR; said: string[] } {
  const dense = graph.nodes.length >= SHARED_FOLD_NODES && graph.edges.length >= SHARED_FOLD_DENSITY * graph.nodes.length;
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const meaning = (edge: GraphEdge) => JSON.stringify([edge.label ?? '', edge.style ?? {}, edge.startArrowhead ?? '', edge.endArrowhead ?? '', edge.hidden ?? false]);
  const minUsers = Math.max(SHARED_MIN_USERS, Math.ceil(SHARED_USERS_SHARE * graph.nodes.length));
  const shared = new Set<string>();
  for (const node of graph.nodes) {
    const into = graph.edges.filter((edge) => edge.to === node.id);
    const users = new Set(into.map((edge) => edge.from));
    // A prerequisite only waited for (Terraform's `depends_on` on the module enabling a project's APIs, from seven
    // resources) says an order, not an architecture: its lines crossed a 26-resource root 3,128 px wide (1,955 without).
    const awaited = into.every((edge) => edge.label === DEPENDS_ON) && users.size >= MIN_AWAITING;
    // Or a fan of WALL_USERS lines into one node in a graph of any size (Supabase's analytics, which eight of its
    // thirteen services wait for): one line from it to what it uses stays beside its list.
    const wall = users.size >= WALL_USERS;
    if (!wall && (!dense || (users.size < minUsers && !awaited) || graph.edges.some((edge) => edge.from === node.id))) continue;
    if (new Set(into.map(meaning)).size !== 1 || users.has(node.id)) continue;
    shared.add(node.id);
  }
  // Not every node: then nothing would be left to draw but lists.
  if (shared.size === 0) return { graph, said: [] };
  const folded = graph.edges.filter((edge) => shared.has(edge.to));
  if (folded.length === graph.edges.length) return { graph, said: [] };
  const awaitedOnly = (id: string) => folded.every((edge) => edge.to !== id || edge.label === DEPENDS_ON);
  const nodes = graph.nodes.map((node) => {
    if (!shared.has(node.id)) return node;
    const users = [...new Set(folded.filter((edge) => edge.to === node.id).map((edge) => nameOf(byId.get(edge.from)) ?? edge.from))];
    return { ...node, rows: [...(node.rows ?? []), `${awaitedOnly(node.id) ? 'awaited by' : 'used by'} ${users.length}:`, ...linesOf(users)] };
  });
  const said = (ids: string[], what: string) => {
    const count = folded.filter((edge) => ids.includes(edge.to)).length;
    return ids.length === 0 ? [] : [`the ${count} edges into ${ids.map((id) => byId.get(id)!.label).join(', ')}, ${what}`];
  };
  const awaited = [...shared].filter(awaitedOnly);
  return {
    graph: { ...graph, nodes, edges: graph.edges.filter((edge) => !shared.has(edge.to)) },
    said: [
      ...said([...shared].filter((id) => !awaitedOnly(id)), 'which most nodes use, into a "used by" list on each (each edge meant the same: depends on it)'),
      ...said(awaited, 'only waited for (depends_on), into an "awaited by" list on each'),
    ],
  };
}

/**
 * A large schema drawn for reading: its reference hubs' foreign keys named on their columns (fold-references.ts),
 * above FOLD_NODES tables or when its tables in full are more than a readable page holds (fold-columns.ts) the
 * columns that are not keys counted under the keys, and the one schema that holds every table (pg_dump's `public`)
 * named as the title instead of a box round everything, so the tables' unconnected groups are packed in rows (pack.ts)
 * rather than stacked in one column 5,000 px tall.
 */
function foldSchema(graph: GraphIR): GraphIR {
  const { graph: hubbed, hubs, legend = [] } = foldReferenceHubs(graph);
  const said = hubs.map(({ label, references, tables }) => `the ${references} foreign keys of ${tables} tables to ${label} are named on their columns ("→ ${label}") instead of drawn as lines`);
  if (legend.length > 0) said.push(`columns that refer to a hub in many tables are named with it once, under the title ("${legend.join('", "')}"), their rows marked FK only`);
  const { graph: folded, columns, tables } = tooLargeInFull(hubbed) ? foldPlainColumns(hubbed) : { graph: hubbed, columns: 0, tables: 0 };
  if (columns > 0) said.push(`the ${columns} columns of ${tables} tables that are not keys are counted in one row under each table's keys`);
  const warnings = said.length === 0 ? graph.warnings : [...graph.warnings, `${graph.nodes.length} tables drawn to stay readable: ${said.join(', and ')}; detail: "full" draws every ${columns > 0 ? 'column and line' : 'line'}`];
  const [only] = folded.groups;
  const oneSchema = graph.nodes.length > REFERENCE_HUB_TABLES && folded.groups.length === 1 && only!.kind === 'schema' && folded.title === undefined && folded.nodes.every((node) => node.parent === only!.id);
  // The shared marks' legend, a line each under the title (export/folded-rows.ts reads them back).
  const titled = (title: string | undefined) => (legend.length === 0 ? title : [...(title === undefined ? [] : [title]), ...legend].join('\n'));
  if (!oneSchema) return said.length === 0 ? graph : { ...folded, warnings, ...(legend.length > 0 && { title: titled(folded.title) }) };
  return {
    ...folded,
    title: titled(`schema ${only!.label}`),
    groups: [],
    nodes: folded.nodes.map(({ parent: _, ...node }) => node),
    warnings,
  };
}

/** Above FOLD_NODES tables, or tables that in full need more room than a readable page has (READABLE_TABLE_AREA). */
const tooLargeInFull = (graph: GraphIR): boolean => graph.nodes.length > FOLD_NODES || tableArea(graph) > READABLE_TABLE_AREA;

/** A Mermaid ER diagram: every node an entity, its attributes rows marked as SQL columns are (mermaid/er.ts). */
const isEntityDiagram = (graph: GraphIR): boolean => graph.nodes.length > 0 && graph.nodes.every((node) => node.kind === 'entity');

/**
 * A large Mermaid ER diagram drawn for reading, as a schema is (foldSchema): its reference hubs named on the attributes
 * that refer to them (fold-references.ts), and when too large to read in full its entities' attributes that are not
 * keys counted under the keys; the other relationships are all drawn, each with its own label.
 */
function foldEntities(graph: GraphIR): GraphIR {
  const { graph: hubbed, hubs, verbs } = foldEntityHubs(graph);
  const said = hubs.map(({ label, references, tables }) => {
    const labels = verbs.get(label)!;
    return `the ${references} relationships of ${tables} entities with ${label}${labels.length > 0 ? ` (${labels.map((verb) => `"${verb}"`).join(', ')})` : ''} are named on their attributes that refer to it ("→ ${label}") instead of drawn as lines`;
  });
  const { graph: folded, columns, tables } = tooLargeInFull(hubbed) ? foldPlainColumns(hubbed, 'attributes') : { graph: hubbed, columns: 0, tables: 0 };
  if (columns > 0) said.push(`the ${columns} attributes of ${tables} entities that are not keys are counted in one row under each entity's keys`);
  if (said.length === 0) return graph;
  return {
    ...folded,
    warnings: [...graph.warnings, `${graph.nodes.length} entities drawn to stay readable: ${said.join(', and ')}; detail: "full" draws every ${columns > 0 ? 'attribute and line' : 'line'}`],
  };
}

/** Sources and targets of a shared set: fewer edges than SHARED_SET_EDGES (sources × targets) are drawn as they are. */
const SHARED_SET_MIN_SOURCES = 2;
const SHARED_SET_MIN_TARGETS = 3;
const SHARED_SET_EDGES = 9;
/** Below SHARED_FOLD_NODES nodes, a shared set is folded only when its edges are at least 1 / this of all the edges. */
const SMALL_WALL_SHARE = 2;

/**
 * Services that each depend on the same set of others (Sentry's web, its consumers and its cleanup, all of them on
 * the seven services of `x-sentry-defaults`) draw sources × targets edges, a wall of parallel runs. The targets go in a
 * box saying who uses them and each source has one edge to the box, which means what its edges meant: it depends on
 * every service in it (edges of one meaning only, as Graphviz's `concentrate` merges them).
 */
function foldSharedSets(graph: GraphIR): { graph: GraphIR; said: string[] } {
  const small = graph.nodes.length < SHARED_FOLD_NODES;
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const meaning = (edge: GraphEdge) => JSON.stringify([edge.label ?? '', edge.style ?? {}, edge.startArrowhead ?? '', edge.endArrowhead ?? '', edge.hidden ?? false]);
  const outOf = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) if (edge.from !== edge.to && byId.has(edge.from) && byId.has(edge.to)) outOf.set(edge.from, [...(outOf.get(edge.from) ?? []), edge]);
  const classes = new Map<string, { sources: string[]; targets: string[]; edge: GraphEdge }>();
  for (const [from, edges] of outOf) {
    if (new Set(edges.map(meaning)).size !== 1 || edges[0]!.label !== undefined) continue;
    const targets = [...new Set(edges.map((edge) => edge.to))].sort();
    const key = JSON.stringify(targets);
    const known = classes.get(key);
    if (known) known.sources.push(from);
    else classes.set(key, { sources: [from], targets, edge: edges[0]! });
  }
  const sets = [...classes.values()]
    .filter(({ sources, targets }) => sources.length >= SHARED_SET_MIN_SOURCES && targets.length >= SHARED_SET_MIN_TARGETS && sources.length * targets.length >= SHARED_SET_EDGES)
    // In a smaller graph only a wall that is most of the drawing: Zammad's five services that share one anchor's
    // `depends_on` drew 15 of its 19 edges to the same three stores.
    .filter(({ sources, targets }) => !small || sources.length * targets.length * SMALL_WALL_SHARE >= graph.edges.length)
    .filter(({ sources, targets }) => new Set(targets.map((id) => byId.get(id)!.parent)).size === 1 && !targets.some((id) => sources.includes(id)))
    .sort((a, b) => b.sources.length * b.targets.length - a.sources.length * a.targets.length);
  const boxOf = new Map<string, string>();
  const groups = [...graph.groups];
  const removed = new Set<string>();
  const added: GraphEdge[] = [];
  const said: string[] = [];
  for (const { sources, targets, edge } of sets) {
    if (targets.some((id) => boxOf.has(id)) || sources.some((id) => boxOf.has(id))) continue;
    const box = `shared:${groups.length}`;
    const users = sources.map((id) => nameOf(byId.get(id))!);
    groups.push({ id: box, label: `used by ${users.join(', ')}`, kind: 'shared', ...(byId.get(targets[0]!)!.parent !== undefined && { parent: byId.get(targets[0]!)!.parent }) });
    for (const id of targets) boxOf.set(id, box);
    for (const from of sources) {
      for (const out of outOf.get(from)!) removed.add(out.id);
      const { id: _id, to: _to, ...rest } = edge;
      added.push({ ...rest, id: `${from}->${box}`, from, to: box });
    }
    said.push(`the ${sources.length * targets.length} edges from ${users.join(', ')} to the ${targets.length} nodes each of them depends on into one edge each to a box of those (each edge meant the same: depends on it)`);
  }
  if (said.length === 0) return { graph, said };
  return {
    graph: {
      ...graph,
      nodes: graph.nodes.map((node) => (boxOf.has(node.id) ? { ...node, parent: boxOf.get(node.id)! } : node)),
      edges: [...graph.edges.filter((edge) => !removed.has(edge.id)), ...added],
      groups,
    },
    said,
  };
}

/** A node's name in a list of names: its label's first line (a Compose service's ports are on the next). */
const nameOf = (node: GraphNode | undefined): string | undefined => node?.label.split('\n')[0];

/** Names joined into lines of about USERS_LINE_CHARS characters. */
export function linesOf(names: readonly string[]): string[] {
  const lines: string[] = [];
  for (const name of names) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + name.length + 2 <= USERS_LINE_CHARS) lines[lines.length - 1] = `${last}, ${name}`;
    else lines.push(name);
  }
  return lines.map((line, i) => (i < lines.length - 1 ? `${line},` : line));
}

/** "22 volumes, 3 secrets" */
function countBy(nouns: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const noun of nouns) counts.set(noun, (counts.get(noun) ?? 0) + 1);
  return [...counts].map(([noun, n]) => `${n} ${noun}${n === 1 ? '' : 's'}`).join(', ');
}

/**
 * A detail node is only used: every edge touching it comes into it. A storage node must be reached by mounts
 * (dashed), so a storage service others call (SeaweedFS, MinIO) stays a node.
 */
function foldDetailNodes(graph: GraphIR): { graph: GraphIR; folded: string[] } {
  const edgesOf = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) for (const end of [edge.from, edge.to]) edgesOf.set(end, [...(edgesOf.get(end) ?? []), edge]);
  const detail = new Map<string, GraphNode>();
  for (const node of graph.nodes) {
    const edges = edgesOf.get(node.id) ?? [];
    if (DETAIL_NOUNS[node.kind] === undefined || edges.length === 0 || edges.some((e) => e.to !== node.id || e.from === node.id)) continue;
    if (node.kind === 'storage' && edges.some((e) => e.style?.strokeStyle !== 'dashed')) continue;
    detail.set(node.id, node);
  }
  const rows = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const used = detail.get(edge.to);
    if (used === undefined || detail.has(edge.from)) continue;
    // What the line into it said (a mount path), else what the detail says of itself (a path all its users share).
    const said = edge.label ?? (used.rows !== undefined && used.rows.length > 0 ? used.rows.join(', ') : undefined);
    const row = `${DETAIL_NOUNS[used.kind]!} ${used.label}${said ? ` (${said})` : ''}`;
    rows.set(edge.from, [...(rows.get(edge.from) ?? []), row]);
  }
  return {
    graph: {
      ...graph,
      nodes: graph.nodes.filter((node) => !detail.has(node.id)).map((node) => (rows.has(node.id) ? { ...node, rows: [...(node.rows ?? []), ...rows.get(node.id)!] } : node)),
      edges: graph.edges.filter((edge) => !detail.has(edge.to)),
    },
    folded: [...detail.values()].map((node) => DETAIL_NOUNS[node.kind]!),
  };
}

/**
 * Terraform resource types that attach to another resource rather than stand on their own: `aws_network_acl_rule`,
 * `aws_route`, `aws_route_table_association`, `aws_vpn_gateway_route_propagation`, `*_policy_attachment`, and the
 * IAM grants on a resource or to an account (`google_secret_manager_secret_iam_binding`, `google_project_iam_member`,
 * `google_cloud_run_service_iam_policy`), a secret's value (`google_secret_manager_secret_version`)…
 */
const ATTACHMENT_TYPE = /_(rule|route|association|attachment|propagation|iam_binding|iam_member|iam_policy|secret_version)$/;

/**
 * A row saying how many of a resource there are (notations/terraform `repetition`: `× 3`, `if var.create`, `one per
 * var.rules`): a folded attachment's is not carried to its owner, where it cut an expression into every rule's row.
 */
const REPETITION_ROW = /^(× |if |one per |count$|for_each$)/;

/** The label Terraform's explicit `depends_on` edges carry (notations/terraform): an order, not a use. */
const DEPENDS_ON = 'depends on';

/** A resource's type, from its address (`aws_route.private`, `module.vpc.aws_route.private`). */
const resourceType = (address: string) => address.split('.').at(-2) ?? '';
/** A resource's name, from its address (`private` of `aws_route.private`). */
const addressName = (address: string) => address.split('.').at(-1) ?? '';

/**
 * Terraform boxes drawn under a name another drawn box has, titled by their address instead, which says the type the
 * row under the name did: terraform-aws-modules call nearly every resource `this` (Aurora's cluster, parameter
 * groups, security group and autoscaling policy stood as nine boxes and table headers titled "this"). Named among
 * what is drawn, so a setting folded into its resource leaves that resource its name.
 */
function titleSharedNames(graph: GraphIR): GraphIR {
  const named = (node: GraphNode) => !node.id.startsWith('module.') && node.label === addressName(node.id);
  const count = new Map<string, number>();
  for (const node of graph.nodes) if (named(node)) count.set(node.label, (count.get(node.label) ?? 0) + 1);
  const shared = (node: GraphNode) => named(node) && count.get(node.label)! > 1;
  if (!graph.nodes.some(shared)) return graph;
  const typeRows = (id: string) => [resourceType(id), `data ${resourceType(id)}`];
  return {
    ...graph,
    nodes: graph.nodes.map((node) => (shared(node) ? { ...node, label: node.id, rows: (node.rows ?? []).filter((row, at) => at > 0 || !typeRows(node.id).includes(row)) } : node)),
  };
}

/**
 * A resource type that extends the type of `owner`, one of the resources it refers to (`aws_s3_bucket_versioning`
 * on `aws_s3_bucket`), as a setting of it; not a join naming another of them (`google_gke_hub_feature_membership`
 * between a hub feature and a `google_gke_hub_membership`: drawn, it keeps the two apart).
 */
function extendsType(type: string, owner: string, targets: readonly string[]): boolean {
  if (!type.startsWith(`${resourceType(owner)}_`)) return false;
  const suffix = type.slice(resourceType(owner).length);
  return !targets.some((to) => to !== owner && resourceType(to).endsWith(suffix));
}

/** How many leading `_`-words two resource types share (`aws_route`, `aws_route_table`: 2). */
function sharedWords(a: string, b: string): number {
  const [left, right] = [a.split('_'), b.split('_')];
  let n = 0;
  while (n < left.length && n < right.length && left[n] === right[n]) n++;
  return n;
}

/**
 * `settingsOnly`: only types that extend their owner's (a bucket's versioning), not the attachments of ATTACHMENT_TYPE.
 * Terraform attachments that nothing drawn refers to (but for a `depends_on`, then moved to the owner: a Cloud Run
 * service waits for its secret's version) become rows on their owner: of the resources one refers to, the one
 * whose type it extends (a rule's ACL, a route's or association's route table, a bucket's versioning), or the only
 * one (a project's role granted to one service account). Settings of one owner may refer to each other (an S3
 * bucket's ownership controls to its policy): both are rows on it. The row names the attachment (not again when it
 * has its owner's name), what it said of itself that its owner does not (the policy documents it reads, not how
 * many of it there are) and what else it refers to, and the owner keeps an edge to each of those, so every
 * dependency stays drawn, once.
 */
function foldAttachments(graph: GraphIR, { settingsOnly = false } = {}): { graph: GraphIR; folded: string[] } {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const owners = new Map<string, string>();
  for (const node of graph.nodes) {
    const type = resourceType(node.id);
    const targets = graph.edges.filter((edge) => edge.from === node.id).map((edge) => edge.to);
    if (node.id.startsWith('data.') || targets.length === 0 || targets.some((to) => !byId.has(to))) continue;
    if ((settingsOnly || !ATTACHMENT_TYPE.test(type)) && !targets.some((to) => extendsType(type, to, targets))) continue;
    // Most words shared, then the shortest type: `aws_vpn_gateway` over `aws_vpn_gateway_attachment`.
    const owner = [...targets].sort((a, b) => sharedWords(type, resourceType(b)) - sharedWords(type, resourceType(a)) || resourceType(a).length - resourceType(b).length)[0]!;
    if (targets.length > 1 && sharedWords(type, resourceType(owner)) < 2) continue;
    owners.set(node.id, owner);
  }
  // What something drawn refers to stays drawn; a reference from a setting of the same owner stays inside it.
  for (let changed = true; changed; ) {
    changed = false;
    for (const edge of graph.edges) {
      const owner = owners.get(edge.to);
      if (owner === undefined || edge.label === DEPENDS_ON || owners.get(edge.from) === owner) continue;
      owners.delete(edge.to);
      changed = true;
    }
  }
  // An attachment's owner that is itself folded keeps it drawn: no row on a row.
  for (const [id, owner] of owners) if (owners.has(owner)) owners.delete(id);
  // A container (a subnet) keeps one member, so it and the edges to it stay drawn.
  for (const group of graph.groups) {
    const members = [...graph.nodes.filter((node) => node.parent === group.id).map((node) => node.id), ...graph.groups.filter((inner) => inner.parent === group.id).map((inner) => inner.id)];
    if (members.length > 0 && members.every((id) => owners.has(id))) owners.delete(members[0]!);
  }
  if (owners.size === 0) return { graph, folded: [] };
  const rows = new Map<string, string[]>();
  const kept: GraphEdge[] = [];
  const keys = new Set<string>();
  const folded: string[] = [];
  for (const [id, owner] of owners) {
    const type = resourceType(id);
    const noun = type.split('_').slice(Math.min(sharedWords(type, resourceType(owner)), type.split('_').length - 1)).join(' ');
    const others = [...new Set(graph.edges.filter((edge) => edge.from === id && edge.to !== owner && owners.get(edge.to) !== owner).map((edge) => owners.get(edge.to) ?? edge.to))];
    const { label, rows: own = [] } = byId.get(id)!;
    // Others by address: their labels are names like `this`, which say nothing away from their box.
    const said = own.slice(1).filter((text) => !REPETITION_ROW.test(text) && !(byId.get(owner)!.rows ?? []).includes(text));
    const row = `${noun}${label === byId.get(owner)!.label ? '' : ` ${label}`}${said.length > 0 ? ` (${said.join(' ')})` : ''}${others.length > 0 ? ` → ${others.join(', ')}` : ''}`;
    rows.set(owner, [...(rows.get(owner) ?? []), row]);
    folded.push(noun);
    for (const other of others) {
      const key = JSON.stringify([owner, other]);
      if (keys.has(key) || graph.edges.some((edge) => edge.from === owner && edge.to === other)) continue;
      keys.add(key);
      kept.push({ id: `${owner}->${other}`, from: owner, to: other });
    }
  }
  const edges: GraphEdge[] = [];
  for (const edge of [...graph.edges.filter((edge) => !owners.has(edge.from)), ...kept]) {
    const to = owners.get(edge.to);
    if (to === undefined) edges.push(edge);
    else if (to !== edge.from && !edges.some((other) => other.from === edge.from && other.to === to)) edges.push({ ...edge, id: `${edge.from}->${to}`, to });
  }
  return {
    graph: {
      ...graph,
      nodes: graph.nodes.filter((node) => !owners.has(node.id)).map((node) => (rows.has(node.id) ? { ...node, rows: [...(node.rows ?? []), ...rows.get(node.id)!] } : node)),
      edges,
    },
    folded,
  };
}

/** Nodes alike in kind, container, rows, icon and every edge (other end, label, direction) are twins. */
function foldTwins(graph: GraphIR): { graph: GraphIR; folded: number; into: number } {
  const wiring = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const say = (edge: GraphEdge, other: string, way: string) => JSON.stringify([way, other, edge.label ?? '', edge.style ?? {}, edge.startArrowhead ?? '', edge.endArrowhead ?? '']);
    wiring.set(edge.from, [...(wiring.get(edge.from) ?? []), say(edge, edge.to, 'to')]);
    wiring.set(edge.to, [...(wiring.get(edge.to) ?? []), say(edge, edge.from, 'from')]);
  }
  const classes = new Map<string, GraphNode[]>();
  for (const node of graph.nodes) {
    const edges = wiring.get(node.id);
    if (edges === undefined) continue;
    const key = JSON.stringify([node.kind, node.parent ?? '', node.rows ?? [], node.shape ?? '', node.iconRef ?? '', node.iconHint ?? '', node.style ?? {}, [...edges].sort()]);
    classes.set(key, [...(classes.get(key) ?? []), node]);
  }
  const mergedInto = new Map<string, GraphNode>();
  let folded = 0;
  let into = 0;
  for (const twins of classes.values()) {
    if (twins.length < MIN_TWINS) continue;
    const [first] = twins as [GraphNode, ...GraphNode[]];
    const names = twins.map((twin) => twin.label);
    const prefix = commonPrefix(names);
    const label = prefix === undefined ? `${twins.length} ${first.kind}s` : `${prefix}* (${twins.length})`;
    const merged: GraphNode = { ...first, label, rows: [...(first.rows ?? []), ...names] };
    for (const twin of twins) mergedInto.set(twin.id, merged);
    folded += twins.length;
    into++;
  }
  if (folded === 0) return { graph, folded, into };
  // Each twin's edges are the first twin's, repeated: the first twin's stand for all of them.
  const kept = (id: string) => mergedInto.get(id) === undefined || mergedInto.get(id)!.id === id;
  return {
    graph: {
      ...graph,
      nodes: graph.nodes.filter((node) => kept(node.id)).map((node) => mergedInto.get(node.id) ?? node),
      edges: graph.edges.filter((edge) => kept(edge.from) && kept(edge.to)),
    },
    folded,
    into,
  };
}

/** The names' common start up to a separator when it names something (`snuba-`). */
function commonPrefix(names: readonly string[]): string | undefined {
  let prefix = names[0]!;
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const word = prefix.replace(/[^-_./]*$/, '');
  return word.length >= 3 ? word : undefined;
}

/** Containers left with nothing in them after folding (a Compose network that only held volumes) are not drawn. */
function dropEmptyGroups(graph: GraphIR): GraphIR {
  let groups = graph.groups;
  for (;;) {
    const used = new Set([...graph.nodes.map((node) => node.parent), ...groups.map((group) => group.parent)]);
    const left = groups.filter((group) => used.has(group.id));
    if (left.length === groups.length) return { ...graph, groups };
    groups = left;
  }
}
