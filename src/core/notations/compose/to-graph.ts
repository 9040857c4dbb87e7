/**
 * docker-compose → GraphIR: services as nodes (role and icon from the image, published ports in the label),
 * depends_on and links as arrows, networks as containers, named volumes as storage nodes.
 */
import { AppError } from '../../errors.js';
import type { GraphEdge, GraphGroup, GraphIR, GraphNode } from '../../graph/types.js';
import { hostsIn } from '../hosts.js';
import { builtServiceRole, imageRole, namesDatabase } from './images.js';
import { atLines, isRecord as isMapping, parseLocatedYaml } from '../yaml.js';
import { interpolateCompose, interpolationWarning } from './interpolation.js';
import { resolveExtends } from './extends.js';

type Mapping = Record<string, unknown>;


/** Service names of a list (`[a, b]`) or map (`{a: {condition: …}}`) form: depends_on, networks. */
function namesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  if (isMapping(value)) return Object.keys(value);
  return [];
}

/** Environment entries whose value names a host: by their key (`*_HOST`, `*_URL`, `*_URI`, `*_ADDR`…) or by a value
 * that is a URL or `host:port`. A plain value (`MONGO_DB=catalogue`) may equal a service name by chance. */
const RELATION_KEY = /(HOST|HOSTNAME|URL|URI|ENDPOINT|ADDR|ADDRESS|SERVER|SERVERS|BROKERS?|DSN|CONNECTION(_?STRING)?)$/i;
const ADDRESS_VALUE = /:\/\/|^[\w.-]+:\d+(?:[,/]|$)/;

/** `environment` as a list (`KEY=value`) or a map: the values that may name another service. */
function relationValues(environment: unknown): string[] {
  const entries: [string, string][] = Array.isArray(environment)
    ? environment.filter((item): item is string => typeof item === 'string').map((item) => [item.split('=')[0]!, item.slice(item.indexOf('=') + 1)] as [string, string])
    : isMapping(environment)
      ? Object.entries(environment).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      : [];
  return entries.filter(([key, value]) => RELATION_KEY.test(key) || ADDRESS_VALUE.test(value)).map(([, value]) => value);
}

/**
 * Addresses a service's command line names (`wait-for-it -t 120 db:3306;`, `--broker=redis://queue:6379`): its words
 * that are a `host:port` or a URL, shell punctuation around them aside.
 */
function commandAddresses(...commands: unknown[]): string[] {
  const words = commands.flatMap((command) => (Array.isArray(command) ? command : [command])).filter((part): part is string => typeof part === 'string');
  return words
    .flatMap((part) => part.split(/[\s;|&()'"`]+/))
    .map((word) => (/^--?[\w.-]+=/.test(word) ? word.slice(word.indexOf('=') + 1) : word).replace(/[,.]+$/, ''))
    .filter((word) => ADDRESS_VALUE.test(word));
}

/** A variable left to the environment, as interpolation keeps it. */
const UNSET = /^\$\{\w+\}$/;

/**
 * A published port as `host→container`, or once when both are one variable left to the environment
 * (`${ENVOY_PORT}:${ENVOY_PORT}` reads `${ENVOY_PORT}`, the same port outside and in): a number is short enough to say twice.
 * A host port left to the environment alone is the container port it publishes (Supabase's `${KONG_HTTP_PORT}:8000`
 * reads `8000`), the variable named in a warning (`unset`): the variable's spelling stood where the port belongs.
 */
function portPair(host: string, container: string, unset: string[]): string {
  if (host === container && host.includes('$')) return host;
  if (!UNSET.test(host) || UNSET.test(container)) return `${host}→${container}`;
  unset.push(`${host}→${container}`);
  return container;
}

/** Published ports as `host→container[/udp]`; ports that are only exposed inside the network are left out. */
function publishedPorts(value: unknown, unset: string[]): string[] {
  if (!Array.isArray(value)) return [];
  const ports: string[] = [];
  for (const port of value) {
    if (isMapping(port)) {
      if (port.published === undefined) continue;
      const protocol = port.protocol && port.protocol !== 'tcp' ? `/${String(port.protocol)}` : '';
      ports.push(`${portPair(String(port.published), String(port.target), unset)}${protocol}`);
      continue;
    }
    // Short syntax: [ip:]host:container[/protocol]; a bare container port is not published on the host.
    const [spec = '', protocol] = String(port).split('/');
    const parts = spec.split(':');
    if (parts.length < 2) continue;
    const container = parts.pop()!;
    const host = parts.pop()!;
    ports.push(`${portPair(host, container, unset)}${protocol && protocol !== 'tcp' ? `/${protocol}` : ''}`);
  }
  return [...new Set(ports)];
}

interface Mount {
  volume: string;
  target: string;
}

/** Named-volume mounts of a service (short `name:/path[:ro]` or long `{type: volume, source}`); bind mounts are not
 * volumes: `others` are their indexes in the list. */
function namedMounts(value: unknown, named: Set<string>): { mounts: Mount[]; others: number[] } {
  const mounts: Mount[] = [];
  const others: number[] = [];
  (Array.isArray(value) ? value : []).forEach((volume: unknown, index) => {
    if (isMapping(volume)) {
      const source = typeof volume.source === 'string' ? volume.source : '';
      if ((volume.type ?? 'volume') === 'volume' && named.has(source)) mounts.push({ volume: source, target: String(volume.target ?? '') });
      else others.push(index);
      return;
    }
    const [source = '', target = ''] = String(volume).split(':');
    if (named.has(source)) mounts.push({ volume: source, target });
    else others.push(index);
  });
  return { mounts, others };
}

const serviceId = (name: string) => `service:${name}`;
const volumeId = (name: string) => `volume:${name}`;
const networkId = (name: string) => `network:${name}`;
const stackId = (host: string) => `stack:${host}`;

/** Parses a Compose file; throws AppError('parse_error') for YAML errors or a file without a services map. */
/** A service's labels as a map, from either form Compose takes (`["k=v"]` or `{k: v}`). */
function labelsOf(service: Mapping): Map<string, string> {
  const { labels } = service;
  if (Array.isArray(labels)) return new Map(labels.map((entry) => String(entry).split(/=(.*)/s)).map(([key, value]) => [key!.trim(), (value ?? '').trim()]));
  return new Map(isMapping(labels) ? Object.entries(labels).map(([key, value]) => [key, String(value ?? '')]) : []);
}

/** What a Traefik rule matches, briefly: its hosts, then its paths (`Host(`a.com`) && PathPrefix(`/api`)` → `a.com/api`). */
function ruleTarget(rule: string): string {
  const hosts = [...rule.matchAll(/Host\(([^)]*)\)/g)].flatMap((m) => [...m[1]!.matchAll(/[`"']([^`"']+)[`"']/g)].map((h) => h[1]!));
  const paths = [...rule.matchAll(/Path(?:Prefix)?\(([^)]*)\)/g)].flatMap((m) => [...m[1]!.matchAll(/[`"']([^`"']+)[`"']/g)].map((h) => h[1]!));
  return [hosts.join(', '), paths.join(', ')].filter(Boolean).join(' ');
}

/**
 * Each reverse proxy of the file and the services it routes to, with what it routes (a host, a path): Traefik's
 * Docker provider takes a service with `traefik.enable=true`, or with routers when `exposedbydefault` is left on;
 * nginx-proxy (jwilder's, nginxproxy's) a service with `VIRTUAL_HOST`.
 */
function proxyRoutes(services: readonly [string, Mapping][]): Map<string, [string, string][]> {
  const routes = new Map<string, [string, string][]>();
  const imageOf = (service: Mapping) => (typeof service.image === 'string' ? service.image.split('@')[0]!.split(':')[0]!.split('/').pop()! : '');
  const settings = (service: Mapping) => [service.command, service.entrypoint].flatMap((value) => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []));
  for (const [proxy, service] of services) {
    const image = imageOf(service);
    if (image === 'traefik') {
      const optIn = settings(service).some((setting) => /exposedbydefault=false/i.test(setting));
      for (const [name, other] of services) {
        const labels = labelsOf(other);
        const rules = [...labels].filter(([key]) => /^traefik\.http\.routers\.[^.]+\.rule$/.test(key)).map(([, rule]) => ruleTarget(rule));
        const on = labels.get('traefik.enable');
        if (name === proxy || on === 'false' || (on !== 'true' && (optIn || rules.length === 0))) continue;
        routes.set(proxy, [...(routes.get(proxy) ?? []), [name, rules.filter(Boolean).join('; ')]]);
      }
    } else if (image === 'nginx-proxy') {
      for (const [name, other] of services) {
        const environment = other.environment;
        const host = Array.isArray(environment) ? environment.map(String).find((entry) => entry.startsWith('VIRTUAL_HOST='))?.slice('VIRTUAL_HOST='.length) : isMapping(environment) ? environment.VIRTUAL_HOST : undefined;
        if (name !== proxy && host !== undefined) routes.set(proxy, [...(routes.get(proxy) ?? []), [name, String(host)]]);
      }
    }
  }
  return routes;
}

export function composeToGraph(code: string): GraphIR {
  const located = parseLocatedYaml(code);
  const interpolated = interpolateCompose(located.data);
  const { lineOf } = located;
  const data = interpolated.data;
  if (!isMapping(data) || !isMapping(data.services)) {
    throw new AppError('parse_error', 'line 1, column 1: expected a Compose file with a top-level "services" map', { line: 1, column: 1 });
  }
  const warnings: string[] = [];
  const variables = interpolationWarning(interpolated);
  if (variables) warnings.push(variables);
  const services = Object.entries(resolveExtends(data.services)).filter(([, service]) => isMapping(service)) as [string, Mapping][];
  const namedVolumes = new Set(isMapping(data.volumes) ? Object.keys(data.volumes) : []);
  const topNetworks = isMapping(data.networks) ? data.networks : {};

  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const groups = new Map<string, GraphGroup>();
  const edgeKeys = new Set<string>();
  const addEdge = (edge: Omit<GraphEdge, 'id'>) => {
    const key = `${edge.from}\u0000${edge.to}`;
    if (edgeKeys.has(key)) return;
    edgeKeys.add(key);
    edges.push({ id: `e${edges.length + 1}`, ...edge });
  };
  const serviceNames = new Set(services.map(([name]) => name));
  const volumeUsers = new Map<string, Set<string | undefined>>();
  /** Lines of bind mounts and anonymous volumes, which are not drawn. */
  const unnamedMounts: (number | undefined)[] = [];

  // A service that names no network is on the project's `default` network (unless it sets network_mode): drawn in
  // it once networks are drawn at all, so that it does not look cut off from the services it talks to.
  const networksDrawn = services.some(([, service]) => namesOf(service.networks).length > 0);
  const networksOf = (service: Mapping) => {
    const written = namesOf(service.networks);
    return written.length === 0 && networksDrawn && service.network_mode === undefined ? ['default'] : written;
  };
  // `network_mode: service:gluetun` runs a service inside another's network stack (a VPN client's, mostly): it has
  // that service's address and the ports it publishes, so the two are drawn in one box, in the host's network.
  // Drawn apart, qbittorrent and prowlarr floated outside the network they are reached in.
  const stackHosts = new Map<string, string>();
  for (const [name, service] of services) {
    const host = typeof service.network_mode === 'string' ? /^service:(.+)$/.exec(service.network_mode)?.[1] : undefined;
    if (host !== undefined && host !== name && serviceNames.has(host)) stackHosts.set(name, host);
  }
  const stackOf = (name: string) => stackHosts.get(name) ?? ([...stackHosts.values()].includes(name) ? name : undefined);
  for (const [name, service] of services) {
    const networks = networksOf(service);
    const stack = stackOf(name);
    if (stack !== undefined && !groups.has(stackId(stack))) {
      const hostNetwork = networksOf(services.find(([other]) => other === stack)![1])[0];
      groups.set(stackId(stack), {
        id: stackId(stack),
        label: `${stack}'s network stack`,
        kind: 'network',
        ...(hostNetwork !== undefined && { parent: networkId(hostNetwork) }),
      });
    }
    for (const network of networks) {
      if (groups.has(network)) continue;
      const external = isMapping(topNetworks[network]) && Boolean((topNetworks[network] as Mapping).external);
      groups.set(network, { id: networkId(network), label: external ? `network ${network} (external)` : `network ${network}`, kind: 'network' });
    }
    // A node sits in one container: a service on several networks is drawn in its first.
    if (networks.length > 1) warnings.push(`${atLines([lineOf(['services', name, 'networks'])])}service "${name}" is on networks ${networks.join(', ')}; drawn inside "${networks[0]}"`);
    const parent = stack !== undefined ? stackId(stack) : networks[0] !== undefined ? networkId(networks[0]) : undefined;

    const image = typeof service.image === 'string' ? service.image : undefined;
    const found = image ? imageRole(image) : builtServiceRole(name, service.build, service.command);
    const role = found.kind === 'service' && namesDatabase(name) ? { ...found, kind: 'database' as const } : found;
    const unset: string[] = [];
    const ports = publishedPorts(service.ports, unset);
    if (unset.length > 0) warnings.push(`${atLines([lineOf(['services', name, 'ports'])])}service "${name}" publishes ${unset.join(', ')}: drawn as the container port, the host port being left to the environment`);
    const replicas = isMapping(service.deploy) && typeof service.deploy.replicas === 'number' ? service.deploy.replicas : undefined;
    const title = replicas !== undefined && replicas > 1 ? `${name} ×${replicas}` : name;
    // Drawn in its first network, it says the others: Mastodon's web looked cut off from the internal network its
    // database is on.
    const alsoOn = networks.length > 1 ? [`also on ${networks.slice(1).join(', ')}`] : [];
    nodes.push({
      id: serviceId(name),
      label: [title, ...(ports.length > 0 ? [ports.join(', ')] : []), ...alsoOn].join('\n'),
      kind: role.kind,
      ...(role.iconHint !== undefined && { iconHint: role.iconHint }),
      ...(parent !== undefined && { parent }),
    });

    namesOf(service.depends_on).forEach((dependency, index) => {
      if (serviceNames.has(dependency)) addEdge({ from: serviceId(name), to: serviceId(dependency) });
      else warnings.push(`${atLines([lineOf(['services', name, 'depends_on', Array.isArray(service.depends_on) ? index : dependency])])}service "${name}" depends on "${dependency}", which is not a service here`);
    });
    // A service a setting names (`AI_SERVICE_URL=http://ai-service:5001/`) is called, declared or not in depends_on;
    // so is one its command waits for or is given (frappe's create-site runs `wait-for-it db:3306` and stood loose).
    for (const value of [...relationValues(service.environment), ...commandAddresses(service.command, service.entrypoint)]) {
      for (const host of hostsIn(value)) {
        if (host !== name && serviceNames.has(host)) addEdge({ from: serviceId(name), to: serviceId(host) });
      }
    }
    (Array.isArray(service.links) ? service.links : []).forEach((link: unknown, index) => {
      const target = String(link).split(':')[0]!;
      if (serviceNames.has(target)) addEdge({ from: serviceId(name), to: serviceId(target), style: { strokeStyle: 'dashed' } });
      else warnings.push(`${atLines([lineOf(['services', name, 'links', index])])}service "${name}" links to "${target}", which is not a service here`);
    });
    const { mounts, others } = namedMounts(service.volumes, namedVolumes);
    unnamedMounts.push(...others.map((index) => lineOf(['services', name, 'volumes', index])));
    for (const mount of mounts) {
      if (!volumeUsers.has(mount.volume)) volumeUsers.set(mount.volume, new Set());
      volumeUsers.get(mount.volume)!.add(parent);
      addEdge({ from: serviceId(name), to: volumeId(mount.volume), ...(mount.target !== '' && { label: mount.target }), endArrowhead: 'none', style: { strokeStyle: 'dashed' } });
    }
  }

  // A reverse proxy that finds its services by their labels (Traefik's `traefik.http.routers.web.rule=Host(…)`) or
  // their environment (nginx-proxy's `VIRTUAL_HOST`) routes to them, though neither names the other: Traefik stood
  // apart from the server and web it fronts.
  for (const [proxy, routes] of proxyRoutes(services)) {
    for (const [target, label] of routes) addEdge({ from: serviceId(proxy), to: serviceId(target), ...(label !== '' && { label }) });
  }

  for (const volume of namedVolumes) {
    // A volume used only from one network is drawn inside it, next to its users.
    const users = [...(volumeUsers.get(volume) ?? [])];
    const parent = users.length === 1 ? users[0] : undefined;
    const spec = (data.volumes as Mapping)[volume];
    const external = isMapping(spec) && Boolean(spec.external);
    // Services mounting a volume at one path (a service and its worker sharing a YAML anchor, as netbox's do): the
    // path is said once, on the volume, not on every line into it.
    const mounts = edges.filter((edge) => edge.to === volumeId(volume));
    const paths = new Set(mounts.map((edge) => edge.label));
    const shared = mounts.length > 1 && paths.size === 1 ? mounts[0]!.label : undefined;
    if (shared !== undefined) for (const edge of mounts) delete edge.label;
    nodes.push({
      id: volumeId(volume),
      label: external ? `${volume} (external)` : volume,
      kind: 'storage',
      iconHint: 'volume',
      ...(shared !== undefined && { rows: [shared] }),
      ...(parent !== undefined && { parent }),
    });
  }
  if (unnamedMounts.length > 0) warnings.push(`${atLines(unnamedMounts)}${unnamedMounts.length} bind mount(s) and anonymous volume(s) are not drawn`);
  for (const key of ['secrets', 'configs'] as const) {
    if (isMapping(data[key]) && Object.keys(data[key]).length > 0) warnings.push(`${atLines([lineOf([key])])}top-level ${key} are not drawn`);
  }

  return { layout: 'layered', direction: 'DOWN', nodes, edges, groups: [...groups.values()], warnings };
}
