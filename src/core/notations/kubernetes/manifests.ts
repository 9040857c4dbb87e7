import { isRecord, type LocatedYaml } from '../yaml.js';
import { dictionary } from '../../dictionary.js';

/**
 * A namespace as written in a manifest, `default` as none: an object written without one is applied there, so the
 * two are one namespace. Envoy Gateway's merged-gateways drew its Gateways, written in `default`, in a box apart from
 * the backend they route to, written without.
 */
export const namespaceIn = (value: unknown): string | undefined => (typeof value === 'string' && value !== 'default' ? value : undefined);

/** One Kubernetes object, with the fields the diagram reads pulled out of its manifest. */
export interface Resource {
  kind: string;
  name: string;
  /** Absent for objects in the default namespace, written or not, and for cluster-scoped kinds (see `namespaceIn`). */
  namespace?: string;
  /** The manifest as written. */
  manifest: Record<string, unknown>;
  /** For workloads: the pod template (a Pod's own spec and labels, a CronJob's job template's template). */
  pod?: { labels: Record<string, string>; spec: Record<string, unknown> };
  /** Line of its `kind:`, for warnings. */
  line?: number;
}

export const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod']);

/** Flattens documents and `List` kinds (`kind: List`, `DeploymentList`, …) into objects with a kind and a name. */
export function collectResources(documents: readonly LocatedYaml[]): { resources: Resource[]; ignored: (number | undefined)[] } {
  const resources: Resource[] = [];
  /** Lines of documents without kind or name. */
  const ignored: (number | undefined)[] = [];
  const visit = (value: unknown, lineOf: LocatedYaml['lineOf'], path: (string | number)[]): void => {
    if (!isRecord(value)) {
      if (value !== null && value !== undefined) ignored.push(lineOf(path));
      return;
    }
    const kind = typeof value.kind === 'string' ? value.kind : '';
    if (kind.endsWith('List') && Array.isArray(value.items)) {
      value.items.forEach((item, index) => visit(item, lineOf, [...path, 'items', index]));
      return;
    }
    const metadata = isRecord(value.metadata) ? value.metadata : {};
    // An object named by the server from a prefix (`generateName: upgrade-sql-schema-`, as hook Jobs are, each run a
    // new one) goes by the prefix: left out, Argo CD's helm-hooks example lost its schema upgrade.
    const prefix = typeof metadata.generateName === 'string' ? metadata.generateName.replace(/-$/, '') : '';
    const name = typeof metadata.name === 'string' ? metadata.name : prefix;
    const line = lineOf([...path, kind ? 'kind' : Object.keys(value)[0] ?? '']);
    if (!kind || !name) {
      ignored.push(line);
      return;
    }
    const resource: Resource = { kind, name, manifest: value, ...(line !== undefined && { line }) };
    const namespace = namespaceIn(metadata.namespace);
    if (namespace !== undefined) resource.namespace = namespace;
    const pod = podTemplate(kind, value, metadata);
    if (pod) resource.pod = pod;
    resources.push(resource);
  };
  for (const document of documents) visit(document.data, document.lineOf, []);
  return { resources, ignored };
}

function podTemplate(kind: string, manifest: Record<string, unknown>, metadata: Record<string, unknown>): Resource['pod'] {
  if (!WORKLOAD_KINDS.has(kind)) return undefined;
  const spec = record(manifest.spec);
  if (kind === 'Pod') return { labels: stringMap(metadata.labels), spec };
  const template = kind === 'CronJob' ? record(record(record(spec.jobTemplate).spec).template) : record(spec.template);
  return { labels: stringMap(record(template.metadata).labels), spec: record(template.spec) };
}

export const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = dictionary({});
  for (const [key, v] of Object.entries(record(value))) if (v !== null && v !== undefined) out[key] = String(v);
  return out;
}

/** A label selector (`matchLabels` form or a plain map) matches when every pair is among the labels. */
export function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  const pairs = Object.entries(selector);
  return pairs.length > 0 && pairs.every(([key, value]) => labels[key] === value);
}

/** What a pod spec reads: ConfigMaps, Secrets and PVCs by name, from volumes, env, envFrom and pull secrets. */
export function podReferences(spec: Record<string, unknown>): { kind: 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim'; name: string; via: string }[] {
  const refs: { kind: 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim'; name: string; via: string }[] = [];
  const add = (kind: 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim', name: unknown, via: string): void => {
    if (typeof name === 'string' && !refs.some((r) => r.kind === kind && r.name === name)) refs.push({ kind, name, via });
  };
  for (const volume of list(spec.volumes).map(record)) {
    add('ConfigMap', record(volume.configMap).name, 'mounts');
    add('Secret', record(volume.secret).secretName, 'mounts');
    add('PersistentVolumeClaim', record(volume.persistentVolumeClaim).claimName, 'mounts');
    for (const source of list(record(volume.projected).sources).map(record)) {
      add('ConfigMap', record(source.configMap).name, 'mounts');
      add('Secret', record(source.secret).name, 'mounts');
    }
  }
  for (const container of [...list(spec.initContainers), ...list(spec.containers)].map(record)) {
    for (const env of list(container.env).map(record)) {
      const from = record(env.valueFrom);
      add('ConfigMap', record(from.configMapKeyRef).name, 'env');
      add('Secret', record(from.secretKeyRef).name, 'env');
    }
    for (const envFrom of list(container.envFrom).map(record)) {
      add('ConfigMap', record(envFrom.configMapRef).name, 'env');
      add('Secret', record(envFrom.secretRef).name, 'env');
    }
  }
  for (const pull of list(spec.imagePullSecrets).map(record)) add('Secret', pull.name, 'pulls with');
  return refs;
}

/** Plain env values of a pod's containers (service addresses such as `redis-cart:6379` live there). */
export function envValues(spec: Record<string, unknown>): string[] {
  return list(spec.containers)
    .map(record)
    .flatMap((c) => list(c.env).map(record))
    .map((env) => env.value)
    .filter((v): v is string => typeof v === 'string');
}

/** A value that is an address: a URL or connection string, or `host:port` (not a bare word, which a flag's value often is). */
const ADDRESS = /:\/\/|^[\w.-]+:\d+(?:[,/]|$)/;
export const isAddress = (value: string): boolean => ADDRESS.test(value);

/**
 * Addresses a container is given on its command line (`--backend-url=http://backend:9898/echo`,
 * `--cache-server=tcp://cache:6379`, `-redis redis:6379`): the values of flags and arguments that are addresses.
 */
export function argumentAddresses(spec: Record<string, unknown>): string[] {
  return list(spec.containers)
    .map(record)
    .flatMap((c) => [...list(c.command), ...list(c.args)])
    .filter((v): v is string => typeof v === 'string')
    .map((arg) => (/^--?[\w.-]+=/.test(arg) ? arg.slice(arg.indexOf('=') + 1) : arg))
    .filter(isAddress);
}

/**
 * An image as a reader writes it on a box: without its digest and registry host, and at most its last two path parts
 * (`us-central1-docker.pkg.dev/ci/bank-of-anthos/ledger-db:v0.6.10@sha256:891c…` → `bank-of-anthos/ledger-db:v0.6.10`).
 * The whole reference wrapped to four lines of a box and tripled its width.
 */
export function shortImage(image: string): string {
  const parts = image.replace(/@sha256:[0-9a-f]+$/i, '').split('/');
  if (parts.length > 1 && /[.:]|^localhost$/.test(parts[0]!)) parts.shift();
  return parts.slice(-2).join('/');
}

export function images(spec: Record<string, unknown>): string[] {
  return list(spec.containers)
    .map(record)
    .map((c) => c.image)
    .filter((v): v is string => typeof v === 'string');
}

/**
 * A Service folded onto the one workload it fronts, as a row of that workload, the same for manifests and chart values:
 * `Service`, its own name when it differs from the workload's, its type unless ClusterIP, its ports.
 */
export function serviceRow(ownName: string | undefined, type: string, ports: string): string {
  return ['Service', ...(ownName ? [ownName] : []), ...(type === 'ClusterIP' ? [] : [type]), ...(ports ? [`:${ports}`] : [])].join(' ');
}
