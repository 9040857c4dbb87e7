/**
 * Helm values (`values.yaml`) → GraphIR. A values file has no schema, so the diagram comes from conventions that the
 * common charts (Bitnami, Grafana, the chart starter) share. The heuristic:
 *
 * 1. The application: a top-level `image` or `replicaCount` means the chart deploys one main workload, named after
 *    `nameOverride`, else the image repository's last segment. When components without an image of their own exist
 *    (Bitnami's `primary`), they run that image and stand for the application instead. With no top-level image, a
 *    block under the product's name holding the image its components lack (Bitnami mimir's `mimir.image`) is that image.
 * 2. Components: a top-level map holding an `image` map, a `replicas`/`replicaCount`, a `service` or `persistence`
 *    map, or `create: true` with a `name` (one block per microservice) is a workload of its own. `enabled: false`,
 *    `create: false`, parts that are all switched off, or zero replicas leave it out (the switched-off ones are
 *    named in a warning), and so does `architecture: standalone` for Bitnami's replication parts (REPLICATION_PARTS).
 *    A product's workloads may sit one level down (`sentry: {web: {replicas: 1}, worker: {…}}`): a top-level block
 *    holding two or more of them is drawn as a box of its own with those workloads inside.
 * 3. Sub-charts: any other top-level map with `enabled: true` (or `deploy: true`) and settings of its own (`postgresql.enabled`,
 *    `loki.enabled`), a block named after a datastore or broker that is not disabled (`redis: {storageClassName}`), and
 *    a flag naming one (`useRabbitMQ: true`, `kafkaEnabled: true`) is a dependency the application uses (an arrow
 *    from the application). A block holding `enabled: true` alone (`tracing.enabled`) is a feature, not a node.
 *    Per-workload blocks with scheduling settings only (`cart: {}`, `web: {affinity: …}`, as charts that deploy a
 *    fixed set of workloads write them) are workloads of the chart's image; a switched-off feature among those
 *    settings (`operator: {resources, kubeletService: {enabled: false}}`) does not make the block a setting. When
 *    the chart's workloads declare themselves (rule 2), such blocks are settings (`github: {}`, `slack: {}`).
 *    A dependency's values beside an umbrella switch of its own (`nodeExporter.enabled` for `prometheus-node-exporter`)
 *    are one part, on or off as the switch says. A block named for an object the chart makes (`ingressClass`,
 *    `gateway`) or a mode it runs in (`queueMode`) is a row on the application, and one with `useExternal: true` and
 *    a host is that part outside the chart, used by the application.
 * 4. Features of the application or a component, each drawn when enabled: `service` (a Service in front of the
 *    workload, its type and port), `ingress` (in front of the Service, its hosts), `persistence` (a volume the
 *    workload mounts, its size) and `autoscaling` (an HPA scaling the workload). The traffic path is
 *    ingress → service → workload → volume and sub-charts. The k8s-at-home common library names several of each
 *    (`service.main`, `persistence.config`): one node per named feature that is on.
 */
import { AppError } from '../../errors.js';
import { linesOf } from '../../graph/fold.js';
import type { GraphEdge, GraphGroup, GraphIR, GraphNode, NodeKind, NotationConverter } from '../../graph/types.js';
import { hostsIn } from '../hosts.js';
import { serviceRow } from '../kubernetes/manifests.js';
import { atLines, isRecord, type LocatedYaml, parseLocatedYaml } from '../yaml.js';

/**
 * Top-level keys holding what every component of the chart inherits (the OpenTelemetry demo's `default: {image,
 * replicas: 1, env}`): settings even with an image and a count, which make any other block a workload.
 */
const COMPONENT_DEFAULTS = new Set(['default', 'defaults']);
/** `<part>Defaults`: what each of a list of parts inherits (linkerd-multicluster's `controllerDefaults` for its `controllers`). */
const isDefaults = (key: string): boolean => COMPONENT_DEFAULTS.has(key) || /[a-z]Defaults$/.test(key);

/** Top-level keys that configure the chart as a whole, never a component or a sub-chart. */
const CHART_SETTINGS = new Set([
  'global', 'image', 'images', 'service', 'ingress', 'secondaryIngress', 'persistence', 'autoscaling', 'serviceAccount',
  'serviceAccounts', 'rbac', 'psp', 'podSecurityPolicy', 'networkPolicy', 'networkPolicies', 'metrics', 'serviceMonitor',
  'prometheusRule', 'pdb', 'podDisruptionBudget', 'resources', 'securityContext', 'podSecurityContext',
  'containerSecurityContext', 'livenessProbe', 'readinessProbe', 'startupProbe', 'volumePermissions', 'diagnosticMode',
  'tls', 'auth', 'ldap', 'backup', 'updateStrategy', 'affinity', 'nodeSelector', 'tolerations', 'sidecars',
  'authorizationPolicies', 'seccompProfile', 'shmVolume', 'serviceBindings', 'passwordUpdateJob', 'test_pod',
  'externalDatabase', 'externalCache', 'commonLabels', 'commonAnnotations', 'podLabels', 'podAnnotations',
]);

const HELM_KEYS = /^(image|replicaCount|ingress|service|persistence|resources|autoscaling|nameOverride|fullnameOverride|serviceAccount|podAnnotations|nodeSelector|tolerations|affinity):/gm;

export const helmNotation: NotationConverter = {
  id: 'helm',
  detect(code) {
    // Compose files and Kubernetes manifests are YAML too; they belong to their own converters.
    if (/^(?:---[ \t]+)?services:/m.test(code) || (/^(?:---[ \t]+)?apiVersion:/m.test(code) && /^(?:---[ \t]+)?kind:/m.test(code))) return 0;
    const keys = new Set([...code.matchAll(HELM_KEYS)].map((m) => m[1]));
    const enabledCharts = /^ {2,}(enabled|create):[ \t]*(true|false)[ \t]*$/m.test(code);
    if (keys.size === 0 && !enabledCharts) return 0;
    return Math.min(0.85, 0.35 + 0.1 * keys.size + (enabledCharts ? 0.2 : 0));
  },
  toGraph(code) {
    // Helm reads values with Go's YAML reader, which keeps the last of a key written twice.
    const { data: values, lineOf, commentAbove, warnings } = parseLocatedYaml(code, { duplicateKeys: 'last wins' });
    if (!isRecord(values)) throw new AppError('parse_error', 'line 1, column 1: expected a values map (key: value lines)', { line: 1, column: 1 });
    const parts = commonLibraryParts(values);
    const graph =
      parts.length > 0 ? commonLibraryPartsGraph(values, parts, lineOf) : isCommonLibrary(values) ? commonLibraryGraph(values) : valuesToGraph(values, lineOf, commentAbove);
    return { ...graph, warnings: [...warnings, ...graph.warnings] };
  },
};

/**
 * Charts switch a part with `enabled`, `create` or `deploy` (langfuse's `postgresql: {deploy: true}`, its Chart.yaml's
 * `condition: postgresql.deploy`).
 */
const enabled = (block: Record<string, unknown>): boolean => block.enabled !== false && block.create !== false && block.deploy !== false;
/** Switched on in so many words: a sub-chart's condition, not a setting that is on by default. */
const switchedOn = (block: Record<string, unknown>): boolean => block.enabled === true || block.deploy === true;
/** Off at its own level, or a block of parts that are all off (`exporters: {node-exporter: {enabled: false}, …}`). */
const disabled = (block: Record<string, unknown>): boolean => {
  if (!enabled(block)) return true;
  const parts = Object.values(block);
  return parts.length > 0 && parts.every((part) => isRecord(part) && disabled(part));
};
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

function imageName(image: unknown): string | undefined {
  if (!isRecord(image)) return text(image)?.split('/').pop()?.split(/[:@]/)[0];
  return text(image.repository)?.split('/').pop() ?? text(image.name);
}

/**
 * The image an empty `image.repository` stands for, as its comment says in helm-docs' words (traefik's "-- Traefik image
 * repository. Defaults to `traefik` for Traefik Proxy"): without it, traefik was drawn as a workload named "deployment".
 */
function documentedRepository(image: unknown, commentAbove: LocatedYaml['commentAbove']): string | undefined {
  if (!isRecord(image) || text(image.repository) !== undefined) return undefined;
  const named = /\bdefaults? to `([\w./-]+)`/i.exec(commentAbove(['image', 'repository']) ?? '')?.[1];
  return named === undefined ? undefined : imageName(named);
}

/**
 * Whether a key names the application the chart packages: it is (or is part of) the owner or name in the path of the
 * chart's image, top-level or global (`ghcr.io/goauthentik/server` for `authentik`), the registry host aside.
 */
function namesApplication(key: string, values: Record<string, unknown>): boolean {
  const image = isRecord(values.image) ? values.image : isRecord(values.global) ? values.global.image : undefined;
  const repository = isRecord(image) ? text(image.repository) : text(image);
  if (repository === undefined || key.length < 4) return false;
  const segments = repository.split(/[:@]/)[0]!.split('/').filter((segment) => !segment.includes('.'));
  return segments.some((segment) => segment.toLowerCase().includes(key.toLowerCase()));
}

function kindOfName(name: string, fallback: NodeKind): NodeKind {
  // `database`, and images named `…-db` (Harbor's `harbor-db`), are what a reviewer draws as a cylinder.
  if (/postgres|mysql|mariadb|mongo|cassandra|clickhouse|elasticsearch|opensearch|couchdb|database|(^|[-_ ])db($|[-_ ])/i.test(name)) return 'database';
  if (/redis|memcache|cache|valkey/i.test(name)) return 'cache';
  if (/kafka|rabbitmq|nats|queue|pulsar/i.test(name)) return 'queue';
  if (/gateway|nginx|proxy|traefik|ingress/i.test(name)) return 'gateway';
  return fallback;
}

/** Keys whose values name another component: hosts, URLs, connection strings, broker lists. */
const RELATION_KEY = /(host|hostname|url|uri|endpoint|address|addr|server|servers|brokers?|dsn|connection(string)?)$/i;
/** Blocks that describe the component itself, not what it talks to. */
const OWN_BLOCKS = new Set(['image', 'service', 'ingress', 'secondaryIngress', 'persistence', 'autoscaling', 'resources', 'podAnnotations', 'nodeSelector', 'tolerations', 'affinity', 'securityContext', 'podSecurityContext']);

/** The string settings of a component that may name another one (env lists included), `skip` being nested components. */
function relationValues(block: Record<string, unknown>, skip: ReadonlySet<string>, depth = 0): string[] {
  if (depth > 6) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(block)) {
    if (OWN_BLOCKS.has(key) || (depth === 0 && skip.has(key))) continue;
    if (typeof value === 'string' && RELATION_KEY.test(key.replace(/_/g, ''))) found.push(value);
    else if (Array.isArray(value)) {
      for (const item of value) {
        // env: [{name: RABBITMQ_HOST, value: rabbitmq}]
        if (isRecord(item) && typeof item.name === 'string' && typeof item.value === 'string' && RELATION_KEY.test(item.name.replace(/_/g, ''))) found.push(item.value);
        else if (isRecord(item)) found.push(...relationValues(item, skip, depth + 1));
      }
    } else if (isRecord(value)) found.push(...relationValues(value, skip, depth + 1));
  }
  return found;
}

/** Datastores and brokers: a block or a flag naming one is that dependency, whatever else it holds. */
const DEPENDENCY = /^(postgres(ql)?|mysql|mariadb|mongo(db)?|cassandra|clickhouse|elasticsearch|opensearch|couchdb|redis|valkey|memcached|kafka|rabbitmq|nats|pulsar|zookeeper|etcd|minio|keycloak)$/i;

/** `useRabbitMQ: true`, `enableKafka: true`, `redisEnabled: true`, `install_minio: true` → the dependency's name. */
function flaggedDependency(key: string, value: unknown): string | undefined {
  if (value !== true) return undefined;
  const name = /^(?:use|enable|with|install|deploy)_?([A-Za-z][\w-]*)$/.exec(key)?.[1] ?? /^([A-Za-z][\w-]*?)_?(?:Enabled|enabled)$/.exec(key)?.[1];
  return name !== undefined && DEPENDENCY.test(name) ? name.toLowerCase() : undefined;
}

/**
 * Bitnami's parts that run only in a replicated `architecture` (PostgreSQL's `readReplicas`, MariaDB's `secondary`,
 * MongoDB's `arbiter` and `hidden`, whose templates test `eq .Values.architecture "replicaset"`): drawn for
 * `standalone`, MongoDB's arbiter took the place of MongoDB itself.
 */
const REPLICATION_PARTS = new Set(['readReplicas', 'secondary', 'arbiter', 'hidden']);

/** An object store a chart brings along (langfuse's `s3: {deploy: true}`, a SeaweedFS sub-chart). */
const OBJECT_STORE = /^(s3|minio|seaweedfs)$/i;

/** Settings a chart lets each of its fixed workloads override: a block holding these only stands for a workload. */
const SCHEDULING = new Set(['affinity', 'nodeSelector', 'tolerations', 'resources', 'podAnnotations', 'annotations', 'labels', 'podLabels', 'priorityClassName']);
/**
 * Names of top-level blocks that are settings even when empty (`podAnnotations: {}`, `extraEnv: {}`), or switched on:
 * Bitnami Elasticsearch's `sysctlImage: {enabled: true, repository}` is the image of an init container, not a sub-chart.
 */
const SETTING_NAME = /annotations|labels|env|config|selector|toleration|affinity|resources|secret|volume|mount|args|extra|override|context|policy|probe|strategy|hook|template|values|options|settings|spec|files|rules|image$/i;

const isWorkloadBlock = (key: string, block: Record<string, unknown>): boolean =>
  !SETTING_NAME.test(key) && !disabled(block) && Object.entries(block).every(([k, v]) => SCHEDULING.has(k) || (isRecord(v) && disabled(v)));

/** The workloads a top-level block holds one level down, each a component of its own (`sentry.web: {replicas: 1}`). */
const productWorkloads = (block: Record<string, unknown>): [string, Record<string, unknown>][] =>
  Object.entries(block).filter(
    // Not its `serviceAccount: {create: true, name}` (kube-prometheus-stack's prometheus), which is the workload's own.
    (entry): entry is [string, Record<string, unknown>] => !OWN_BLOCKS.has(entry[0]) && !CHART_SETTINGS.has(entry[0]) && isRecord(entry[1]) && (isComponent(entry[1]) || runsWorkers(entry[1])),
  );

/** A block listing the deployments it runs, each with a count (Mastodon's `sidekiq.workers: [{name: all-queues, replicas: 1}]`). */
const runsWorkers = (block: Record<string, unknown>): boolean =>
  Object.values(block).some((value) => Array.isArray(value) && value.length > 0 && value.every((item) => isRecord(item) && typeof replicaCount(item) === 'number'));

/**
 * A product whose workloads sit one level down, though the block itself has the volumes or Service they share
 * (Mastodon's `mastodon: {persistence: {assets, system}, web: {replicas}, streaming: {image}, sidekiq: {workers}}`):
 * it runs no image and sets no count of its own.
 */
const isProduct = (block: Record<string, unknown>): boolean => {
  const parts = productWorkloads(block);
  if (parts.length < 2) return false;
  // Or its image and count are what its parts inherit, each naming its repository (langfuse's `langfuse: {replicas: 1,
  // image: {tag}, web: {image: {repository}}, worker: {…}}`): drawn as one workload, its web and worker were lost.
  const repository = (image: unknown): string | undefined => (isRecord(image) ? (text(image.repository) ?? text(image.name)) : text(image));
  const inherited = isRecord(block.image) && repository(block.image) === undefined && parts.every(([, part]) => repository(part.image) !== undefined);
  return inherited || (!namesImage(block.image) && replicaCount(block) === undefined);
};

/**
 * An image a block runs: a reference, or a map with a place for one, empty when it takes the chart's global image (Argo
 * CD's `notifications.image: {repository: "", tag: ""}`); not a map of `pullPolicy`/`pullSecrets` for every image.
 */
const namesImage = (image: unknown): boolean => text(image) !== undefined || (isRecord(image) && ['repository', 'name', 'tag', 'digest'].some((key) => key in image));

/** A replica count at the block's top or under `scaling` (the Kubernetes Dashboard chart's `api.scaling.replicas`). */
const replicaCount = (block: Record<string, unknown>): unknown => block.replicaCount ?? block.replicas ?? (isRecord(block.scaling) ? block.scaling.replicas : undefined);

/**
 * A block under a name that usually configures the chart (`auth`) is a workload when it runs an image of its own and
 * says how many: the Kubernetes Dashboard's `auth` is its auth service. Bitnami's `metrics` and `volumePermissions`
 * name an image too, but run it beside the main container, with no count.
 */
const isOwnWorkload = (block: Record<string, unknown>): boolean =>
  isRecord(block.image) && namesImage(block.image) && typeof replicaCount(block) === 'number' && !disabled(block);

/** Settings of a pod the chart's own template writes: `containerPorts`, probes, security contexts. */
const POD_SETTINGS = ['containerPorts', 'livenessProbe', 'readinessProbe', 'startupProbe', 'podSecurityContext', 'containerSecurityContext'];

/** A block with the probes and security contexts of a pod: one the chart's own templates run. */
const runsPod = (block: Record<string, unknown>): boolean => POD_SETTINGS.filter((key) => key in block).length >= 3 && !runsJob(block);

/** A block of a Job's settings: how often it is retried, what its Job object is annotated with. */
const runsJob = (block: Record<string, unknown>): boolean => 'backoffLimit' in block || 'jobAnnotations' in block;

function isComponent(block: Record<string, unknown>): boolean {
  return (
    (isRecord(block.image) && namesImage(block.image)) ||

    typeof block.replicas === 'number' ||
    typeof block.replicaCount === 'number' ||
    isRecord(block.service) ||
    isRecord(block.persistence) ||
    (block.create === true && typeof block.name === 'string')
  );
}

/** The settings of a scrape of something the chart does not run: its ServiceMonitor, the Service and endpoints it reads. */
const SCRAPE_KEYS = new Set(['enabled', 'serviceMonitor', 'service', 'endpoints', 'jobNameOverride', 'tlsConfig', 'namespace']);

/**
 * A block that only says how Prometheus scrapes a part of the cluster (kube-prometheus-stack's `kubeControllerManager:
 * {endpoints, service, serviceMonitor}`, `kubelet: {serviceMonitor}`) is a scrape target, not a workload of the chart
 * nor a sub-chart: nothing in it runs an image.
 */
const scrapeShaped = (block: unknown): block is Record<string, unknown> =>
  isRecord(block) && isRecord(block.serviceMonitor) && Object.keys(block).every((key) => SCRAPE_KEYS.has(key));
/**
 * Certainly a target: endpoints of its own, or no Service at all. A Service and a ServiceMonitor alone (`coreDns`)
 * could be a small chart's component, so such a block is a target only beside certain ones.
 */
const certainTarget = (block: unknown): boolean => scrapeShaped(block) && (block.endpoints !== undefined || block.service === undefined);
const isScrapeTarget = (block: Record<string, unknown>, values: Record<string, unknown>): boolean =>
  scrapeShaped(block) && (certainTarget(block) || Object.values(values).some(certainTarget));

/**
 * `prometheus: {enabled: true, servicemonitor: {…}, podmonitor: {…}}`, nothing else, says how a Prometheus already
 * running scrapes the chart (cert-manager), not a Prometheus sub-chart to install: drawn as one, the chart's
 * controller used it. A Prometheus the chart runs has settings of its own (kube-prometheus-stack's `prometheusSpec`).
 */
const scrapesChart = (key: string, block: Record<string, unknown>): boolean =>
  /^prometheus$/i.test(key) && Object.keys(block).some((inner) => /^(service|pod)monitor$/i.test(inner)) && Object.keys(block).every((inner) => /^(enabled|(service|pod)monitor)$/i.test(inner));

/**
 * A block whose `type` names one of its own sub-blocks chooses how a part is provided (Harbor's `database: {type:
 * internal, internal: {image…}, external: {host…}}`, `expose: {type: ingress, ingress: {hosts…}, clusterIP: {…}}`):
 * the chosen sub-block is the part; the others are alternatives the chart does not deploy.
 */
function chosenAlternative(block: Record<string, unknown>): [string, Record<string, unknown>] | undefined {
  const type = text(block.type);
  const chosen = type === undefined ? undefined : block[type];
  return type !== undefined && isRecord(chosen) ? [type, chosen] : undefined;
}

/** Where an external part is reached: `host` and `port`, `addr`, `url` or `endpoint`. */
function externalAddress(block: Record<string, unknown>): string | undefined {
  const host = text(block.host) ?? text(block.hostname);
  if (host !== undefined) return block.port !== undefined && block.port !== '' ? `${host}:${String(block.port)}` : host;
  return text(block.addr) ?? text(block.address) ?? text(block.url) ?? text(block.endpoint);
}

/**
 * The components a backing part's settings name by key (Harbor's redis `jobserviceDatabaseIndex`, `trivyAdapterIndex`,
 * its database's `coreDatabase`): a key whose first camelCase word is a component's name, with more after it, is that
 * component's setting there, so the component uses the part. Returns the names found, in order.
 */
function usersNamedIn(block: Record<string, unknown>, names: ReadonlySet<string>, prefixes: boolean, depth = 0): string[] {
  if (depth > 2) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(block)) {
    // `redis.sidekiq: {…}` (Mastodon), a block of settings for that component, names it whole. In a sub-chart's own
    // values a prefix names what the sub-chart uses instead (ClickHouse's `zookeeper_servers`), so only this form counts
    // there, and not for a datastore, which there is the sub-chart's own bundled one (Kafka's `zookeeper: {enabled: false}`).
    const whole = isRecord(value) && names.has(key) && !DEPENDENCY.test(key) ? key : undefined;
    const first = (prefixes ? /^([a-z]+)[A-Z_]/.exec(key)?.[1] : undefined) ?? whole;
    if (first !== undefined && names.has(first) && !found.includes(first)) found.push(first);
    if (isRecord(value)) for (const name of usersNamedIn(value, names, prefixes, depth + 1)) if (!found.includes(name)) found.push(name);
  }
  return found;
}

/**
 * The images of a workload's containers written as blocks of their own (Harbor's `registry: {replicas, registry:
 * {image}, controller: {image}}`, one pod running both): none when the workload names its image itself.
 */
function containerImages(block: Record<string, unknown>): string[] {
  if (isRecord(block.image) || typeof block.image === 'string') return [];
  return Object.entries(block).flatMap(([key, inner]) => {
    if (OWN_BLOCKS.has(key) || !isRecord(inner) || !namesImage(inner.image) || replicaCount(inner) !== undefined || isRecord(inner.service) || disabled(inner)) return [];
    const name = imageName(inner.image);
    return name === undefined ? [] : [name];
  });
}

/** Scrape targets from this many on are one node listing them. */
const MIN_LISTED_TARGETS = 4;
const SCRAPED_LIST = 'scrape-targets';

/** An arrow between two nodes, dashed for a relation that is not traffic (mounts, scales). */
function arrow(from: string, to: string, label?: string, dashed = false): GraphEdge {
  const e: GraphEdge = { id: `${from}->${to}`, from, to, endArrowhead: 'arrow' };
  if (label) e.label = label;
  if (dashed) e.style = { strokeStyle: 'dashed' };
  return e;
}

/**
 * The bjw-s common library (`app-template` and the charts built on it) names everything itself: `controllers.<name>`
 * with `containers.<name>.image`, `service.<name>` pointing at a controller, `ingress.<name>` at services by
 * `identifier`, `persistence.<name>` mounted by every controller (`globalMounts`) or by those `advancedMounts` names.
 */
const isCommonLibrary = (values: Record<string, unknown>): boolean =>
  isRecord(values.controllers) && Object.values(values.controllers).some((controller) => isRecord(controller) && isRecord(controller.containers));

/** The named entries of a map of blocks that are not switched off. */
const namedBlocks = (value: unknown): [string, Record<string, unknown>][] =>
  isRecord(value) ? Object.entries(value).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]) && entry[1].enabled !== false) : [];

/**
 * `component`: the top-level key of an umbrella chart whose parts are each written in the library's layout (Immich's
 * `server.controllers.main`): its ids are prefixed with it and its `main` controller goes by its name.
 */
function commonLibraryGraph(values: Record<string, unknown>, component?: string): GraphIR {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const at = (id: string): string => (component === undefined ? id : `${component}/${id}`);
  const edge = (from: string, to: string, label?: string, dashed?: boolean): number => edges.push(arrow(at(from), at(to), label, dashed));
  const controllers = namedBlocks(values.controllers);
  for (const [key, controller] of controllers) {
    const containers = namedBlocks(controller.containers).map(([name, container]) => [name, container.image] as const);
    const image = imageName(containers[0]?.[1]);
    const label = key === 'main' ? (component ?? text(values.nameOverride) ?? image ?? key) : key;
    // One container: its whole repository (the label already has its last segment); several: each by name.
    const repository = (value: unknown) => (isRecord(value) ? text(value.repository) : text(value)) ?? imageName(value);
    const type = text(controller.type) ?? 'deployment';
    const kindRow = typeof controller.replicas === 'number' ? `${type}, ${controller.replicas} replica${controller.replicas === 1 ? '' : 's'}` : type;
    const rows = [kindRow, ...containers.map(([name, value]) => (containers.length === 1 ? (repository(value) ?? name) : `${name}: ${imageName(value) ?? '?'}`))];
    nodes.push({ id: at(`controller:${key}`), label, kind: kindOfName(`${label} ${image ?? ''}`, 'workload'), rows, iconHint: image ?? label, iconFallback: 'kubernetes/Deployment' });
  }
  const only = controllers.length === 1 ? controllers[0]![0] : undefined;
  const services = namedBlocks(values.service);
  /** Service name → the node an ingress naming it routes to: its controller, which it is a row on, or its own node. */
  const serviceNode = new Map<string, string>();
  for (const [key, service] of services) {
    const target = text(service.controller) ?? only;
    const ports = namedBlocks(service.ports).filter(([, port]) => typeof port.port === 'number');
    const controller = nodes.find((node) => target !== undefined && node.id === at(`controller:${target}`));
    if (controller) {
      controller.rows!.push(helmServiceRow(key, service, ports.map(([, port]) => port.port as number)));
      serviceNode.set(key, `controller:${target!}`);
    } else {
      nodes.push({ id: at(`service:${key}`), label: `${key} service`, kind: 'service', rows: [text(service.type) ?? 'ClusterIP', ...ports.map(([name, port]) => `${name} ${String(port.port)}`)], iconRef: 'kubernetes/Service' });
      serviceNode.set(key, `service:${key}`);
    }
  }
  for (const [key, ingress] of namedBlocks(values.ingress)) {
    const hosts = (Array.isArray(ingress.hosts) ? ingress.hosts : []).filter(isRecord);
    const names = hosts.map((host) => text(host.host)).filter((host): host is string => host !== undefined);
    nodes.push({ id: at(`ingress:${key}`), label: component === undefined ? `${key} ingress` : `${component} ingress`, kind: 'gateway', rows: names.slice(0, 3), iconRef: 'kubernetes/Ingress' });
    const paths = hosts.flatMap((host) => (Array.isArray(host.paths) ? host.paths.filter(isRecord) : []));
    const named = paths.map((path) => (isRecord(path.service) ? (text(path.service.identifier) ?? text(path.service.name)) : undefined));
    const targets = new Set(named.filter((name): name is string => name !== undefined && services.some(([service]) => service === name)));
    if (targets.size === 0 && services.length === 1) targets.add(services[0]![0]);
    for (const target of targets) edge(`ingress:${key}`, serviceNode.get(target)!, names[0]);
  }
  for (const [key, volume] of namedBlocks(values.persistence)) {
    const type = text(volume.type) ?? 'persistentVolumeClaim';
    nodes.push({ id: at(`volume:${key}`), label: key, kind: 'storage', rows: [type, ...(text(volume.size) ? [text(volume.size)!] : [])], iconRef: 'kubernetes/Persistent Volume Claim' });
    const mountedBy = isRecord(volume.advancedMounts) && volume.globalMounts === undefined ? Object.keys(volume.advancedMounts) : controllers.map(([name]) => name);
    for (const name of mountedBy) if (controllers.some(([controller]) => controller === name)) edge(`controller:${name}`, `volume:${key}`, 'mounts', true);
  }
  return { layout: 'layered', direction: 'RIGHT', nodes, edges, groups: [], warnings: [] };
}

/** Top-level parts of an umbrella chart each written in the common library's layout, in file order. */
const commonLibraryParts = (values: Record<string, unknown>): [string, Record<string, unknown>][] =>
  Object.entries(values).filter((entry): entry is [string, Record<string, unknown>] => entry[0] !== 'controllers' && isRecord(entry[1]) && isCommonLibrary(entry[1]));

/**
 * An umbrella chart of common-library parts (Immich: `server`, `machine-learning`, `valkey`, each with its
 * `controllers.main`): each part drawn as the library draws a chart, under its own name; a top-level `controllers`
 * is then what every part inherits (Immich's shared env), not a workload. A part calls another that a host in its
 * env, or the shared env, names.
 */
function commonLibraryPartsGraph(values: Record<string, unknown>, parts: [string, Record<string, unknown>][], lineOf: LocatedYaml['lineOf']): GraphIR {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const warnings: string[] = [];
  const drawn = parts.filter(([key, block]) => {
    if (block.enabled !== false) return true;
    warnings.push(`${atLines([lineOf([key, 'enabled'])])}${key}: enabled: false; not drawn`);
    return false;
  });
  for (const [key, block] of drawn) {
    const graph = commonLibraryGraph(block, key);
    nodes.push(...graph.nodes);
    edges.push(...graph.edges);
  }
  const shared = isRecord(values.controllers) ? relationValues(values.controllers, new Set()) : [];
  for (const [key, block] of drawn) {
    const from = nodes.find((node) => node.id.startsWith(`${key}/controller:`));
    if (from === undefined) continue;
    const called = new Set([...relationValues(block, new Set()), ...shared].flatMap(hostsIn));
    for (const [other] of drawn) {
      const to = nodes.find((node) => node.id.startsWith(`${other}/controller:`));
      if (other !== key && to !== undefined && [...called].some((host) => host === other || host.endsWith(`-${other}`))) edges.push(arrow(from.id, to.id));
    }
  }
  return { layout: 'layered', direction: 'RIGHT', nodes, edges, groups: [], warnings };
}

/**
 * A Service block as a row on its workload: `Service :8080`, `Service metrics LoadBalancer :9090`; a chart's only or
 * `main` Service goes without its name, as the workload's own.
 */
function helmServiceRow(name: string, service: Record<string, unknown>, ports: readonly number[]): string {
  return serviceRow(name === '' || name === 'main' ? undefined : name, text(service.type) ?? 'ClusterIP', ports.join(', '));
}

/**
 * The port a chart's Service block exposes, under the names charts give it: `port`, `ports: {http: 80}`, or a key
 * of its own (`servicePort`, `servicePortHttp` in Argo CD's chart, `httpPort`, `externalPort`). A node or target
 * port is not the Service's, nor a host port or the metrics port a scrape reads (podinfo's `metricsPort` before its `httpPort`).
 */
function servicePort(service: Record<string, unknown>): number | undefined {
  if (typeof service.port === 'number') return service.port;
  if (isRecord(service.ports)) return Object.values(service.ports).find((p): p is number => typeof p === 'number');
  return Object.entries(service).find(([key, value]) => typeof value === 'number' && /port/i.test(key) && !/node|target|host|metric/i.test(key))?.[1] as number | undefined;
}

/**
 * Umbrella charts switch a dependency on with a camelCase block beside the dependency's own values, which Chart.yaml's
 * `condition: nodeExporter.enabled` ties together (kube-prometheus-stack's `nodeExporter: {enabled: true}` beside
 * `prometheus-node-exporter: {…}`, `kubeStateMetrics` beside `kube-state-metrics`). The pair is one part, named by
 * the dependency and on when its switch is: the switch block alone is the umbrella's settings, not a second part.
 * Returns dependency key → switch key.
 */
function dependencySwitches(values: Record<string, unknown>): Map<string, string> {
  const squash = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');
  const switches = Object.entries(values).filter(([key, block]) => !key.includes('-') && isRecord(block) && typeof block.enabled === 'boolean').map(([key]) => key);
  const pairs = new Map<string, string>();
  for (const [key, block] of Object.entries(values)) {
    // A dependency is named as a chart is, in kebab case; a camelCase key ending the same way is its switch.
    if (!key.includes('-') || !isRecord(block) || 'enabled' in block) continue;
    const name = squash(key);
    const toggle = switches.find((candidate) => squash(candidate).length >= 4 && name.endsWith(squash(candidate)));
    if (toggle !== undefined) pairs.set(key, toggle);
  }
  return pairs;
}

/**
 * A top-level block its comment says is on only with another (tempo-distributed's `adminApi`: "Can only be enabled
 * if enterprise.enabled is true"), that other a block with an `enabled` switch: what the chart's templates test, said
 * in the values only in words. Its three enterprise parts were drawn though `enterprise.enabled: false`.
 */
function commentedSwitches(values: Record<string, unknown>, commentAbove: LocatedYaml['commentAbove']): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const [key, block] of Object.entries(values)) {
    const toggle = /\bonly\b[^.]*?\bif\s+`?([A-Za-z][\w-]*)\.enabled`?\s+is\s+true/i.exec((commentAbove(key) ?? '').replace(/\s+/g, ' '))?.[1];
    const switched = toggle === undefined ? undefined : values[toggle];
    if (toggle !== key && isRecord(switched) && typeof switched.enabled === 'boolean' && isRecord(block)) pairs.set(key, toggle!);
  }
  return pairs;
}

/** The comment above `key` calls it a sub-chart by name (`## alertmanager sub-chart configurable values`). */
const commentedSubchart = (key: string, comment: string | undefined): boolean =>
  comment !== undefined && new RegExp(`(^|[\\s#])${key.replace(/[^\w]/g, '\\$&')}\\s+sub-?chart\\b`, 'i').test(comment);

type Feature = [string, Record<string, unknown>];

/**
 * A Service written as flat keys of its workload (Jenkins's `controller: {serviceEnabled: true, serviceType: ClusterIP,
 * servicePort: 8080}`), as older charts do: read as a `service` block.
 */
function flatService(block: Record<string, unknown>): Feature[] {
  if (block.serviceEnabled === false || (typeof block.servicePort !== 'number' && text(block.serviceType) === undefined)) return [];
  return [['', { type: block.serviceType, port: block.servicePort }]];
}

/** What marks an entry of a feature map as a named Service, ingress or volume rather than a setting. */
const FEATURE_KEYS: Record<'service' | 'ingress' | 'persistence', readonly string[]> = {
  service: ['enabled', 'ports', 'type', 'controller'],
  ingress: ['enabled', 'hosts', 'ingressClassName'],
  persistence: ['enabled', 'type', 'mountPath', 'existingClaim', 'size'],
};

/**
 * The k8s-at-home common library (and the charts built on it, before bjw-s's app-template) names its Services,
 * ingresses and volumes: `service.main.ports.http.port`, `ingress.main.enabled`, `persistence.config.enabled`. A
 * feature block with no setting at its top, each entry a block that says what it is, is such a map: the entries that
 * are on, or undefined for the one-feature form (`service: {type, port}`). Bitnami names Services so too (Flux's
 * `notificationController.service.receiver`). A named Service is on unless switched off; the library leaves ingresses
 * and volumes off unless `enabled: true`.
 */
function namedFeatures(feature: unknown, kind: keyof typeof FEATURE_KEYS): Feature[] | undefined {
  if (!isRecord(feature)) return undefined;
  const entries = Object.entries(feature);
  const named = entries.length > 0 && entries.every(([, entry]) => isRecord(entry) && FEATURE_KEYS[kind].some((key) => key in entry));
  if (!named) return undefined;
  return (entries as Feature[]).filter(([, entry]) => (kind === 'service' ? entry.enabled !== false : entry.enabled === true));
}

/**
 * The ports a workload's containers listen on, for a Service block that names none: such a chart's template takes
 * the Service's ports from them (Kubernetes Dashboard: `auth.containers.ports: [{name: auth, containerPort: 8000}]`,
 * its `service` only a type). A block's own `ports` list is read the same way.
 */
function containerPorts(block: Record<string, unknown>): number[] {
  const lists = [isRecord(block.containers) ? block.containers.ports : undefined, block.ports];
  const listed = lists.flatMap((list) => (Array.isArray(list) ? list : [])).flatMap((port) => (isRecord(port) && typeof port.containerPort === 'number' ? [port.containerPort] : []));
  // The OpenTelemetry Collector's `ports: {otlp: {enabled: true, containerPort: 4317, servicePort: 4317}, …}`.
  // Traefik's `ports: {web: {port: 8000, exposedPort: 80, expose: {default: true}}}`: the Service opens the exposed
  // port, and not those `expose` keeps inside (its dashboard and metrics ports).
  const exposed = (port: Record<string, unknown>): boolean => port.expose !== false && !(isRecord(port.expose) && port.expose.default === false);
  const named = (isRecord(block.ports) ? Object.values(block.ports) : []).flatMap((port) =>
    isRecord(port) && port.enabled !== false && exposed(port) && typeof (port.servicePort ?? port.exposedPort ?? port.containerPort) === 'number' ? [(port.servicePort ?? port.exposedPort ?? port.containerPort) as number] : [],
  );
  return [...listed, ...named];
}

/** Ports a Service row names at most when they come from the containers: the collector opens seven. */
const MAX_SERVICE_PORTS = 3;

/** A named Service's ports, `ports: {http: {port: 8123}}` or Bitnami's `ports: {http: 80}`. */
const namedPorts = (service: Record<string, unknown>): number[] =>
  (isRecord(service.ports) ? Object.values(service.ports) : []).flatMap((port): number[] => {
    if (typeof port === 'number') return [port];
    return isRecord(port) && typeof port.port === 'number' && port.enabled !== false ? [port.port] : [];
  });

/** A reverse proxy's name. */
const REVERSE_PROXY = /^(nginx|envoy|haproxy|traefik|caddy)$/i;
/** A web server or proxy a chart may bundle beside its application, under the server's own name. */
const BUNDLED_SERVER = /^(nginx|envoy|haproxy|traefik|caddy|apache|httpd)$/i;

/** The components every Grafana distributed database (loki-distributed, tempo-distributed, mimir-distributed) runs. */
const DISTRIBUTED_SIGNATURE = ['distributor', 'ingester', 'querier'];

/**
 * Their write path (gateway → distributor → ingester) and read path (gateway → query-frontend → querier → ingester and
 * the store and index gateways), as their architecture pages draw them; the values hold only each component's settings,
 * so tempo-distributed's ten workloads stood in rows with no line between them.
 */
const DISTRIBUTED_PATHS: readonly Relation[] = [
  ['gateway', 'distributor', 'writes'],
  ['gateway', 'queryFrontend', 'reads'],
  ['distributor', 'ingester', 'writes'],
  ['distributor', 'metricsGenerator', 'writes'],
  ['queryFrontend', 'querier', 'reads'],
  ['querier', 'ingester', 'reads'],
  ['querier', 'storeGateway', 'reads'],
  ['querier', 'indexGateway', 'reads'],
  ['ruler', 'ingester', 'reads'],
  // Blocks are written to and read from the object store, and the store gateway and query frontend keep their caches
  // in the memcached sub-charts (Bitnami's mimir: a MinIO and four caches stood apart, joined to nothing).
  ['ingester', 'minio', 'uploads blocks'],
  ['compactor', 'minio', 'compacts blocks'],
  ['storeGateway', 'minio', 'reads blocks'],
  ['queryFrontend', 'memcachedfrontend', 'results cache'],
  ...['index', 'chunks', 'metadata'].map((cache): Relation => ['storeGateway', `memcached${cache}`, `${cache} cache`]),
];

/**
 * Argo CD's parts as its architecture page draws them: the API server, the application controller and the
 * ApplicationSet controller get manifests from the repo server, the API server signs in through Dex, and the three
 * keep their cache in Redis. argo-helm's values name no host, so its eight parts stood in rows with no line.
 */
const ARGO_CD_RELATIONS: readonly Relation[] = [
  ...['server', 'controller', 'applicationSet'].map((from): Relation => [from, 'repoServer', 'manifests']),
  ['server', 'dex', 'SSO'],
  ...['server', 'controller', 'repoServer'].map((from): Relation => [from, 'redis', 'cache']),
];

/** The Kubernetes Dashboard's: its Kong gateway routes to the web, API and auth parts; the API reads the metrics scraper. */
const DASHBOARD_RELATIONS: readonly Relation[] = [...['web', 'api', 'auth'].map((to): Relation => ['kong', to, 'routes']), ['api', 'metricsScraper', 'metrics']];

/**
 * Harbor's parts as its architecture page draws them: the proxy routes the API and the registry's pulls to the core and
 * the UI to the portal; the core keeps its data in the database and its sessions in Redis, fronts the registry and
 * asks Trivy to scan; the job service queues its jobs in Redis and reports to the core, Trivy queues its scans there;
 * the exporter reads the core's figures. Bitnami's harbor values name no host of their own: its core and job service
 * stood joined to nothing (`database` is goharbor's chart's name for its PostgreSQL).
 */
const HARBOR_RELATIONS: readonly Relation[] = [
  ['nginx', 'core', 'routes API'],
  ['nginx', 'portal', 'routes UI'],
  ...['postgresql', 'database'].map((store): Relation => ['core', store, 'data']),
  ['core', 'redis', 'sessions'],
  ['core', 'registry', 'fronts'],
  ['core', 'trivy', 'scans'],
  ['jobservice', 'redis', 'job queue'],
  ['jobservice', 'core', 'reports'],
  ['trivy', 'redis', 'scan queue'],
  ['exporter', 'core', 'metrics'],
];

/** Charts known by the parts they all run, with their relations. */
const SIGNED_RELATIONS: readonly (readonly [signature: readonly string[], relations: readonly Relation[]])[] = [
  [DISTRIBUTED_SIGNATURE, DISTRIBUTED_PATHS],
  [['controller', 'repoServer', 'server'], ARGO_CD_RELATIONS],
  [['auth', 'api', 'web', 'metricsScraper'], DASHBOARD_RELATIONS],
  [['core', 'portal', 'jobservice', 'registry'], HARBOR_RELATIONS],
  // A cluster of a master and its workers (Spark's standalone mode): each worker registers with the master.
  [['master', 'worker'], [['worker', 'master', 'registers']]],
];

/**
 * The monitoring stack's parts, by name, wherever a chart runs two of them: Grafana queries the stores, Prometheus
 * alerts Alertmanager, the operator runs both and watches its resource definitions (kube-prometheus-stack's `crds`
 * sub-chart), Promtail pushes to Loki. kube-prometheus-stack drew Alertmanager, the
 * operator and Grafana with no line but Prometheus scraping them; lgtm-distributed three sub-charts side by side.
 */
const MONITORING_RELATIONS: readonly Relation[] = [
  ...['prometheus', 'loki', 'tempo', 'mimir', 'jaeger'].map((store): Relation => ['grafana', store, 'queries']),
  ['prometheus', 'alertmanager', 'alerts'],
  ['prometheusOperator', 'prometheus', 'runs'],
  ['prometheusOperator', 'alertmanager', 'runs'],
  ['prometheusOperator', 'crds', 'watches'],
  ['promtail', 'loki', 'pushes'],
  // The exporters the prometheus chart bundles are there to be scraped by its server.
  ...['kube-state-metrics', 'prometheus-node-exporter', 'prometheus-pushgateway'].map((exporter): Relation => ['prometheus', exporter, 'scrapes']),
];

type Relation = readonly [from: string, to: string, label: string];

/**
 * The documented relations between the nodes `ids` (compared in lower case), as node ids. A workload running a known
 * part's image is that part under another name (`aliases`: the prometheus chart's `server` runs prometheus).
 */
function documentedRelations(ids: readonly string[], aliases: ReadonlyMap<string, string>): Relation[] {
  const byName = new Map(ids.map((id) => [id.toLowerCase(), id]));
  for (const [name, id] of aliases) if (!byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), id);
  const signed = SIGNED_RELATIONS.flatMap(([signature, relations]) => (signature.every((name) => byName.has(name.toLowerCase())) ? relations : []));
  return [...signed, ...MONITORING_RELATIONS].flatMap(([from, to, label]): Relation[] => {
    const [a, b] = [byName.get(from.toLowerCase()), byName.get(to.toLowerCase())];
    return a !== undefined && b !== undefined ? [[a, b, label]] : [];
  });
}

/**
 * Kubernetes objects a chart makes beside its workload, under their kind's name (traefik's `ingressClass: {enabled:
 * true, isDefaultClass: true}`, `gateway: {listeners}`, `gatewayClass`): drawn as sub-charts, traefik stood as one
 * box using three charts it does not have.
 */
const CHART_OBJECT = /^(ingressClass|gatewayClass|gateway|storageClass|priorityClass|ingressRoute)$/;
/**
 * A way the application runs (n8n's `queueMode: {enabled: true, workerReplicaCount: 2}`, Bitnami RabbitMQ's
 * `clustering: {enabled: true, addressType, rebalance}`, Keycloak's distributed `cache: {enabled: true, stack}`), not a
 * chart it uses: drawn as sub-charts, RabbitMQ used a "clustering" chart and Keycloak a "cache" one that do not exist.
 */
const MODE = /^([a-z]+Mode|clustering|cluster|cache|replication|sharding|highAvailability)$/;

/** Keys that name how the application runs, not a part of it: `deployment`, `statefulSet`, `daemonset`. */
const WORKLOAD_KIND_KEY = /^(deployment|statefulset|daemonset)$/i;
/** Names of the part that serves an application's front: what its chart-level ingress routes to. */
const FRONT = /^(web|server|app|frontend|ui|main)$/i;
/**
 * Parts that front a cluster of the chart's image when no part above does, in the order a chart's Service picks them
 * (Elasticsearch's selects `coordinating-only` when those run, else `master`; Spark's its `master`).
 */
const CLUSTER_FRONTS = ['coordinating', 'master'];

/** The chart-level blocks that are its application workload's own. */
const CHART_FEATURES = ['service', 'ingress', 'autoscaling', 'ports', 'persistence'];

/** A workload's block with the chart-level `features` it lacks of its own, a volume only in its one-volume form. */
function withChartFeatures(block: Record<string, unknown>, values: Record<string, unknown>, features: readonly string[]): Record<string, unknown> {
  const taken = Object.entries(values).filter(([key, value]) => features.includes(key) && (key !== 'persistence' || (isRecord(value) && text(value.size) !== undefined)));
  return { ...Object.fromEntries(taken), ...block };
}

function valuesToGraph(values: Record<string, unknown>, lineOf: LocatedYaml['lineOf'], commentAbove: LocatedYaml['commentAbove']): GraphIR {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const warnings: string[] = [];
  const groups: GraphGroup[] = [];
  // One arrow between two nodes, the first said: a second of the same id (Prometheus scrapes kube-state-metrics and
  // is its one workload, so "uses" it too) made Graphviz draw neither.
  const edge = (...args: Parameters<typeof arrow>): number => {
    const drawn = arrow(...args);
    return edges.some((e) => e.id === drawn.id) ? edges.length : edges.push(drawn);
  };

  /** A workload with its enabled features; returns its node id. */
  const workload = (id: string, label: string, block: Record<string, unknown>, image: string | undefined, parent?: string): string => {
    const firstNode = nodes.length;
    let replicas = replicaCount(block);
    // Bitnami's replicated charts (MongoDB, Redis) run one pod in `architecture: standalone` whatever `replicaCount`
    // says: their templates read it only for `replicaset` (MongoDB's default values: standalone, replicaCount: 2).
    if (block === values && values.architecture === 'standalone' && typeof replicas === 'number' && replicas > 1) {
      warnings.push(`${atLines([lineOf(['replicaCount'])])}replicaCount: ${replicas} counts only for a replicated architecture; architecture: standalone runs 1 replica, drawn so`);
      replicas = 1;
    }
    // The replica count shares the kind's row, so a workload with its image and its Service keeps to the three rows
    // an icon box shows (layout/node-size.ts: more draw as a table, without the icon).
    const rows = [typeof replicas === 'number' ? `workload, ${replicas} replica${replicas === 1 ? '' : 's'}` : 'workload'];
    if (image) rows.push(image);
    const node: GraphNode = { id, label, kind: kindOfName(`${label} ${image ?? ''}`, 'workload'), rows };
    // Several containers' images (`registry-photon, harbor-registryctl`): the first says what the pod is.
    node.iconHint = image?.split(', ')[0] ?? label;
    // A workload whose image names no product still reads as what it is, as in a Kubernetes manifest.
    node.iconFallback = 'kubernetes/Deployment';
    nodes.push(node);
    // One Service, ingress and volume each (`service: {type, port}`), or the common library's named ones. A Service
    // block is its workload's address: a row on it, as an architect draws it, not a box beside it.
    const services = namedFeatures(block.service, 'service') ?? (isRecord(block.service) && enabled(block.service) ? [['', block.service] as Feature] : flatService(block));
    for (const [name, service] of services) {
      // A Service's ports map lists every port it opens (ingress-nginx's `ports: {http: 80, https: 443}`).
      const ports = name !== '' || isRecord(service.ports) ? namedPorts(service) : [servicePort(service)].filter((known) => known !== undefined);
      node.rows!.push(helmServiceRow(name, service, ports.length > 0 ? ports : containerPorts(block).slice(0, MAX_SERVICE_PORTS)));
    }
    for (const key of ['ingress', 'secondaryIngress']) {
      const ingresses = namedFeatures(block[key], 'ingress') ?? (isRecord(block[key]) && (block[key] as Record<string, unknown>).enabled === true ? [['', block[key] as Record<string, unknown>] as Feature] : []);
      for (const [name, ingress] of ingresses) {
        const hosts = [text(ingress.hostname), ...(Array.isArray(ingress.hosts) ? ingress.hosts.map((h) => (isRecord(h) ? text(h.host) : text(h))) : [])].filter((h): h is string => h !== undefined);
        const ingressId = name === '' ? `${id}:${key}` : `${id}:${key}:${name}`;
        nodes.push({ id: ingressId, label: name === '' || name === 'main' ? `${label} ingress` : `${label} ${name} ingress`, kind: 'gateway', rows: hosts.slice(0, 3), iconRef: 'kubernetes/Ingress' });
        edge(ingressId, id, hosts[0]);
      }
    }
    const volumes = namedFeatures(block.persistence, 'persistence') ?? (isRecord(block.persistence) && block.persistence.enabled !== false ? [['', block.persistence] as Feature] : []);
    for (const [name, persistence] of volumes) {
      const size = text(persistence.size);
      const volumeId = name === '' ? `${id}:volume` : `${id}:volume:${name}`;
      const rows = name === '' ? (size ? [size] : []) : [text(persistence.type) ?? 'pvc', ...(size ? [size] : []), ...(text(persistence.mountPath) ? [text(persistence.mountPath)!] : [])];
      nodes.push({ id: volumeId, label: name === '' ? `${label} data` : name, kind: 'storage', rows, iconRef: 'kubernetes/Persistent Volume Claim' });
      edge(id, volumeId, 'mounts', true);
    }
    // Volumes named for what they hold (Vault's `server: {dataStorage: {enabled: true, size: 10Gi, mountPath}}`,
    // `auditStorage`): a claim template each, as `persistence` is.
    for (const [key, storage] of Object.entries(block)) {
      const held = /^([a-z]+)Storage$/.exec(key)?.[1];
      const size = isRecord(storage) ? text(storage.size) : undefined;
      if (held === undefined || size === undefined || !enabled(storage as Record<string, unknown>)) continue;
      const mountPath = text((storage as Record<string, unknown>).mountPath);
      nodes.push({ id: `${id}:volume:${held}`, label: `${label} ${held}`, kind: 'storage', rows: [size, ...(mountPath ? [mountPath] : [])], iconRef: 'kubernetes/Persistent Volume Claim' });
      edge(id, `${id}:volume:${held}`, 'mounts', true);
    }
    // An autoscaler sets the workload's replica count: said where the count is, not as a box beside it.
    const autoscaling = block.autoscaling ?? block.hpa;
    if (isRecord(autoscaling) && autoscaling.enabled === true) {
      node.rows![0] = `workload, ${String(autoscaling.minReplicas ?? '?')}–${String(autoscaling.maxReplicas ?? '?')} replicas, autoscaled`;
    }
    // A product's workload sits in its product's box, with its ingress and volume.
    if (parent !== undefined) for (const drawn of nodes.slice(firstNode)) drawn.parent = parent;
    return id;
  };

  const appImage = imageName(values.image) ?? documentedRepository(values.image, commentAbove);
  /** Workloads by node id; `product` is the top-level key they sit under (`sentry` for `sentry.web`), if any. */
  const components: [string, Record<string, unknown>, { label: string; product?: string }?][] = [];
  /** Top-level keys holding workloads of their own (`sentry: {web: {replicas: 1}, worker: {…}}`): drawn as boxes. */
  const products: string[] = [];
  const subcharts: string[] = [];
  /** Sub-chart → the top-level key that named it (`useRabbitMQ` for rabbitmq), for the line of a warning. */
  const subchartKeys = new Map<string, string>();
  const workloadBlocks: [string, Record<string, unknown>][] = [];
  /** Top-level blocks of the chart's own, on, that set a replica count: its workloads declare themselves. */
  const countedWorkloads = Object.entries(values).some(
    ([key, block]) => isRecord(block) && !CHART_SETTINGS.has(key) && !DEPENDENCY.test(key) && typeof replicaCount(block) === 'number' && !disabled(block),
  );
  /** Workloads the values switch off: not drawn, but said, so a reader does not look for them. */
  const offWorkloads: string[] = [];
  /** Parts of the cluster the chart's Prometheus scrapes (kube-prometheus-stack's `kubeScheduler`, `kubelet`). */
  const scraped: string[] = [];
  /** Parts a `type` switch says live outside the chart (`database: {type: external, external: {host}}`). */
  const externals: [string, string, Record<string, unknown>][] = [];
  /** How a `type` switch says the chart is reached (`expose: {type: ingress, ingress: {hosts}}`). */
  const entrances: [string, string, Record<string, unknown>][] = [];
  /** Datastores the application's own settings say where to reach: every component of the application uses them. */
  const usedByAll: string[] = [];
  /** Top-level keys of parts chosen by a `type` switch, internal or external: what the other components use. */
  const backing: string[] = [];
  /** Objects the chart makes and modes it runs in, switched on (traefik's `ingressClass`, n8n's `queueMode`): rows on the application. */
  const chartSwitches: string[] = [];
  /** Keys of parts built into the application (`internalDatabase`): rows on it. */
  const builtIn: string[] = [];
  const switchOf = new Map([...dependencySwitches(values), ...commentedSwitches(values, commentAbove)]);
  const switchKeys = new Set(switchOf.values());
  /** A top-level block as drawn: a dependency switched by a block of its own is on or off as that switch says. */
  const effective = (key: string): unknown => {
    const toggle = switchOf.get(key);
    return toggle === undefined ? values[key] : { ...(values[key] as Record<string, unknown>), enabled: (values[toggle] as Record<string, unknown>).enabled };
  };
  for (const key of Object.keys(values)) {
    if (switchKeys.has(key)) continue;
    const block = effective(key);
    if (switchOf.has(key) && isRecord(block) && !enabled(block)) {
      offWorkloads.push(key);
      continue;
    }
    const flagged = flaggedDependency(key, block);
    if (flagged !== undefined && !subcharts.includes(flagged)) {
      subcharts.push(flagged);
      subchartKeys.set(flagged, key);
    }
    if (!isRecord(block) || isDefaults(key) || (CHART_SETTINGS.has(key) && !isOwnWorkload(block))) continue;
    if (scrapesChart(key, block)) continue;
    // `internalDatabase: {enabled: true}` (Nextcloud's SQLite) is a part of the application's own pod, not a sub-chart.
    const inside = /^internal([A-Z]\w*)$/.exec(key)?.[1];
    if (inside !== undefined && (/^(database|db|cache)$/i.test(inside) || DEPENDENCY.test(inside))) {
      if (enabled(block)) builtIn.push(key);
      continue;
    }
    const picked = chosenAlternative(block);
    if (picked !== undefined && !disabled(block)) {
      const [type, chosen] = picked;
      if (isComponent(chosen) && !disabled(chosen)) components.push([key, chosen, { label: key }]);
      else if (/^(ingress|route)$/i.test(type)) entrances.push([key, type, chosen]);
      else if (externalAddress(chosen) !== undefined || /^external$/i.test(type)) externals.push([key, type, chosen]);
      if (isComponent(chosen) || externalAddress(chosen) !== undefined || /^(external|ingress|route)$/i.test(type)) {
        backing.push(key);
        continue;
      }
    }
    // A part the values say to reach outside the chart (n8n's `redis: {enabled: true, useExternal: true, host}`, its
    // `database: {type: postgresdb, useExternal: true, host}`) is that external one, used by the application: its
    // Redis was drawn as a sub-chart to install and its PostgreSQL was lost.
    if ((block.useExternal === true || block.external === true) && externalAddress(block) !== undefined) {
      externals.push([key, text(block.type) === undefined ? 'external' : `external ${text(block.type)!}`, block]);
      usedByAll.push(key);
      continue;
    }
    // The application's own settings under its name (authentik's `authentik: {enabled: true, secret_key, email…}`
    // beside `global.image.repository: ghcr.io/goauthentik/server`): not a sub-chart to install, whose box with the
    // product's icon stood apart from the server and worker that are the product.
    // Its datastores with an address there, their bundled sub-chart off or absent, are reached outside the chart.
    if (namesApplication(key, values) && !isComponent(block)) {
      for (const [inner, settings] of Object.entries(block)) {
        const bundled = values[inner];
        if (!DEPENDENCY.test(inner) || !isRecord(settings) || externalAddress(settings) === undefined || (isRecord(bundled) && enabled(bundled))) continue;
        externals.push([inner, 'external', settings]);
        usedByAll.push(inner);
      }
      continue;
    }
    // A block its comment calls a sub-chart (the prometheus chart's "## alertmanager sub-chart configurable values")
    // is that chart's values, whatever they hold: its `persistence` drew Alertmanager as a workload of this chart,
    // and `kube-state-metrics: {enabled: true}`, nothing else, was read as a setting and dropped.
    if (commentedSubchart(key, commentAbove(key))) {
      if (disabled(block)) offWorkloads.push(key);
      else if (!subcharts.includes(key)) {
        subcharts.push(key);
        subchartKeys.set(key, key);
      }
      continue;
    }
    if (isScrapeTarget(block, values)) {
      if (disabled(block)) offWorkloads.push(key);
      else scraped.push(key);
      continue;
    }
    if (DEPENDENCY.test(key) && switchedOn(block)) {
      // A datastore sub-chart switched on, its image or count overridden (Mastodon's `postgresql: {enabled: true,
      // image: …}`, Solr's `zookeeper: {enabled: true, replicaCount: 3}`): they are the sub-chart's, not a workload of
      // this chart's templates. Drawn as one running Solr's image, ZooKeeper took the place of Solr itself.
      if (!subcharts.includes(key.toLowerCase()) && !subcharts.includes(key)) {
        subcharts.push(key);
        subchartKeys.set(key, key);
      }
    } else if (isComponent(block) && !isProduct(block) && !(SETTING_NAME.test(key) && !namesImage(block.image) && replicaCount(block) === undefined)) {
      // A settings block is no workload for holding a `service` map: the OpenTelemetry Collector's `config.service`
      // is its pipelines, and drawn as a workload "config" it hid the collector the chart runs.
      const replicas = replicaCount(block);
      if (disabled(block)) offWorkloads.push(key);
      if (disabled(block) || replicas === 0) continue;
      if (values.architecture === 'standalone' && REPLICATION_PARTS.has(key)) continue;
      components.push([key, block]);
    } else if (DEPENDENCY.test(key) && disabled(block)) {
      // A datastore the chart could bring along, switched off (`mariadb: {enabled: false}`): said, as a workload is.
      offWorkloads.push(key);
    } else if (CHART_OBJECT.test(key) || MODE.test(key)) {
      // An object the chart makes beside its workload, or a way it runs, is no chart of its own: a row on the application.
      if (block.enabled === true) chartSwitches.push(key);
    } else if (switchedOn(block) && !DEPENDENCY.test(key) && !SETTING_NAME.test(key) && runsPod(block) && countedWorkloads) {
      // Among workloads that say how many they run (Spark's `worker: {replicaCount: 2}`), a switched-on pod's settings
      // are one more of the chart's image (`master: {enabled: true, containerPorts, livenessProbe, …}`): read as a
      // sub-chart "master", the workers used it and Spark's master was no workload.
      components.push([key, block]);
    } else if (!DEPENDENCY.test(key) && switchedOn(block) && runsJob(block)) {
      // A one-off Job of the chart's own templates (Superset's `init: {enabled: true, backoffLimit, jobAnnotations}`,
      // which sets its database up): no sub-chart to install, as it was drawn; a row on the application.
      chartSwitches.push(/job$/i.test(key) ? key : `${key} job`);
    } else if (DEPENDENCY.test(key) ? enabled(block) : switchedOn(block) && Object.keys(block).length > 1 && !SETTING_NAME.test(key)) {
      if (!subcharts.includes(key.toLowerCase()) && !subcharts.includes(key)) {
        subcharts.push(key);
        subchartKeys.set(key, key);
      }
    } else if (productWorkloads(block).length >= 2) {
      // A product whose parts are workloads one level down (Sentry's `sentry.web`, `snuba.api`).
      if (disabled(block)) {
        offWorkloads.push(key);
        continue;
      }
      products.push(key);
      for (const [inner, part] of productWorkloads(block)) {
        if (disabled(part) || replicaCount(part) === 0) offWorkloads.push(`${key}.${inner}`);
        else components.push([`${key}.${inner}`, part, { label: text(part.name) ?? inner, product: key }]);
      }
    } else {
      // A component the chart creates from a settings block: `cartDatabase.inClusterRedis: {create: true, name: redis-cart}`.
      // Not a `serviceAccount: {create: true, name: ""}` the block's pods share (Bitnami's MongoDB sharded `common`,
      // Kafka's `provisioning`): drawn, it was a workload with no name.
      const created = Object.entries(block).flatMap(([innerKey, inner]) =>
        isRecord(inner) && inner.create === true && text(inner.name) !== undefined && !CHART_SETTINGS.has(innerKey) ? [inner] : [],
      );
      if (created.length > 0) for (const inner of created) components.push([String(inner.name), inner]);
      else if (!SETTING_NAME.test(key)) workloadBlocks.push([key, block]);
    }
  }
  // A block named as the chart's image, with none of its own (`nextcloud: {host, persistence: {subPath}}` beside
  // `image.repository: nextcloud`), is the application's settings: drawn as a workload, it took the application's
  // place and lost the chart's Service, and its `persistence` drew a volume the chart switches off.
  const settingsOfApp = components.findIndex(([key, block]) => appImage !== undefined && key.toLowerCase() === appImage.toLowerCase() && !namesImage(block.image) && containerImages(block).length === 0);
  if (settingsOfApp >= 0) components.splice(settingsOfApp, 1);
  // A block under the product's name holding the image its components run and nothing a workload has of its own
  // (Bitnami Grafana Mimir's and Loki's `mimir: {image: bitnami/grafana-mimir, dataDir, configuration}` beside
  // `compactor`, `distributor`… that name no image): the image they run, not a workload "mimir" drawn beside them.
  const imageless = (block: Record<string, unknown>) => !(isRecord(block.image) && imageName(block.image) !== undefined) && containerImages(block).length === 0;
  // Only where the chart has no image at the top to give them (Redis's `kubectl: {image: bitnami/kubectl}` is a tool's).
  const sharedAt = appImage !== undefined ? -1 : components.findIndex(([key, block]) => {
    const image = isRecord(block.image) ? imageName(block.image) : undefined;
    return (
      key.length >= 4 && image?.toLowerCase().includes(key.toLowerCase()) === true && replicaCount(block) === undefined &&
      !['service', 'persistence', 'ingress'].some((feature) => feature in block) &&
      components.filter(([other, part]) => other !== key && imageless(part)).length >= 2
    );
  });
  const sharedImage = sharedAt >= 0 ? imageName(components.splice(sharedAt, 1)[0]![1].image) : undefined;
  // Bare per-workload blocks are the chart's own workloads only when there are several (one is more likely a
  // setting); a block in the middle of their run (`payment: {gateway: …}` between `mysql: {}` and `rabbitmq: {}`)
  // is one of them too. A chart whose workloads say what they are (an image, replicas, a service) writes empty or
  // scheduling-only blocks for its settings instead (Sentry's integrations `github: {}`, `slack: {}`).
  const bare = workloadBlocks.map(([key, block]) => components.length === 0 && isWorkloadBlock(key, block));
  const first = bare.indexOf(true);
  const last = bare.lastIndexOf(true);
  if (bare.filter(Boolean).length >= 2) {
    for (const [key, block] of workloadBlocks.slice(first, last + 1)) {
      if (disabled(block)) offWorkloads.push(key);
      else components.push([key, block]);
    }
  }
  // `x.enabled: true` switches a sub-chart on; a datastore block or flag without it may be the chart's own template.
  const isSubchart = (key: string): boolean => {
    const block = effective(key);
    return isRecord(block) && switchedOn(block);
  };
  for (const key of subcharts) nodes.push({ id: key, label: key, kind: kindOfName(key, OBJECT_STORE.test(key) ? 'storage' : 'service'), rows: [isSubchart(key) ? 'sub-chart' : 'dependency'], iconHint: key });
  // What the chart's Prometheus scrapes runs elsewhere (the control plane, every node): a node each, no workload. Many
  // are one node listing them, as a reviewer writes "the cluster's components": kube-prometheus-stack's seven boxes
  // and seven "scrapes" lines stacked a column 1,600 px tall beside Prometheus.
  const scraper = components.find(([key]) => /^prometheus$/i.test(key))?.[0];
  if (scraped.length >= MIN_LISTED_TARGETS) {
    nodes.push({ id: SCRAPED_LIST, label: 'cluster components', kind: 'external', rows: [`${scraped.length} scrape targets:`, ...linesOf(scraped)] });
    if (scraper !== undefined) edge(scraper, SCRAPED_LIST, 'scrapes', true);
    warnings.push(`${atLines(scraped.map((key) => lineOf([key])))}${scraped.length} scrape targets drawn as one node listing them`);
  } else {
    for (const key of scraped) {
      nodes.push({ id: key, label: key, kind: 'external', rows: ['scrape target'] });
      if (scraper !== undefined) edge(scraper, key, 'scrapes', true);
    }
  }
  // An image block left empty (`web.image: {repository: null}`) takes the chart's image, as no image block does.
  const ownImageOf = (block: Record<string, unknown>): string | undefined => (isRecord(block.image) ? imageName(block.image) : undefined);
  const runAppImage = components.filter(([, block]) => ownImageOf(block) === undefined && containerImages(block).length === 0);
  const hasApp = runAppImage.length === 0 && (appImage !== undefined || typeof values.replicaCount === 'number');
  const app = hasApp ? workload('app', text(values.nameOverride) ?? appImage ?? 'app', values, appImage) : undefined;
  const appNode = nodes.find((node) => node.id === app);
  for (const key of builtIn) {
    if (appNode) appNode.rows = [...(appNode.rows ?? []), `built-in ${key.slice('internal'.length).toLowerCase()}`];
    else warnings.push(`${atLines([lineOf([key])])}${key}: a part built into the application, which is not drawn here; not drawn`);
  }
  for (const product of products) groups.push({ id: product, label: product });
  // The chart's own Service and ingress are the application's: with no workload drawn for it, they are the block
  // running its image that is the application run as a kind (traefik's `deployment`, MinIO's `statefulset`) or serves
  // its front (Mastodon's `web`, whose ingress to mastodon.local was lost). A reverse proxy of the chart's own is where its ingress leads (Sentry's nginx).
  const proxy = app === undefined ? components.find(([key]) => REVERSE_PROXY.test(key))?.[0] : undefined;
  // Only a block that says it is so: Bitnami's MongoDB runs its image in the `arbiter` too, which is no front.
  const clusterFront = CLUSTER_FRONTS.find((name) => runAppImage.some(([key]) => key === name));
  const front = proxy ?? (app === undefined ? (runAppImage.find(([key, , place]) => WORKLOAD_KIND_KEY.test(key) || FRONT.test(place?.label ?? key))?.[0] ?? clusterFront) : undefined);
  for (const [key, block, place] of components) {
    const containers = containerImages(block);
    // A bundled server with no image of its own runs the server's (Mastodon's `apache`, Bitnami's Apache chart), not the application's.
    const fallbackImage = BUNDLED_SERVER.test(key) ? key.toLowerCase() : (appImage ?? sharedImage);
    const ownImage = ownImageOf(block) ?? (containers.length > 0 ? containers.join(', ') : fallbackImage);
    // A block named for the kind of workload the chart runs (traefik's `deployment: {kind: Deployment, replicas}`) is
    // the application run so, and goes by its name.
    const label = WORKLOAD_KIND_KEY.test(key) ? (text(values.nameOverride) ?? appImage ?? key) : (place?.label ?? text(block.name) ?? key);
    workload(key, label, key === front ? withChartFeatures(block, values, proxy === undefined ? CHART_FEATURES : ['ingress']) : block, ownImage, place?.product);
  }
  const owner = nodes.find((node) => node.id === (app ?? front));
  if (owner !== undefined && chartSwitches.length > 0) owner.rows = [...(owner.rows ?? []), `with ${chartSwitches.join(', ')}`];
  // With no application workload, the chart's volumes are listed per component (Harbor's
  // `persistence.persistentVolumeClaim: {registry: {size: 5Gi}, jobservice: {jobLog: {size: 1Gi}}}`): a row on each.
  if (app === undefined && isRecord(values.persistence) && values.persistence.enabled !== false) {
    const byName = new Map(nodes.map((node) => [node.label, node]));
    for (const claims of [values.persistence, ...Object.values(values.persistence)].filter(isRecord)) {
      for (const [name, claim] of Object.entries(claims)) {
        const node = byName.get(name);
        if (node === undefined || !isRecord(claim)) continue;
        const sized = text(claim.size) !== undefined ? [['', claim] as const] : Object.entries(claim).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]) && text(entry[1].size) !== undefined);
        for (const [inner, volume] of sized) node.rows = [...(node.rows ?? []), `${inner === '' ? '' : `${inner} `}volume ${String(volume.size)}`];
      }
    }
  }
  for (const [key, type, chosen] of externals) {
    // A templated default (`{{ .Release.Name }}-postgresql`) is no address a reader can use, and widened the box.
    const address = externalAddress(chosen);
    nodes.push({ id: key, label: key, kind: kindOfName(key, 'external'), rows: [type, ...(address && !address.includes('{{') ? [address] : [])], iconHint: key });
  }
  for (const key of usedByAll) for (const from of [...(app === undefined ? [] : [app]), ...components.map(([id]) => id)]) edge(from, key);
  for (const [key, type, chosen] of entrances) {
    // `hosts: {core: core.harbor.domain}` names the component each host reaches; a list of hosts names none.
    const hosts = isRecord(chosen.hosts) ? Object.entries(chosen.hosts).filter((entry): entry is [string, string] => text(entry[1]) !== undefined) : [];
    const listed = Array.isArray(chosen.hosts) ? chosen.hosts.flatMap((h) => (isRecord(h) ? [text(h.host)] : [text(h)])).filter((h): h is string => h !== undefined) : [];
    nodes.push({ id: key, label: `${key} ${type}`, kind: 'gateway', rows: [...hosts.map(([, host]) => host), ...listed].slice(0, 3), iconRef: 'kubernetes/Ingress' });
    for (const [name, host] of hosts) if (components.some(([id]) => id === name)) edge(key, name, host);
  }
  // What the chart's Prometheus is told to scrape besides (`serviceMonitor.enabled`, a sub-chart's
  // `prometheus.monitor.enabled`, as kube-prometheus-stack sets for its node exporter and kube-state-metrics).
  const monitored = (block: unknown): boolean =>
    isRecord(block) &&
    ((isRecord(block.serviceMonitor) && block.serviceMonitor.enabled === true) || (isRecord(block.prometheus) && isRecord(block.prometheus.monitor) && block.prometheus.monitor.enabled === true));
  if (scraper !== undefined) {
    const parts: [string, unknown][] = [...components.map(([key, block]): [string, unknown] => [key, block]), ...subcharts.map((key): [string, unknown] => [key, effective(key)])];
    for (const [key, block] of parts) if (key !== scraper && monitored(block)) edge(scraper, key, 'scrapes', true);
  }
  // Sub-charts are used by the application: one node, or the one component running its image; among several
  // workloads the values do not say which, so no arrow is guessed.
  const user = app ?? (runAppImage.length === 1 ? runAppImage[0]![0] : undefined);
  // What the values say a component talks to: a host, URL or connection string naming another component.
  const targets = [...components.map(([key, block, place]) => ({ id: key, names: [place?.label ?? key, text(block.name)] })), ...subcharts.map((key) => ({ id: key, names: [key] }))];
  // The part named so, else one whose name ends it (`{{ .Release.Name }}-rabbitmq`): `valkey-cart` is the valkey, not cart.
  const named = (host: string, suffix: boolean) =>
    targets.find(({ names }) => names.some((name) => name !== undefined && (suffix ? host.endsWith(`-${name.toLowerCase()}`) : host === name.toLowerCase())));
  const find = (host: string) => named(host, false) ?? named(host, true);
  const linked = new Set<string>();
  const sources: [string, Record<string, unknown>][] = [...(app ? [[app, values] as [string, Record<string, unknown>]] : []), ...components.map(([key, block]): [string, Record<string, unknown>] => [key, block])];
  for (const [from, block] of sources) {
    for (const value of relationValues(block, from === app ? new Set(components.map(([key]) => key)) : new Set())) {
      for (const host of hostsIn(value)) {
        const target = find(host);
        if (!target || target.id === from || linked.has(`${from}->${target.id}`)) continue;
        linked.add(`${from}->${target.id}`);
        // An arrow between parts means the one uses the other, as in Compose: unlabelled, where thirty "uses" stood
        // on the OpenTelemetry demo chart's lines; what an arrow means otherwise (scrapes, mounts, queries) is said.
        edge(from, target.id);
      }
    }
  }
  // A part chosen by a `type` switch, or a sub-chart, names its users in its settings (`jobserviceDatabaseIndex`,
  // `redis.sidekiq`), internal or external.
  // A product's workloads go by their own names there (`sidekiq` for `mastodon.sidekiq`).
  const componentIds = new Map(components.filter(([key]) => !backing.includes(key)).map(([key, , place]) => [place?.label ?? key, key]));
  for (const key of [...backing, ...subcharts]) {
    if (entrances.some(([entrance]) => entrance === key) || !isRecord(values[key])) continue;
    for (const name of usersNamedIn(values[key] as Record<string, unknown>, new Set(componentIds.keys()), backing.includes(key))) {
      const from = componentIds.get(name)!;
      if (from === key || linked.has(`${from}->${key}`)) continue;
      linked.add(`${from}->${key}`);
      edge(from, key);
    }
  }
  if (user) for (const chart of subcharts) if (!linked.has(`${user}->${chart}`)) edge(user, chart);
  // A reverse proxy of the chart's own that nothing routes to, where an ingress routes its hosts to the parts
  // themselves, is the way in for the other exposures the switch offers (Harbor: "If service exposed via ingress, the
  // Nginx will not be used"): drawn, it stood loose beside the ingress. Before the documented relations, which
  // would route through it.
  const bypass = entrances.find(([key]) => edges.some((e) => e.from === key));
  for (const [key] of bypass === undefined ? [] : components) {
    if (!REVERSE_PROXY.test(key) || edges.some((e) => e.from === key || e.to === key)) continue;
    nodes.splice(nodes.findIndex((node) => node.id === key), 1);
    warnings.push(`${atLines([lineOf([key])])}${key}: the chart's proxy for exposures other than ${bypass![0]}.type: ${bypass![1]}, which routes to the parts itself; not drawn`);
  }
  // What well-known parts do with each other is in their documentation, not in the values: drawn from it, and said.
  // Of the parts still drawn: a proxy the ingress bypasses is gone, and nothing routes through it.
  const imageAliases = new Map(
    components.flatMap(([key]): [string, string][] => {
      const node = nodes.find((drawn) => drawn.id === key);
      return node === undefined ? [] : [[node.iconHint ?? key, key]];
    }),
  );
  const documented = documentedRelations(nodes.map((node) => node.id), imageAliases).filter(([from, to]) => !linked.has(`${from}->${to}`) && !edges.some((e) => e.from === from && e.to === to));
  for (const [from, to, label] of documented) edge(from, to, label);
  if (documented.length > 0) warnings.push(`${documented.map(([from, to, label]) => `${from} → ${to} (${label})`).join(', ')}: drawn as the parts' documentation draws them; the values do not say it`);
  // Workloads all of one product (Mastodon's web, streaming and sidekiq): the product uses the sub-chart, an arrow from
  // its box, as its PostgreSQL and Elasticsearch stood apart with no line.
  const productOf = new Set(components.map(([, , place]) => place?.product));
  const product = productOf.size === 1 ? [...productOf][0] : undefined;
  for (const chart of subcharts) {
    if (user || components.length < 2 || edges.some((e) => e.to === chart || e.from === chart)) continue;
    if (product !== undefined) {
      edge(product, chart);
      continue;
    }
    warnings.push(`${atLines([lineOf([subchartKeys.get(chart) ?? chart])])}${chart}: which of the ${components.length} workloads uses it is not in the values; drawn without an arrow`);
  }
  // A bundled datastore switched off whose address the application is given is drawn as that external one.
  for (const key of usedByAll) if (offWorkloads.includes(key)) offWorkloads.splice(offWorkloads.indexOf(key), 1);
  for (const key of offWorkloads.sort((a, b) => (lineOf(a.split('.')) ?? 0) - (lineOf(b.split('.')) ?? 0))) {
    const toggle = switchOf.get(key);
    if (toggle !== undefined) {
      warnings.push(`${atLines([lineOf([toggle])])}${key}: switched off by ${toggle}.enabled: false; not drawn`);
      continue;
    }
    const block = key.split('.').reduce<Record<string, unknown>>((at, part) => at[part] as Record<string, unknown>, values);
    const why = enabled(block) ? 'all of its parts are switched off' : `${block.enabled === false ? 'enabled' : 'create'}: false`;
    warnings.push(`${atLines([lineOf(key.split('.'))])}${key}: ${why}; not drawn`);
  }
  if (nodes.length === 0) warnings.push('no image, component or enabled sub-chart found: is this a values.yaml?');
  return { layout: 'layered', direction: 'RIGHT', nodes, edges, groups, warnings };
}
