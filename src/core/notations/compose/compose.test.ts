import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { composeNotation } from './index.js';
import { imageRole } from './images.js';
import { codeToScene } from '../index.js';

const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/compose/${name}`, import.meta.url), 'utf8');
const toGraph = composeNotation.toGraph;

function parseError(code: string): AppError | undefined {
  try {
    toGraph(code);
  } catch (error) {
    return error as AppError;
  }
  return undefined;
}

describe('compose corpus', () => {
  it('draws services that name no network inside the default network they are on (Nextcloud behind nginx-proxy)', () => {
    const graph = toGraph(fixture('nextcloud-with-nginx-proxy-postgres-fpm.compose.yaml'));
    expect(graph.groups.map((g) => g.label)).toEqual(['network default', 'network proxy-tier']);
    const parentOf = (name: string) => graph.nodes.find((n) => n.id === `service:${name}`)?.parent;
    expect(['db', 'redis', 'app', 'cron'].map(parentOf)).toEqual(Array(4).fill('network:default'));
    expect(['web', 'proxy', 'letsencrypt-companion'].map(parentOf)).toEqual(Array(3).fill('network:proxy-tier'));
    // A file that names no network draws none.
    expect(toGraph(fixture('awesome-nginx-golang-mysql.compose.yaml')).groups).toEqual([]);
  });

  it('reads the voting app: networks as containers, the named volume as storage, ports and replicas in labels', () => {
    const graph = toGraph(fixture('example-voting-app.docker-stack.yml'));
    expect(graph.groups.map((g) => g.label)).toEqual(['network frontend', 'network backend']);
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    expect(byId.get('service:db')).toMatchObject({ kind: 'database', iconHint: 'PostgreSQL', parent: 'network:backend' });
    expect(byId.get('service:redis')).toMatchObject({ kind: 'cache', iconHint: 'Redis' });
    expect(byId.get('service:vote')!.label).toBe('vote ×2\n8080→80');
    expect(byId.get('volume:db-data')).toMatchObject({ kind: 'storage', parent: 'network:backend' });
    expect(graph.edges).toEqual([{ id: 'e1', from: 'service:db', to: 'volume:db-data', label: '/var/lib/postgresql/data', endArrowhead: 'none', style: { strokeStyle: 'dashed' } }]);
    expect(graph.warnings).toEqual(['line 42: service "worker" is on networks frontend, backend; drawn inside "frontend"']);
    // Drawn in one network, the worker says the other, which its database is in.
    expect(byId.get('service:worker')!.label).toBe('worker ×2\nalso on backend');
  });

  it('reads depends_on in its long map form (condition: service_healthy)', () => {
    const graph = toGraph(fixture('awesome-nginx-golang-mysql.compose.yaml'));
    expect(graph.edges.filter((e) => !e.to.startsWith('volume:')).map((e) => `${e.from}>${e.to}`)).toEqual(['service:backend>service:db', 'service:proxy>service:backend']);
  });

  it('reads the sentry file: anchors and merge keys expand, external volumes are marked', () => {
    const graph = toGraph(fixture('sentry-self-hosted.docker-compose.yml'));
    const web = graph.edges.filter((e) => e.from === 'service:web').map((e) => e.to);
    // depends_on comes from the merged x-sentry-defaults anchor.
    expect(web).toEqual(expect.arrayContaining(['service:redis', 'service:kafka', 'service:pgbouncer']));
    expect(graph.nodes.find((n) => n.id === 'volume:sentry-data')!.label).toBe('sentry-data (external)');
    expect(graph.nodes.find((n) => n.id === 'service:clickhouse')).toMatchObject({ kind: 'service' });
  });
});

describe('compose edge cases', () => {
  it('draws depends_on (list and map) and links as arrows, once per pair, and warns about unknown targets', () => {
    const graph = toGraph(`services:
  web:
    image: nginx:1.27
    depends_on: [api]
    links: ["api:backend", "ghost"]
  api:
    image: ghcr.io/acme/api:2
    depends_on:
      db: { condition: service_healthy }
  db:
    image: docker.io/library/mysql:8
`);
    expect(graph.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['service:web>service:api', 'service:api>service:db']);
    expect(graph.warnings).toEqual(['line 5: service "web" links to "ghost", which is not a service here']);
    expect(graph.nodes.map((n) => [n.id, n.kind, n.iconHint])).toEqual([
      ['service:web', 'gateway', 'NGINX'],
      ['service:api', 'service', 'api'],
      ['service:db', 'database', 'MySQL'],
    ]);
  });

  it('puts only published ports in the label, in short and long syntax', () => {
    const graph = toGraph(`services:
  app:
    image: app
    ports:
      - "3000"
      - "127.0.0.1:8080:80"
      - "53:53/udp"
      - target: 443
        published: 8443
`);
    expect(graph.nodes[0]!.label).toBe('app\n8080→80, 53→53/udp, 8443→443');
  });

  it('draws named volumes (short and long mounts) as storage; bind mounts are counted in a warning', () => {
    const graph = toGraph(`services:
  app:
    image: app
    volumes:
      - data:/data
      - type: volume
        source: logs
        target: /logs
      - ./src:/src
volumes:
  data:
  logs:
  unused:
`);
    expect(graph.nodes.filter((n) => n.kind === 'storage').map((n) => n.id)).toEqual(['volume:data', 'volume:logs', 'volume:unused']);
    expect(graph.edges.map((e) => e.to)).toEqual(['volume:data', 'volume:logs']);
    expect(graph.warnings).toEqual(['line 9: 1 bind mount(s) and anonymous volume(s) are not drawn']);
  });

  it('names the line of each thing it leaves out: an unknown dependency in list or map form, a bind mount, secrets', () => {
    const graph = toGraph(`services:
  web:
    image: nginx
    depends_on:
      - api
      - ghost
    volumes:
      - ./html:/usr/share/nginx/html
  api:
    image: api
    depends_on:
      db:
        condition: service_healthy
    volumes:
      - /tmp
secrets:
  token:
    file: ./token
`);
    expect(graph.warnings).toEqual([
      'line 6: service "web" depends on "ghost", which is not a service here',
      'line 12: service "api" depends on "db", which is not a service here',
      'lines 8, 15: 2 bind mount(s) and anonymous volume(s) are not drawn',
      'line 16: top-level secrets are not drawn',
    ]);
  });

  it('reports YAML syntax errors with line and column', () => {
    const error = parseError('services:\n  web:\n    image: "nginx\n  db: x\n');
    expect(error?.code).toBe('parse_error');
    expect(error?.details).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    expect(error?.message).toMatch(/^line \d+, column \d+: /);
  });

  it('rejects YAML that has no services map', () => {
    expect(parseError('version: "3"\nvolumes: {}\n')).toMatchObject({ code: 'parse_error', message: 'line 1, column 1: expected a Compose file with a top-level "services" map' });
  });

  it('detects Compose by its top-level services key', () => {
    expect(composeNotation.detect('version: "3"\nservices:\n  web:\n    image: nginx\n')).toBeGreaterThan(0.9);
    expect(composeNotation.detect('apiVersion: v1\nkind: Service\n')).toBe(0);
  });

  it('knows images by name whatever the registry, tag or digest', () => {
    expect(imageRole('bitnami/postgresql:16')).toEqual({ kind: 'database', iconHint: 'PostgreSQL' });
    expect(imageRole('redis@sha256:abc')).toEqual({ kind: 'cache', iconHint: 'Redis' });
    expect(imageRole('$IMAGE')).toEqual({ kind: 'service' });
  });
});

describe('compose services built from a Dockerfile', () => {
  it('take their icon from the service name, build context, Dockerfile name or command, as a person would', async () => {
    const code = [
      'services:',
      '  db:',
      '    build:',
      '      context: ./postgres',
      '  cache:',
      '    build:',
      '      context: .',
      '      dockerfile: Dockerfile.redis',
      '  api:',
      '    build: ./api',
    ].join('\n');
    const { graph } = await codeToScene(code, { notation: 'compose' });
    const byId = Object.fromEntries(graph.nodes.map((n) => [n.id, n]));
    expect(byId['service:db']).toMatchObject({ kind: 'database', iconRef: 'databases/PostgreSQL' });
    expect(byId['service:cache']).toMatchObject({ kind: 'cache', iconRef: 'databases/Redis' });
    expect(byId['service:api']).toMatchObject({ iconRef: 'generic/API' });
  });
});

describe('composeNotation relations named in environment', () => {
  it('draws a call a setting names (AI_SERVICE_URL=http://ai-service:5001/) in the AKS store compose file, not in depends_on', () => {
    const graph = composeNotation.toGraph(readFileSync(new URL('../../../../test/fixtures/compose/aks-store-demo.docker-compose.yml', import.meta.url), 'utf8'));
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toContain('service:product-service->service:ai-service');
    expect(graph.edges).toHaveLength(10);
  });

  it('reads KEY=value lists and maps, and leaves a plain value that only happens to equal a service name', () => {
    const graph = composeNotation.toGraph(`
services:
  api:
    image: acme/api
    environment:
      CACHE_HOST: cache
      DB_NAME: db
      QUEUE: amqp://user:pw@queue:5672/vhost
  worker:
    image: acme/worker
    environment:
      - API_URL=http://api:8080/v1
  cache: { image: redis }
  db: { image: postgres }
  queue: { image: rabbitmq }
`);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['service:api->service:cache', 'service:api->service:queue', 'service:worker->service:api']);
  });
});

describe('composeNotation relations named on the command line', () => {
  it('draws the services a command waits for (frappe_docker pwd.yml: create-site runs wait-for-it db:3306, redis-cache:6379, redis-queue:6379)', () => {
    const graph = composeNotation.toGraph(fixture('frappe-docker-pwd.yml'));
    // create-site, which makes the site in the database, stood loose in a corner with no line.
    expect(graph.edges.filter((e) => e.from === 'service:create-site' && e.to.startsWith('service:')).map((e) => e.to)).toEqual(['service:db', 'service:redis-cache', 'service:redis-queue']);
  });

  it('reads a flag’s address and leaves words and ports alone', () => {
    const graph = composeNotation.toGraph(`
services:
  worker:
    image: acme/worker
    command: run worker --rpc-host=broker:50051 --port 8080 --name api
  broker: { image: acme/broker }
  api: { image: acme/api }
`);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['service:worker->service:broker']);
  });
});

describe('composeNotation volumes', () => {
  it('says a path every user mounts a volume at once, on the volume, and keeps paths that differ on their lines', () => {
    const graph = toGraph(['services:', '  netbox: &netbox', '    image: netboxcommunity/netbox', '    volumes:', '      - media:/opt/netbox/netbox/media:rw', '      - cache:/cache', '  netbox-worker:', '    <<: *netbox', '  tools:', '    image: busybox', '    volumes: [cache:/mnt/cache]', 'volumes:', '  media: {}', '  cache: {}'].join('\n'));
    expect(graph.nodes.find((n) => n.id === 'volume:media')!.rows).toEqual(['/opt/netbox/netbox/media']);
    expect(graph.edges.filter((e) => e.to === 'volume:media').map((e) => e.label)).toEqual([undefined, undefined]);
    expect(graph.nodes.find((n) => n.id === 'volume:cache')!.rows).toBeUndefined();
    expect(graph.edges.filter((e) => e.to === 'volume:cache').map((e) => e.label)).toEqual(['/cache', '/cache', '/mnt/cache']);
  });
});

describe('composeNotation variable interpolation', () => {
  it('shows ${VAR:-default} as its default and keeps a variable without one as written, saying so', () => {
    const graph = toGraph(['services:', '  web:', '    image: nginx', '    ports:', '      - "${HTTP_PORT:-80}:80"', '      - "${HTTPS_PORT}:443"', '      - "$$9000:9000"', '    environment:', '      API_URL: http://${API_HOST:-api}:8080', '  api:', '    image: me/api'].join('\n'));
    const web = graph.nodes.find((n) => n.id === 'service:web')!;
    expect(web.label).toBe('web\n80→80, 443, $9000→9000');
    // The default names the service it calls.
    expect(graph.edges.map((e) => [e.from, e.to])).toContainEqual(['service:web', 'service:api']);
    expect(graph.warnings).toContain('variables are shown with their defaults, as with no environment set: ${HTTP_PORT:-80} → "80", ${API_HOST:-api} → "api"');
  });

  it('says a port published on one variable outside and in once (the OpenTelemetry demo\'s frontend-proxy)', () => {
    // open-telemetry/opentelemetry-demo docker-compose.yml, abridged: `${ENVOY_PORT}→${ENVOY_PORT}` said the variable twice.
    const proxy = toGraph(['services:', '  frontend-proxy:', '    image: ghcr.io/open-telemetry/demo:latest-frontend-proxy', '    ports:', '      - "${ENVOY_PORT}:${ENVOY_PORT}"', '      - 10000:10000', '      - target: 8080', '        published: ${GRAFANA_PORT}', '        protocol: udp'].join('\n')).nodes[0]!;
    expect(proxy.label).toBe('frontend-proxy\n${ENVOY_PORT}, 10000→10000, 8080/udp');
  });

  it('draws a host port left to the environment as the container port it publishes, naming the variable in a warning', () => {
    // supabase/supabase docker/docker-compose.yml, abridged: kong read "${KONG_HTTP_PORT}→8000, ${KONG_HTTPS_PORT}→8443".
    const graph = toGraph(['services:', '  kong:', '    image: kong:2.8.1', '    ports:', '      - ${KONG_HTTP_PORT}:8000/tcp', '      - ${KONG_HTTPS_PORT}:8443/tcp'].join('\n'));
    expect(graph.nodes[0]!.label).toBe('kong\n8000, 8443');
    expect(graph.warnings).toContain('line 4: service "kong" publishes ${KONG_HTTP_PORT}→8000, ${KONG_HTTPS_PORT}→8443: drawn as the container port, the host port being left to the environment');
  });
});

describe('composeNotation shared network stacks', () => {
  it('draws services run in another\'s network stack (network_mode: service:gluetun) in one box with it, in its network', () => {
    // TechHutTV/homelab media/compose.yaml, abridged: qbittorrent and prowlarr floated outside servarrnetwork, where
    // they are reached at gluetun's address; written before their host, as there.
    const graph = toGraph(['services:', '  qbittorrent:', '    image: lscr.io/linuxserver/qbittorrent:latest', '    network_mode: service:gluetun', '    depends_on:', '      gluetun:', '        condition: service_healthy', '  prowlarr:', '    image: lscr.io/linuxserver/prowlarr:latest', '    network_mode: "service:gluetun"', '  gluetun:', '    image: qmcgaw/gluetun', '    networks: [servarrnetwork]', '    ports: ["8080:8080", "9696:9696"]', '  deunhealth:', '    image: qmcgaw/deunhealth', '    network_mode: "none"', '  sonarr:', '    image: lscr.io/linuxserver/sonarr:latest', '    networks: [servarrnetwork]'].join('\n'));
    expect(graph.groups).toContainEqual({ id: 'stack:gluetun', label: "gluetun's network stack", kind: 'network', parent: 'network:servarrnetwork' });
    const parentOf = (name: string) => graph.nodes.find((n) => n.id === `service:${name}`)?.parent;
    expect(['qbittorrent', 'prowlarr', 'gluetun', 'deunhealth', 'sonarr'].map(parentOf)).toEqual(['stack:gluetun', 'stack:gluetun', 'stack:gluetun', undefined, 'network:servarrnetwork']);
  });
});

describe('composeNotation extends', () => {
  it('gives a service what it extends in the file: image, networks, calls and mounts, its own settings added', () => {
    // The shape of flux-llm-kb's workers and burningflipside's app servers: a worker extending another came out
    // with no icon, no network and none of the calls the base declares.
    const graph = toGraph(['services:', '  worker:', '    image: python:3.12', '    networks: [back]', '    depends_on: [db]', '    volumes: ["data:/app/data"]', '    environment:', '      REDIS_URL: redis://cache:6379', '  mail-worker:', '    extends:', '      service: worker', '    depends_on: [smtp]', '  digest-worker:', '    extends: mail-worker', '  remote:', '    extends: {file: common.yml, service: worker}', '  db:', '    image: postgres:16', '    networks: [back]', '  cache:', '    image: redis:7', '    networks: [back]', '  smtp:', '    image: axllent/mailpit', '    networks: [back]', 'volumes:', '  data:'].join('\n'));
    const callsOf = (name: string) => graph.edges.filter((e) => e.from === `service:${name}`).map((e) => e.to).sort();
    expect(callsOf('mail-worker')).toEqual(['service:cache', 'service:db', 'service:smtp', 'volume:data']);
    expect(callsOf('digest-worker')).toEqual(callsOf('mail-worker'));
    const node = (name: string) => graph.nodes.find((n) => n.id === `service:${name}`)!;
    expect(node('digest-worker')).toMatchObject({ iconHint: node('worker').iconHint, parent: 'network:back' });
    // A base in another file is not given: the service is drawn with its own settings only.
    expect(callsOf('remote')).toEqual([]);
  });
});

describe('composeNotation reverse proxies that find their services themselves', () => {
  it('draws Traefik routing to the services its labels opt in, with the hosts and paths of their rules (a deploy script)', async () => {
    // In the shape of a project's deploy compose: Traefik's Docker provider with exposedbydefault=false, a server and
    // a web app opting in by label; no depends_on, no address names the other.
    const graph = await composeNotation.toGraph(`services:
  traefik:
    image: traefik:v3.6
    command:
      - --providers.docker=true
      - --providers.docker.exposedbydefault=false
    ports: ["80:80"]
  server:
    image: example/server:1.0
    labels:
      - traefik.enable=true
      - "traefik.http.routers.server.rule=PathPrefix(\`/api\`) || PathPrefix(\`/ws\`)"
  web:
    image: example/web:1.0
    labels:
      traefik.enable: "true"
      traefik.http.routers.web.rule: Host(\`app.example.com\`)
  worker:
    image: example/worker:1.0
    labels:
      - traefik.http.routers.worker.rule=Host(\`never.example.com\`)
  blog:
    image: wordpress
    environment:
      VIRTUAL_HOST: blog.example.com
  proxy:
    image: nginxproxy/nginx-proxy:1.6
`);
    expect(graph.edges.map((e) => `${e.from} -> ${e.to}${e.label ? ` [${e.label}]` : ''}`)).toEqual([
      'service:traefik -> service:server [/api, /ws]',
      'service:traefik -> service:web [app.example.com]',
      'service:proxy -> service:blog [blog.example.com]',
    ]);
  });
});
