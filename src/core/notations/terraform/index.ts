import { AppError } from '../../errors.js';
import type { GraphEdge, GraphGroup, GraphIR, GraphNode, NotationConverter } from '../../graph/types.js';
import { linesOf } from '../../graph/fold.js';
import { isRecord } from '../yaml.js';
import { locateHclError, parseHcl } from './hcl.js';
import { CONTAINER_ATTRIBUTES, kindOfType, TERRAFORM_ICONS } from './providers.js';

/** A resource, data source or module, by its Terraform address (`aws_vpc.this`, `data.aws_ami.ubuntu`, `module.vpc`). */
interface Block {
  address: string;
  type: string;
  name: string;
  body: Record<string, unknown>;
}

/** Top-level blocks start at column 0 in real files; indented look-alikes are embedded text (a logstash config). */
// Labels stop at a line end: a label that ran on would rescan to the next quote from every line (quadratic).
const BLOCK_START = /^(resource|data|module)[ \t]+"[^"\n]+"([ \t]+"[^"\n]+")?[ \t]*\{/m;
const OTHER_BLOCK = /^((variable|output|provider)[ \t]+"[^"\n]+"|terraform|locals)[ \t]*\{/m;

/**
 * Terraform addresses inside an expression. hcl2json writes every expression as `${…}`, so only strings holding one
 * are read. `resource.` is Terraform's optional prefix (`depends_on = [resource.null_resource.x]`).
 */
const ADDRESS = /(?<![\w.-])(?:resource\.)?(data\.[a-z][\w-]*\.[\w-]+|module\.[\w-]+|local\.[\w-]+|[a-z][a-z0-9]*_[\w-]*\.[A-Za-z_][\w-]*)/g;
const TERRAFORM_PROVIDERS = /^(aws|google|azurerm|azuread|kubernetes|helm|null|random|tls|local|http|time|cloudflare|digitalocean)_/;

export const terraformNotation: NotationConverter = {
  id: 'terraform',
  detect(code) {
    if (BLOCK_START.test(code)) return 0.9;
    return OTHER_BLOCK.test(code) ? 0.6 : 0;
  },
  toGraph(code) {
    const parsed = parseHcl(code);
    const blocks = collectBlocks(parsed);
    if (blocks.length === 0) {
      throw new AppError('parse_error', 'line 1, column 1: expected resource, data or module blocks', { line: 1, column: 1 });
    }
    // A block that creates nothing is no part of the system: terraform-aws-modules' examples each call the module
    // again with `create = false` (`ecs_disabled`, `service_disabled`) to test that switch, and the ECS example drew
    // three boxes for them beside the cluster.
    const idle = blocks.filter(createsNothing);
    const drawn = blocksToGraph(blocks.filter((block) => !idle.includes(block)), localReferences(parsed), providerReads(parsed), new Set(idle.map((block) => block.address)));
    if (idle.length > 0) drawn.warnings.push(`${idle.map((block) => `${block.address} (${'count' in block.body ? 'count = 0' : 'create = false'})`).join(', ')}: create${idle.length === 1 ? 's' : ''} nothing; not drawn`);
    return drawn;
  },
  locateError: locateHclError,
};

function collectBlocks(parsed: Record<string, unknown>): Block[] {
  const blocks: Block[] = [];
  const bodies = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);
  for (const [prefix, section] of [['', parsed.resource], ['data.', parsed.data]] as const) {
    if (!isRecord(section)) continue;
    for (const [type, named] of Object.entries(section)) {
      if (!isRecord(named)) continue;
      for (const [name, body] of Object.entries(named)) {
        blocks.push({ address: `${prefix}${type}.${name}`, type, name, body: Object.assign({}, ...bodies(body)) as Record<string, unknown> });
      }
    }
  }
  if (isRecord(parsed.module)) {
    for (const [name, body] of Object.entries(parsed.module)) {
      blocks.push({ address: `module.${name}`, type: 'module', name, body: Object.assign({}, ...bodies(body)) as Record<string, unknown> });
    }
  }
  return blocks;
}

/** Addresses written in an expression tree (strings holding `${…}`), in order of appearance. */
function addressesIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('${')) for (const match of value.matchAll(ADDRESS)) out.push(match[1]!);
  } else if (Array.isArray(value)) value.forEach((v) => addressesIn(v, out));
  else if (isRecord(value)) Object.values(value).forEach((v) => addressesIn(v, out));
  return out;
}

/** The addresses each provider block reads (`provider "kubernetes" { token = data.google_client_config.default… }`), by provider name. */
function providerReads(parsed: Record<string, unknown>): Map<string, string[]> {
  const reads = new Map<string, string[]>();
  if (!isRecord(parsed.provider)) return reads;
  for (const [name, body] of Object.entries(parsed.provider)) reads.set(name, addressesIn(body));
  return reads;
}

/** Each local's addresses with other locals expanded, so `vpc_id = local.vpc_id` still reaches `aws_vpc.this`. */
function localReferences(parsed: Record<string, unknown>): Map<string, string[]> {
  const raw = new Map<string, string[]>();
  for (const locals of Array.isArray(parsed.locals) ? parsed.locals.filter(isRecord) : []) {
    for (const [name, value] of Object.entries(locals)) raw.set(`local.${name}`, addressesIn(value));
  }
  const resolved = new Map<string, string[]>();
  const resolve = (name: string, seen: Set<string>): string[] => {
    if (resolved.has(name)) return resolved.get(name)!;
    if (seen.has(name)) return [];
    seen.add(name);
    const out = (raw.get(name) ?? []).flatMap((a) => (a.startsWith('local.') ? resolve(a, seen) : [a]));
    resolved.set(name, out);
    return out;
  };
  for (const name of raw.keys()) resolve(name, new Set());
  return resolved;
}

/** `count = 0`, or a module's `create = false` (terraform-aws-modules' switch for everything the module makes). */
const createsNothing = (block: Block): boolean => block.body.count === 0 || (block.type === 'module' && block.body.create === false);

/** `idle`: addresses of blocks left out for creating nothing, so a reference to one is no missing declaration. */
function blocksToGraph(blocks: Block[], locals: Map<string, string[]>, providers: ReadonlyMap<string, string[]>, idle: ReadonlySet<string>): GraphIR {
  const byAddress = new Map(blocks.map((b) => [b.address, b]));
  const refs = (value: unknown): string[] =>
    [...new Set(addressesIn(value).flatMap((a) => (a.startsWith('local.') ? (locals.get(a) ?? []) : [a])))];

  // Containment first: it decides which blocks are drawn as containers.
  const parentOf = new Map<string, string>();
  for (const block of blocks) {
    for (const { attribute, types } of CONTAINER_ATTRIBUTES) {
      const container = refs(block.body[attribute]).find((a) => a !== block.address && types.includes(byAddress.get(a)?.type ?? ''));
      if (container) {
        parentOf.set(block.address, container);
        break;
      }
    }
  }
  const containers = new Set(parentOf.values());
  // A container placed inside one of its own contents would loop; such a pair keeps only the outer placement.
  for (const [child, parent] of parentOf) if (parentOf.get(parent) === child) parentOf.delete(parent);

  const groups: GraphGroup[] = [];
  const nodes: GraphNode[] = [];
  for (const block of blocks) {
    const parent = parentOf.get(block.address);
    if (containers.has(block.address)) {
      const group: GraphGroup = { id: block.address, label: `${block.name} (${block.type})`, kind: block.type };
      if (parent) group.parent = parent;
      groups.push(group);
      continue;
    }
    const node: GraphNode = { id: block.address, label: block.name, kind: block.type === 'module' ? 'component' : kindOfType(block.type), rows: rowsOf(block) };
    const icon = TERRAFORM_ICONS[block.type];
    if (icon) node.iconRef = icon;
    else node.iconHint = block.type === 'module' ? 'terraform' : block.type;
    if (parent) node.parent = parent;
    nodes.push(node);
  }

  // Containment already draws a reference to an enclosing container; one to any other container is an edge to it.
  const inside = (address: string, container: string): boolean => {
    for (let parent = parentOf.get(address); parent !== undefined; parent = parentOf.get(parent)) if (parent === container) return true;
    return false;
  };
  const edges: GraphEdge[] = [];
  const missing = new Set<string>();
  for (const block of blocks) {
    if (containers.has(block.address)) continue;
    const { depends_on: dependsOn, ...rest } = block.body;
    const implicit = refs(rest);
    const explicit = refs(dependsOn);
    for (const address of [...implicit, ...explicit]) {
      const target = byAddress.get(address);
      if (!target) {
        if (!idle.has(address) && !address.startsWith('local.') && (address.startsWith('data.') || address.startsWith('module.') || TERRAFORM_PROVIDERS.test(address))) missing.add(address);
        continue;
      }
      const id = `${block.address}->${address}`;
      if (address === block.address || inside(block.address, address) || edges.some((e) => e.id === id)) continue;
      // Modules may read each other's outputs (EKS and its IRSA role): one line with two heads, not two lines tangled.
      const back = implicit.includes(address) ? edges.find((e) => e.from === address && e.to === block.address && e.label === undefined) : undefined;
      if (back) {
        back.startArrowhead = 'arrow';
        continue;
      }
      const edge: GraphEdge = { id, from: block.address, to: address, endArrowhead: 'arrow' };
      if (!implicit.includes(address)) {
        edge.label = 'depends on';
        edge.style = { strokeStyle: 'dashed' };
      }
      edges.push(edge);
    }
  }
  const warnings = [...missing].map((a) => `${a} is referenced but not declared in the input (add the file that declares it)`);
  // A data source only a provider block reads (the token a kubernetes provider signs in with) configures the provider,
  // which is not drawn: as a box it stood loose beside the system (every GKE module example's google_client_config).
  for (const [provider, reads] of providers) {
    for (const address of new Set(reads)) {
      const at = nodes.findIndex((node) => node.id === address && address.startsWith('data.'));
      if (at < 0 || edges.some((e) => e.from === address || e.to === address)) continue;
      nodes.splice(at, 1);
      warnings.push(`${address}: read only by provider "${provider}" (providers are not drawn); not drawn`);
    }
  }
  // A null resource or terraform_data with no provisioner runs nothing: a value kept to trigger a replacement.
  const keepers = new Set(blocks.filter((block) => KEEPER.test(block.type) && !('provisioner' in block.body)).map((block) => block.address));
  const helpers = foldRandomHelpers(nodes, edges, keepers);
  const random = helpers.folded.filter((id) => !POLICY_DOCUMENT.test(id));
  const documents = helpers.folded.filter((id) => POLICY_DOCUMENT.test(id));
  if (random.length > 0) warnings.push(`${random.join(', ')}: drawn as a row on each resource that uses them ("uses …"), not as boxes`);
  if (documents.length > 0) warnings.push(`${documents.length} policy document${documents.length === 1 ? '' : 's'} drawn as a row on each resource that reads them ("policy document …"), not as boxes`);
  return { layout: 'layered', direction: 'DOWN', nodes: helpers.nodes, edges: helpers.edges, groups, warnings };
}

/** The random provider's helpers that make a name or pick a value: a suffix, a pet name, a shuffled zone or version. */
const RANDOM_HELPER = /^random_(id|string|pet|shuffle|integer)\./;

/** Resources that hold a value and run nothing unless given a provisioner. */
const KEEPER = /^(null_resource|terraform_data)$/;

/** Data sources that only write a document for the resource reading it: an IAM policy put together in HCL. */
const POLICY_DOCUMENT = /^data\.(aws_iam_policy_document|google_iam_policy)\./;

/**
 * A random suffix or pick is part of the resources that use it, not a part of the system: as a box it drew an edge
 * from nearly every resource (terraform-azurerm-aks's startup example: two `random_id`s, an edge from each resource
 * into them, crossing the resource group). So is a policy document, the text of the policy that reads it: the
 * terraform-aws-s3-bucket module's twelve, one combining the other eleven, drew a column of boxes each with a line
 * back to the bucket whose ARN it names. Each user gets a row naming them, and what they read (the GKE versions a
 * `random_shuffle` picks from, the account a policy names) is read by their users. A document read by another
 * document is named on the other's users. So is a null resource that runs nothing (terraform-azurerm-aks's five
 * `*_keeper`s, each a value whose change replaces the cluster or a pool). `random_password` is a secret and stays a box.
 */
function foldRandomHelpers(nodes: GraphNode[], edges: GraphEdge[], keepers: ReadonlySet<string>): { nodes: GraphNode[]; edges: GraphEdge[]; folded: string[] } {
  const isHelper = (id: string) => RANDOM_HELPER.test(id) || POLICY_DOCUMENT.test(id) || keepers.has(id);
  const helpers = new Set(nodes.filter((node) => isHelper(node.id) && edges.some((edge) => edge.to === node.id && !isHelper(edge.from))).map((node) => node.id));
  // Documents read only by documents that are folded go with them.
  for (let grown = true; grown; ) {
    grown = false;
    for (const node of nodes) {
      if (helpers.has(node.id) || !POLICY_DOCUMENT.test(node.id) || !edges.some((edge) => edge.to === node.id && helpers.has(edge.from))) continue;
      helpers.add(node.id);
      grown = true;
    }
  }
  if (helpers.size === 0) return { nodes, edges, folded: [] };
  /** A user's helpers, documents read by its documents among them, in the order they are reached. */
  const helpersOf = (user: string): string[] => {
    const reached: string[] = [];
    for (let i = -1; i < reached.length; i++) {
      for (const edge of edges) if (edge.from === (i < 0 ? user : reached[i]) && helpers.has(edge.to) && !reached.includes(edge.to)) reached.push(edge.to);
    }
    return reached;
  };
  const kept = edges.filter((edge) => !helpers.has(edge.from) && !helpers.has(edge.to));
  const rows = new Map<string, string[]>();
  for (const node of nodes.filter((user) => !helpers.has(user.id))) {
    const used = helpersOf(node.id);
    if (used.length === 0) continue;
    for (const edge of edges.filter((read) => used.includes(read.from) && !helpers.has(read.to))) {
      const id = `${node.id}->${edge.to}`;
      if (node.id !== edge.to && !kept.some((known) => known.id === id)) kept.push({ ...edge, id, from: node.id });
    }
    const [random, documents] = [used.filter((id) => !POLICY_DOCUMENT.test(id)), used.filter((id) => POLICY_DOCUMENT.test(id))];
    const names = documents.map((id) => id.split('.').at(-1)!);
    rows.set(node.id, [
      ...(random.length > 0 ? [`uses ${random.join(', ')}`] : []),
      ...(names.length > 0 ? linesOf([`policy document${names.length === 1 ? '' : 's'} ${names[0]}`, ...names.slice(1)]) : []),
    ]);
  }
  return {
    nodes: nodes.filter((node) => !helpers.has(node.id)).map((node) => (rows.has(node.id) ? { ...node, rows: [...(node.rows ?? []), ...rows.get(node.id)!] } : node)),
    edges: kept,
    folded: [...helpers],
  };
}

function rowsOf(block: Block): string[] {
  // A data source reads what exists; said, so it is not taken for a resource of the same type and name it reads back.
  const rows = [block.type === 'module' && typeof block.body.source === 'string' ? `module ${moduleSource(block.body.source)}` : block.address.startsWith('data.') ? `data ${block.type}` : block.type];
  const count = repetition('count', block.body.count);
  const forEach = repetition('for_each', block.body.for_each);
  if (count !== undefined) rows.push(count);
  if (forEach !== undefined) rows.push(forEach);
  if (block.type === 'module') rows.push(...moduleParts(block.body));
  return rows;
}

/**
 * A registry module's address (`namespace/name/provider//modules/sub`) as its name, provider and the submodule's
 * last folder: the namespace and `modules/` told a reader nothing and widened every module box past a README column
 * (terraform-google-modules/network/google//modules/network-connectivity-center → network/google//network-connectivity-center).
 * Local paths, URLs and hosts (a dot in the first part) are said as written.
 */
function moduleSource(source: string): string {
  const [, name, provider, sub] = /^[\w-]+\/([\w-]+)\/([\w-]+)(?:\/\/(.+))?$/.exec(source) ?? [];
  if (name === undefined) return source;
  return sub === undefined ? `${name}/${provider}` : `${name}/${provider}//${sub.replace(/\/+$/, '').split('/').at(-1)}`;
}

/**
 * What a module call builds several of, as its arguments list them: the module's resources are not in the file, so
 * this is all a reader sees of them (the Cloud SQL HA example is one module call, its three read replicas a list of
 * blocks). A list of blocks by its length, from two (one block is the argument's own settings); a map of blocks by
 * its keys, which name the parts.
 */
function moduleParts(body: Record<string, unknown>): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.length >= 2 && value.every(isRecord)) parts.push(`${key} × ${value.length}`);
    else if (isRecord(value) && Object.keys(value).length > 0 && Object.values(value).every(isRecord)) parts.push(cutAtWord(`${key}: ${Object.keys(value).join(', ')}`));
  }
  return parts.slice(0, MODULE_PART_ROWS);
}
/** Rows of a module's parts at most: a box, not its arguments listed. */
const MODULE_PART_ROWS = 4;

/** A repetition's row is about a box's width; a longer expression is cut at a word with an ellipsis. */
const REPETITION_CHARS = 36;

/** Text cut to REPETITION_CHARS at a word, with an ellipsis. */
function cutAtWord(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length <= REPETITION_CHARS) return flat;
  const head = flat.slice(0, REPETITION_CHARS - 1);
  const space = head.lastIndexOf(' ');
  return `${(space >= REPETITION_CHARS / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/**
 * What a `count` or `for_each` repeats over, as a reader asks it: `× 3`, `if var.create` (the `cond ? 1 : 0`
 * switch), `× local.len if local.create`, `× length(var.subnets)`, `one per var.gke_spokes` (the collection a
 * `{for k, v in …}` walks).
 */
function repetition(meta: 'count' | 'for_each', value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return meta === 'count' ? `× ${value}` : meta;
  if (typeof value !== 'string') return meta;
  const expression = /^\$\{([\s\S]*)\}$/.exec(value.trim())?.[1]?.trim() ?? value.trim();
  if (meta === 'count') {
    // `cond ? 1 : 0` switches one on; `cond ? n : 0` makes n of them when on.
    const [, condition, times] = /^([\s\S]+?)\s*\?\s*([^?:]+?)\s*:\s*0$/.exec(expression) ?? [];
    if (condition !== undefined && times !== undefined) return cutAtWord(times === '1' ? `if ${condition}` : `× ${times} if ${condition}`);
    return cutAtWord(`× ${expression}`);
  }
  const walked = /^\{\s*for\s+[\w\s,]+\s+in\s+([\s\S]+?)\s*:/.exec(expression)?.[1];
  return cutAtWord(`one per ${walked ?? expression}`);
}
