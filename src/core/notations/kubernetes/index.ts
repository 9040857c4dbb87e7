import { AppError } from '../../errors.js';
import type { GraphEdge, GraphGroup, GraphIR, GraphNode, NodeKind, NotationConverter } from '../../graph/types.js';
import { imageBase, imageRole, namesDatabase } from '../compose/images.js';
import { hostNamesIn } from '../hosts.js';
import { collectResources, argumentAddresses, envValues, images, isAddress, list, namespaceIn, podReferences, record, selects, serviceRow, shortImage, stringMap, type Resource } from './manifests.js';
import { atLines, parseLocatedYamlDocuments } from '../yaml.js';
import { dictionary } from '../../dictionary.js';

/** The Kubernetes icon library labels its icons in words ("Service Account") where the kind is one CamelCase word. */
const ICON_LABELS: Readonly<Record<string, string>> = dictionary({
  ServiceAccount: 'Service Account',
  PersistentVolumeClaim: 'Persistent Volume Claim',
  HorizontalPodAutoscaler: 'Horizontal Pod Autoscaler',
  NetworkPolicy: 'Network Policy',
  // The icon set has none for the Gateway API: its Gateway and routes do the Ingress's job, so they wear its icon.
  Gateway: 'Ingress',
  HTTPRoute: 'Ingress',
  GRPCRoute: 'Ingress',
});
const kubernetesIcon = (kind: string): string => `kubernetes/${ICON_LABELS[kind] ?? kind}`;

/** The kinds drawn, with their role and the icon of the Kubernetes icon set (`kubernetes/<Kind>`). */
export const KUBERNETES_KINDS: Readonly<Record<string, NodeKind>> = dictionary({
  Deployment: 'workload',
  StatefulSet: 'workload',
  DaemonSet: 'workload',
  ReplicaSet: 'workload',
  Job: 'workload',
  CronJob: 'workload',
  Pod: 'workload',
  Service: 'service',
  Ingress: 'gateway',
  Gateway: 'gateway',
  HTTPRoute: 'gateway',
  GRPCRoute: 'gateway',
  ConfigMap: 'config',
  Secret: 'secret',
  PersistentVolumeClaim: 'storage',
  HorizontalPodAutoscaler: 'generic',
  ServiceAccount: 'user',
  NetworkPolicy: 'network',
});

// A document may start on its `---` line (`--- apiVersion: v1`).
const API_VERSION = /^(?:---[ \t]+)?apiVersion:\s*["']?[\w./-]+/m;
const KIND = /^(?:---[ \t]+)?kind:\s*["']?[A-Z]\w*/m;

export const kubernetesNotation: NotationConverter = {
  id: 'kubernetes',
  detect(code) {
    const both = API_VERSION.test(code) && KIND.test(code);
    if (both) return 0.95;
    return /^[ \t]+apiVersion:/m.test(code) && /^[ \t]+kind:/m.test(code) && /^items:/m.test(code) ? 0.8 : 0;
  },
  toGraph(code) {
    const { resources, ignored } = collectResources(parseLocatedYamlDocuments(code));
    if (resources.length === 0) {
      throw new AppError('parse_error', 'line 1, column 1: expected Kubernetes objects with apiVersion, kind and metadata.name', { line: 1, column: 1 });
    }
    return resourcesToGraph(resources, ignored);
  },
};

/** The row (second, after the kind) that marks where traffic enters the cluster: an Ingress, a Gateway, a route. */
const ENTRY_POINT = 'entry point';

const nodeId = (kind: string, namespace: string | undefined, name: string): string => `${kind}/${namespace ?? ''}/${name}`;

/**
 * The Service a host names in the cluster's DNS, by the forms a pod resolves: `name.ns.svc[.cluster.local]`, `name.ns`
 * for a namespace of the input, and a bare `name` in the pod's own namespace (`localhost` aside). Any other dotted
 * host is outside the cluster (`smtp.mailgun.org`).
 */
function clusterService(host: string, namespace: string | undefined, namespaces: ReadonlySet<string>): { name: string; namespace?: string } | undefined {
  const [name, inside, ...rest] = host.split('.');
  if (name === undefined || name === 'localhost' || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(name)) return undefined;
  const at = (ns: string | undefined) => ({ name, ...(namespaceIn(ns) !== undefined && { namespace: namespaceIn(ns) }) });
  if (inside === undefined) return at(namespace);
  if (rest.length === 0 && namespaces.has(inside)) return at(inside);
  return rest[0] === 'svc' && (rest.length === 1 || rest.slice(1).join('.') === 'cluster.local') ? at(inside) : undefined;
}

function resourcesToGraph(resources: Resource[], ignored: (number | undefined)[]): GraphIR {
  const warnings: string[] = [];
  const nodes = new Map<string, GraphNode>();
  const groups = new Map<string, GraphGroup>();
  const edges: GraphEdge[] = [];
  /** Kinds not drawn → the lines of their objects. */
  const skippedKinds = new Map<string, (number | undefined)[]>();
  const namespaceGroup = (namespace: string | undefined): string | undefined => {
    if (!namespace) return undefined;
    const id = `namespace:${namespace}`;
    if (!groups.has(id)) groups.set(id, { id, label: namespace, kind: 'namespace' });
    return id;
  };

  const drawn: Resource[] = [];
  for (const resource of resources) {
    if (resource.kind === 'Namespace') namespaceGroup(resource.name);
    else if (KUBERNETES_KINDS[resource.kind]) drawn.push(resource);
    else skippedKinds.set(resource.kind, [...(skippedKinds.get(resource.kind) ?? []), resource.line]);
  }
  for (const resource of drawn) {
    const node: GraphNode = {
      id: nodeId(resource.kind, resource.namespace, resource.name),
      label: resource.name,
      kind: KUBERNETES_KINDS[resource.kind]!,
      rows: details(resource),
      iconRef: kubernetesIcon(resource.kind),
    };
    const image = resource.pod ? images(resource.pod.spec)[0] : undefined;
    if (image) node.iconHint = image.split('/').pop()!.split(/[:@]/)[0]!;
    // A workload running a data product (mongo, redis, mysql, postgres, kafka…) reads as that product, as in
    // Compose: its icon and role come from the image; the Kubernetes kind stays in its first row.
    const role = image ? imageRole(image) : undefined;
    if (role?.iconHint && DATA_KINDS.has(role.kind)) {
      delete node.iconRef;
      Object.assign(node, { kind: role.kind, iconHint: role.iconHint });
    } else if (resource.pod && (namesDatabase(resource.name) || (image !== undefined && namesDatabase(imageBase(image) ?? '')))) {
      // No product to show, so the Kubernetes icon stays, on a database's shape.
      node.kind = 'database';
    }
    const parent = namespaceGroup(resource.namespace);
    if (parent) node.parent = parent;
    nodes.set(node.id, node);
  }

  const find = (kind: string, namespace: string | undefined, name: string): GraphNode | undefined => nodes.get(nodeId(kind, namespace, name));
  /** A reference's namespace as written: `default` is an object's own when it names none (`namespaceIn`). */
  const findInNamespace = (kind: string, namespace: string | undefined, name: string): GraphNode | undefined => find(kind, namespaceIn(namespace), name);
  const workloads = drawn.filter((r) => r.pod);
  const namespaces = new Set(resources.flatMap((r) => (r.kind === 'Namespace' ? [r.name] : r.namespace !== undefined ? [r.namespace] : [])));
  const services = drawn.filter((r) => r.kind === 'Service');
  const fronts = frontServices(services, workloads);
  /** Cluster addresses the pods are given of Services the input does not define. */
  const elsewhere: { caller: Resource; name: string; namespace?: string }[] = [];
  /**
   * A manifest of one part of an app (emojivoto's web, a petclinic service, each in a file of its own) calls Services
   * defined elsewhere: drawn dashed, as a ConfigMap or Secret from elsewhere is, so the database and the services it
   * calls are not lost. Where the input's workloads call Services of its own, it holds the app, and a Service it
   * names but lacks is one it leaves out (the Online Boutique's optional shopping assistant): said, not drawn.
   */
  const drawCallsElsewhere = (calls: typeof elsewhere): void => {
    const holdsApp = edges.some((e) => e.label === 'calls');
    const left: string[] = [];
    for (const { caller, name, namespace } of calls) {
      const from = nodeId(caller.kind, caller.namespace, caller.name);
      // The Service of a workload in the input, written elsewhere: the call reaches that workload.
      const workload = workloads.find((w) => w.name === name && w.namespace === namespace);
      if (workload) {
        addEdge(from, nodeId(workload.kind, workload.namespace, workload.name), 'calls');
        continue;
      }
      const id = nodeId('Service', namespace, name);
      if (holdsApp) {
        if (!left.includes(name)) left.push(name);
        continue;
      }
      if (!nodes.has(id)) {
        const target: GraphNode = { id, label: name, kind: namesDatabase(name) ? 'database' : 'service', rows: ['Service'], iconRef: kubernetesIcon('Service'), style: { strokeStyle: 'dashed' } };
        // Named after the product behind it (`customers-db-mysql`), it reads as that product, as a workload running it does.
        const product = imageRole(name.split('-').pop()!);
        if (product.iconHint && DATA_KINDS.has(product.kind)) {
          delete target.iconRef;
          Object.assign(target, { kind: product.kind, iconHint: product.iconHint });
        }
        const parent = namespaceGroup(namespace);
        if (parent) target.parent = parent;
        nodes.set(id, target);
        warnings.push(`${atLines([caller.line])}Service ${name}: called by ${caller.kind} ${caller.name} but not defined in the input`);
      }
      addEdge(from, id, 'calls');
    }
    if (left.length > 0) warnings.push(`${left.join(', ')}: named in the settings but not defined in the input, which holds the Services the rest call; not drawn`);
  };
  const addEdge = (tail: string, head: string, label?: string, dashed = false): void => {
    // An edge to or from a Service folded into its workload is the workload's: its own selects edge is dropped.
    const from = fronts.get(tail)?.workload ?? tail;
    const to = fronts.get(head)?.workload ?? head;
    const id = `${from}->${to}`;
    if (from === to || edges.some((e) => e.id === id)) return;
    const edge: GraphEdge = { id, from, to, endArrowhead: 'arrow' };
    if (label) edge.label = label;
    if (dashed) edge.style = { strokeStyle: 'dashed' };
    edges.push(edge);
  };
  /** Lines of the NetworkPolicies drawn as the calls they allow, and of the autoscalers drawn on what they scale. */
  const foldedPolicies: (number | undefined)[] = [];
  const foldedAutoscalers: (number | undefined)[] = [];
  const foldedRoutes: (number | undefined)[] = [];

  for (const resource of drawn) {
    const from = nodeId(resource.kind, resource.namespace, resource.name);
    const spec = record(resource.manifest.spec);
    if (resource.kind === 'Service') {
      const selector = stringMap(spec.selector);
      for (const workload of workloads) {
        if (workload.namespace === resource.namespace && selects(selector, workload.pod!.labels)) {
          addEdge(from, nodeId(workload.kind, workload.namespace, workload.name), servicePorts(spec));
        }
      }
    } else if (resource.kind === 'Ingress') {
      for (const { service, label } of ingressBackends(spec)) {
        const target = find('Service', resource.namespace, service);
        if (target) addEdge(from, target.id, label);
        else warnings.push(`${atLines([resource.line])}Ingress ${resource.name}: backend service "${service}" is not in the input`);
      }
    } else if (resource.kind === 'HTTPRoute' || resource.kind === 'GRPCRoute') {
      // A route whose Gateways are all drawn is what those Gateways send where: their arrows, labelled with its hosts
      // and paths, and not a box between them. Its Gateway elsewhere (the app's manifests apart from the cluster's),
      // the route is the entry point drawn.
      const parents = list(spec.parentRefs).map(record).map((ref) => findInNamespace('Gateway', typeof ref.namespace === 'string' ? ref.namespace : resource.namespace, String(ref.name)));
      const gateways = parents.length > 0 && parents.every((gateway) => gateway !== undefined) ? (parents as GraphNode[]) : undefined;
      if (gateways) {
        nodes.delete(from);
        foldedRoutes.push(resource.line);
      }
      for (const { service, namespace, label } of routeBackends(spec)) {
        const target = findInNamespace('Service', namespace ?? resource.namespace, service);
        if (!target) warnings.push(`${atLines([resource.line])}${resource.kind} ${resource.name}: backend service "${service}" is not in the input`);
        else for (const tail of gateways?.map((gateway) => gateway.id) ?? [from]) addEdge(tail, target.id, label);
      }
    } else if (resource.kind === 'HorizontalPodAutoscaler') {
      const target = record(spec.scaleTargetRef);
      const node = find(String(target.kind), resource.namespace, String(target.name));
      if (node) {
        // The autoscaler sets the workload's replica count: said where the count is, not as a box beside it.
        node.rows = [`${String(target.kind)}, ${String(spec.minReplicas ?? 1)}–${String(spec.maxReplicas ?? '?')} replicas, autoscaled`, ...(node.rows ?? []).slice(1)];
        nodes.delete(from);
        foldedAutoscalers.push(resource.line);
      }
    } else if (resource.kind === 'NetworkPolicy') {
      const selector = stringMap(record(spec.podSelector).matchLabels);
      const neighbours = workloads.filter((workload) => workload.namespace === resource.namespace);
      const targets = neighbours.filter((workload) => selects(selector, workload.pod!.labels));
      if (targets.length === 1) {
        // What a policy of one workload says is who may call it: drawn as those calls, the policy a row on the workload.
        const target = nodes.get(nodeId(targets[0]!.kind, targets[0]!.namespace, targets[0]!.name))!;
        target.rows = [...(target.rows ?? []), `NetworkPolicy ${resource.name}`];
        nodes.delete(from);
        foldedPolicies.push(resource.line);
        for (const { caller, ports } of allowedCallers(spec, neighbours)) addEdge(nodeId(caller.kind, caller.namespace, caller.name), target.id, ports.length > 0 ? `allowed :${ports.join(', ')}` : 'allowed');
      } else {
        for (const workload of targets) addEdge(from, nodeId(workload.kind, workload.namespace, workload.name), 'applies to', true);
      }
    }
    if (!resource.pod) continue;
    for (const ref of podReferences(resource.pod.spec)) {
      let target = find(ref.kind, resource.namespace, ref.name);
      if (!target) {
        // Referenced but defined elsewhere (kustomize, a Helm chart, created by hand): drawn dashed, said in a warning.
        target = { id: nodeId(ref.kind, resource.namespace, ref.name), label: ref.name, kind: KUBERNETES_KINDS[ref.kind]!, rows: [ref.kind], iconRef: kubernetesIcon(ref.kind), style: { strokeStyle: 'dashed' } };
        const parent = namespaceGroup(resource.namespace);
        if (parent) target.parent = parent;
        nodes.set(target.id, target);
        warnings.push(`${atLines([resource.line])}${ref.kind} ${ref.name}: used by ${resource.kind} ${resource.name} but not defined in the input`);
      }
      addEdge(from, target.id, ref.via, true);
    }
    // A StatefulSet's claim templates: each replica gets a claim of its own (`www-web-0`, `www-web-1`), drawn once.
    for (const template of list(spec.volumeClaimTemplates).map(record)) {
      const name = record(template.metadata).name;
      if (typeof name !== 'string') continue;
      const size = record(record(record(template.spec).resources).requests).storage;
      const claim: GraphNode = {
        id: nodeId('PersistentVolumeClaim', resource.namespace, `${name}-${resource.name}`),
        label: name,
        kind: KUBERNETES_KINDS.PersistentVolumeClaim!,
        rows: ['PersistentVolumeClaim', 'one per replica', ...(typeof size === 'string' || typeof size === 'number' ? [String(size)] : [])],
        iconRef: kubernetesIcon('PersistentVolumeClaim'),
      };
      const parent = namespaceGroup(resource.namespace);
      if (parent) claim.parent = parent;
      nodes.set(claim.id, claim);
      addEdge(from, claim.id, 'mounts', true);
    }
    const account = resource.pod.spec.serviceAccountName;
    const accountNode = typeof account === 'string' ? find('ServiceAccount', resource.namespace, account) : undefined;
    if (accountNode) addEdge(from, accountNode.id, 'runs as', true);
    // Service-to-service calls: a value naming a Service of the input (`redis-cart:6379`, `http://api.ns.svc`,
    // `amqp://user:pw@rabbitmq:5672`, `kafka-0:9092,kafka-1:9092`), in the pod's env, its command line or a ConfigMap it reads.
    const configValues = podReferences(resource.pod.spec)
      .filter((ref) => ref.kind === 'ConfigMap')
      .flatMap((ref) => Object.values(stringMap(record(resources.find((r) => r.kind === 'ConfigMap' && r.name === ref.name && r.namespace === resource.namespace)?.manifest.data))));
    const addresses = new Set([...envValues(resource.pod.spec).filter(isAddress), ...argumentAddresses(resource.pod.spec)]);
    for (const value of [...envValues(resource.pod.spec), ...argumentAddresses(resource.pod.spec), ...configValues]) {
      const hosts = hostNamesIn(value);
      let reached = false;
      for (const host of hosts) {
        const service = services.find((s) => s.name === host.split('.')[0] && s.namespace === resource.namespace);
        // A Service in front of the workload itself is its own address (Kiali's config names the kiali Service): no call.
        const own = service !== undefined && selects(stringMap(record(service.manifest.spec).selector), resource.pod.labels);
        if (service && !own) addEdge(from, nodeId('Service', service.namespace, service.name), 'calls');
        reached ||= service !== undefined;
      }
      // A list reaching a Service of the input names its members beside it (`kafka:9092,kafka-1:9092`), no others;
      // a script given as an argument is words, not addresses.
      if (reached || !addresses.has(value) || /\s/.test(value.trim())) continue;
      for (const host of hosts) {
        const service = clusterService(host, resource.namespace, namespaces);
        if (service !== undefined && !(service.name === resource.name && service.namespace === resource.namespace)) elsewhere.push({ caller: resource, ...service });
      }
    }
  }
  drawCallsElsewhere(elsewhere);

  // A datastore named after the one workload that uses it (the sock shop's carts-db, catalogue-db, orders-db): the
  // workload reaches it from its code, not its manifest, so the sock shop's stores stood loose; drawn from the names, and said.
  const byName: string[] = [];
  for (const store of workloads) {
    const storeId = nodeId(store.kind, store.namespace, store.name);
    const owner = /^(.+?)-?(db|database|mongo|mongodb|redis|postgres|mysql)$/.exec(store.name)?.[1];
    const user = workloads.find((w) => w.name === owner && w.namespace === store.namespace);
    if (user === undefined || !DATA_KINDS.has(nodes.get(storeId)?.kind ?? 'service') || edges.some((e) => e.to === storeId)) continue;
    addEdge(nodeId(user.kind, user.namespace, user.name), storeId, 'calls');
    byName.push(`${user.name} → ${store.name}`);
  }
  if (byName.length > 0) warnings.push(`${byName.join(', ')}: calls drawn from the names (a datastore named after the one workload that uses it); the manifests do not say them`);

  for (const [id, { workload, service }] of fronts) {
    const target = nodes.get(workload)!;
    target.rows = [...(target.rows ?? []), serviceRowOf(service, target.label)];
    nodes.delete(id);
  }
  if (fronts.size > 0) warnings.push(`${atLines([...fronts.values()].map(({ service }) => service.line))}${fronts.size} Service${fronts.size === 1 ? '' : 's'} in front of one workload each drawn as a row on it ("Service …"), what called the Service drawn calling the workload`);
  if (foldedAutoscalers.length > 0) warnings.push(`${atLines(foldedAutoscalers)}${foldedAutoscalers.length} HorizontalPodAutoscaler${foldedAutoscalers.length === 1 ? '' : 's'} drawn as the replica range on the workload ${foldedAutoscalers.length === 1 ? 'it scales' : 'each scales'}`);
  if (foldedRoutes.length > 0) warnings.push(`${atLines(foldedRoutes)}${foldedRoutes.length} route${foldedRoutes.length === 1 ? '' : 's'} of Gateways in the input drawn as the Gateway's arrows to the Services, labelled with hosts and paths`);
  if (foldedPolicies.length > 0) warnings.push(`${atLines(foldedPolicies)}${foldedPolicies.length} NetworkPolicy objects of one workload each drawn as the calls they allow from workloads of the input (\"allowed\"), and a row on the workload`);
  foldRoleBindings(resources, (namespace, name) => findInNamespace('ServiceAccount', namespace, name), skippedKinds, warnings);
  for (const [kind, lines] of skippedKinds) warnings.push(`${atLines(lines)}skipped ${lines.length} ${kind} object${lines.length === 1 ? '' : 's'} (not drawn)`);
  if (ignored.length > 0) warnings.push(`${atLines(ignored)}skipped ${ignored.length} document${ignored.length === 1 ? '' : 's'} without kind or metadata.name`);
  // The Ingress (or Gateway, or route) is where traffic enters: listed first, so the layout starts the drawing (top
  // left) with it and what it routes to.
  const isEntry = (node: GraphNode) => Number(node.rows?.[1] === ENTRY_POINT);
  const entryFirst = [...nodes.values()].sort((a, b) => isEntry(b) - isEntry(a));
  return { layout: 'layered', direction: 'RIGHT', nodes: entryFirst, edges, groups: [...groups.values()], warnings };
}

/**
 * RBAC, compactly: a ServiceAccount's Roles and ClusterRoles (from the RoleBindings and ClusterRoleBindings naming
 * it) are rows on its node, one per role, rather than a Role and a RoleBinding node each. The bindings and roles so
 * folded are no longer "skipped", and a warning says they were folded.
 */
function foldRoleBindings(
  resources: readonly Resource[],
  account: (namespace: string | undefined, name: string) => GraphNode | undefined,
  skippedKinds: Map<string, (number | undefined)[]>,
  warnings: string[],
): void {
  const folded = new Set<Resource>();
  for (const binding of resources.filter((r) => r.kind === 'RoleBinding' || r.kind === 'ClusterRoleBinding')) {
    const role = record(binding.manifest.roleRef);
    if (typeof role.name !== 'string' || typeof role.kind !== 'string') continue;
    for (const subject of list(binding.manifest.subjects).map(record)) {
      if (subject.kind !== 'ServiceAccount' || typeof subject.name !== 'string') continue;
      const node = account(typeof subject.namespace === 'string' ? subject.namespace : binding.namespace, subject.name);
      if (!node) continue;
      const row = `${role.kind} ${role.name}`;
      if (!node.rows?.includes(row)) node.rows = [...(node.rows ?? []), row];
      folded.add(binding);
      const roleResource = resources.find((r) => r.kind === role.kind && r.name === role.name && (role.kind === 'ClusterRole' || r.namespace === binding.namespace));
      if (roleResource) folded.add(roleResource);
    }
  }
  if (folded.size === 0) return;
  for (const resource of folded) {
    const lines = skippedKinds.get(resource.kind)?.filter((line) => line !== resource.line);
    if (lines === undefined || lines.length === 0) skippedKinds.delete(resource.kind);
    else skippedKinds.set(resource.kind, lines);
  }
  warnings.push(`${atLines([...folded].map((r) => r.line))}${folded.size} Role, ClusterRole and binding objects shown as rows on the ServiceAccounts they bind`);
}

/**
 * The workloads a NetworkPolicy's ingress rules let in, named by pod labels in the policy's namespace, with the ports
 * each rule opens (Argo CD's manifests say who calls whom only so: its repo server admits the API server and three
 * controllers on 8081). A peer by namespace or address, or an empty selector (every pod), names no workload.
 */
function allowedCallers(spec: Record<string, unknown>, neighbours: readonly Resource[]): { caller: Resource; ports: string[] }[] {
  const callers = new Map<Resource, string[]>();
  for (const rule of list(spec.ingress).map(record)) {
    const ports = list(rule.ports).map((port) => record(port).port).filter((port) => typeof port === 'number' || typeof port === 'string').map(String);
    for (const peer of list(rule.from).map(record)) {
      if (peer.namespaceSelector !== undefined || peer.ipBlock !== undefined) continue;
      const labels = stringMap(record(peer.podSelector).matchLabels);
      for (const caller of neighbours.filter((workload) => selects(labels, workload.pod!.labels))) {
        callers.set(caller, [...new Set([...(callers.get(caller) ?? []), ...ports])]);
      }
    }
  }
  return [...callers].map(([caller, ports]) => ({ caller, ports }));
}

/**
 * The Services each in front of one workload (by their node ids): the workload's address, as an architect draws it,
 * a row on the workload rather than a box of its own beside it (sock-shop's fourteen pairs drew two across). A
 * Service selecting several workloads, or none of the input, stays a node.
 */
function frontServices(services: readonly Resource[], workloads: readonly Resource[]): Map<string, { workload: string; service: Resource }> {
  const fronts = new Map<string, { workload: string; service: Resource }>();
  for (const service of services) {
    const selector = stringMap(record(service.manifest.spec).selector);
    const selected = workloads.filter((workload) => workload.namespace === service.namespace && selects(selector, workload.pod!.labels));
    if (selected.length !== 1) continue;
    fronts.set(nodeId('Service', service.namespace, service.name), { workload: nodeId(selected[0]!.kind, service.namespace, selected[0]!.name), service });
  }
  return fronts;
}

/** A folded Service as its workload's row: `Service web-svc LoadBalancer :80→8080`; its name when not the workload's, its type unless ClusterIP. */
function serviceRowOf(service: Resource, workloadName: string): string {
  const spec = record(service.manifest.spec);
  return serviceRow(service.name === workloadName ? undefined : service.name, serviceType(spec), servicePorts(spec));
}

const DATA_KINDS = new Set<NodeKind>(['database', 'cache', 'queue', 'storage']);

/**
 * A node's rows: its kind first, then what it says of itself. A workload's replica count shares the kind's row, so a
 * Deployment with its image and the Service folded into it keeps to the three rows an icon box shows
 * (layout/node-size.ts: more draw as a table, without the icon).
 */
function details(resource: Resource): string[] {
  const spec = record(resource.manifest.spec);
  if (resource.pod) {
    const replicas = typeof spec.replicas === 'number' ? `, ${spec.replicas} replica${spec.replicas === 1 ? '' : 's'}` : '';
    const schedule = typeof spec.schedule === 'string' ? [`schedule ${spec.schedule}`] : [];
    // The main container's image, the others counted: a second image row (Sock Shop's rabbitmq exporter sidecar) took
    // the box past three rows, drawn as a table without its icon beside the iconned workloads.
    const [main, ...others] = images(resource.pod.spec).map(shortImage);
    // A hook runs at a step of the release, not beside the app: Helm's `pre-install`, Argo CD's `PreSync`.
    const annotations = stringMap(record(resource.manifest.metadata).annotations);
    const hook = annotations['helm.sh/hook'] ?? annotations['argocd.argoproj.io/hook'];
    return [`${resource.kind}${replicas}`, ...(hook === undefined ? [] : [`${hook} hook`]), ...schedule, ...(main === undefined ? [] : [others.length > 0 ? `${main} +${others.length}` : main])];
  }
  if (resource.kind === 'Ingress') {
    const hosts = [...new Set(list(spec.rules).map((rule) => record(rule).host).filter((host): host is string => typeof host === 'string'))];
    return [resource.kind, ENTRY_POINT, ...hosts.slice(0, 2)];
  }
  if (resource.kind === 'Gateway') {
    const listeners = list(spec.listeners).map(record).map((listener) => `${String(listener.protocol ?? '')} :${String(listener.port ?? '')}`.trim());
    return [resource.kind, ENTRY_POINT, ...(listeners.length > 0 ? [[...new Set(listeners)].join(', ')] : [])];
  }
  if (resource.kind === 'HTTPRoute' || resource.kind === 'GRPCRoute') {
    const hosts = list(spec.hostnames).filter((host): host is string => typeof host === 'string');
    return [resource.kind, ENTRY_POINT, ...hosts.slice(0, 2)];
  }
  if (resource.kind === 'Service') return [resource.kind, serviceType(spec), servicePorts(spec)].filter(Boolean);
  return [resource.kind];
}

const serviceType = (spec: Record<string, unknown>): string => (typeof spec.type === 'string' ? spec.type : spec.clusterIP === 'None' ? 'Headless' : 'ClusterIP');

function servicePorts(spec: Record<string, unknown>): string {
  return list(spec.ports)
    .map(record)
    .map((p) => (p.targetPort !== undefined && p.targetPort !== p.port ? `${p.port}→${p.targetPort}` : String(p.port)))
    .join(', ');
}

/**
 * Gateway API route backends (HTTPRoute, GRPCRoute): each Service a rule sends to, labelled with the route's first
 * hostname and the rule's paths (a GRPCRoute's by service/method), as an Ingress's are.
 */
function routeBackends(spec: Record<string, unknown>): { service: string; namespace?: string; label: string }[] {
  const host = list(spec.hostnames).find((name): name is string => typeof name === 'string') ?? '';
  const backends: { service: string; namespace?: string; label: string }[] = [];
  for (const rule of list(spec.rules).map(record)) {
    const matches = list(rule.matches).map(record);
    const paths = matches.map((match) => {
      const method = record(match.method);
      return typeof record(match.path).value === 'string' ? String(record(match.path).value) : [method.service, method.method].filter((part) => typeof part === 'string').join('/');
    });
    const label = `${host}${[...new Set(paths.filter(Boolean))].join(', ') || (host === '' ? '/' : '')}`;
    for (const ref of list(rule.backendRefs).map(record)) {
      if ((ref.kind ?? 'Service') !== 'Service' || typeof ref.name !== 'string') continue;
      backends.push({ service: ref.name, ...(typeof ref.namespace === 'string' && { namespace: ref.namespace }), label });
    }
  }
  return backends;
}

/** Ingress backends: networking.k8s.io/v1 (`backend.service.name`) and the older `backend.serviceName`. */
function ingressBackends(spec: Record<string, unknown>): { service: string; label: string }[] {
  const backends: { service: string; label: string }[] = [];
  const add = (backend: Record<string, unknown>, label: string): void => {
    const name = record(backend.service).name ?? backend.serviceName;
    if (typeof name === 'string') backends.push({ service: name, label });
  };
  add(record(spec.defaultBackend ?? spec.backend), 'default');
  for (const rule of list(spec.rules).map(record)) {
    for (const path of list(record(rule.http).paths).map(record)) {
      add(record(path.backend), `${typeof rule.host === 'string' ? rule.host : ''}${typeof path.path === 'string' ? path.path : '/'}`);
    }
  }
  return backends;
}
