/** What a container image is: its role (for colour and shape) and the technology name the icon search looks up. */
import type { NodeKind } from '../../graph/types.js';
import { dictionary } from '../../dictionary.js';

interface ImageRole {
  kind: NodeKind;
  /** The technology's own name, which is what icon libraries label their icons with. */
  name: string;
}

const KNOWN: Record<string, ImageRole> = dictionary({
  postgres: { kind: 'database', name: 'PostgreSQL' },
  postgresql: { kind: 'database', name: 'PostgreSQL' },
  postgis: { kind: 'database', name: 'PostgreSQL' },
  mysql: { kind: 'database', name: 'MySQL' },
  mariadb: { kind: 'database', name: 'MariaDB' },
  mongo: { kind: 'database', name: 'MongoDB' },
  mongodb: { kind: 'database', name: 'MongoDB' },
  cassandra: { kind: 'database', name: 'Cassandra' },
  clickhouse: { kind: 'database', name: 'ClickHouse' },
  'clickhouse-server': { kind: 'database', name: 'ClickHouse' },
  couchdb: { kind: 'database', name: 'CouchDB' },
  cockroach: { kind: 'database', name: 'CockroachDB' },
  influxdb: { kind: 'database', name: 'InfluxDB' },
  neo4j: { kind: 'database', name: 'Neo4j' },
  elasticsearch: { kind: 'database', name: 'Elasticsearch' },
  opensearch: { kind: 'database', name: 'OpenSearch' },
  mssql: { kind: 'database', name: 'SQL Server' },
  'mssql-server': { kind: 'database', name: 'SQL Server' },
  redis: { kind: 'cache', name: 'Redis' },
  valkey: { kind: 'cache', name: 'Valkey' },
  memcached: { kind: 'cache', name: 'Memcached' },
  rabbitmq: { kind: 'queue', name: 'RabbitMQ' },
  kafka: { kind: 'queue', name: 'Kafka' },
  'cp-kafka': { kind: 'queue', name: 'Kafka' },
  nats: { kind: 'queue', name: 'NATS' },
  activemq: { kind: 'queue', name: 'ActiveMQ' },
  pulsar: { kind: 'queue', name: 'Pulsar' },
  zookeeper: { kind: 'service', name: 'ZooKeeper' },
  nginx: { kind: 'gateway', name: 'NGINX' },
  traefik: { kind: 'gateway', name: 'Traefik' },
  haproxy: { kind: 'gateway', name: 'HAProxy' },
  envoy: { kind: 'gateway', name: 'Envoy' },
  caddy: { kind: 'gateway', name: 'Caddy' },
  kong: { kind: 'gateway', name: 'Kong' },
  minio: { kind: 'storage', name: 'MinIO' },
  seaweedfs: { kind: 'storage', name: 'SeaweedFS' },
  grafana: { kind: 'service', name: 'Grafana' },
  prometheus: { kind: 'service', name: 'Prometheus' },
  node: { kind: 'service', name: 'Node.js' },
  python: { kind: 'service', name: 'Python' },
  golang: { kind: 'service', name: 'Go' },
  wordpress: { kind: 'service', name: 'WordPress' },
  keycloak: { kind: 'service', name: 'Keycloak' },
});

/** The repository's last path part, without registry, tag or digest: `docker.io/bitnami/postgresql:16` → `postgresql`. */
export function imageBase(image: string): string | undefined {
  const withoutDigest = image.split('@')[0]!;
  const lastPart = withoutDigest.split('/').pop()!;
  const base = lastPart.split(':')[0]!.toLowerCase();
  // An image given wholly by a variable (`$SNUBA_IMAGE`) names nothing we can look up.
  return base === '' || base.includes('$') ? undefined : base;
}

const knownImage = (base: string) => KNOWN[base] ?? KNOWN[base.replace(/[-_]?(server|alpine|official)$/, '')];

/**
 * A name that says it is a database though its image is the project's own (Sock Shop's `user-db` running
 * `weaveworksdemos/user-db`, Bank of Anthos's `ledger-db`): what a reviewer draws as a cylinder.
 */
export const namesDatabase = (name: string): boolean => /(^|[-_.])db$/i.test(name);

/** Role and icon keyword of an image; unknown images are services whose icon keyword is their base name. */
export function imageRole(image: string): { kind: NodeKind; iconHint?: string } {
  const base = imageBase(image);
  if (base === undefined) return { kind: 'service' };
  const known = knownImage(base);
  return known ? { kind: known.kind, iconHint: known.name } : { kind: 'service', iconHint: base };
}

/**
 * A service built from a local Dockerfile has no image to go by: read what a person would, the service's name, the
 * build context's folder, a `Dockerfile.<name>` and the program its command runs (`db` built from `./postgres`,
 * `worker` running `celery`). A known product wins; otherwise the service name is the hint.
 */
export function builtServiceRole(name: string, build: unknown, command: unknown): { kind: NodeKind; iconHint?: string } {
  const context = typeof build === 'string' ? build : build !== null && typeof build === 'object' ? (build as Record<string, unknown>).context : undefined;
  const dockerfile = build !== null && typeof build === 'object' ? (build as Record<string, unknown>).dockerfile : undefined;
  const program = typeof command === 'string' ? command.trim().split(/\s+/)[0] : Array.isArray(command) && typeof command[0] === 'string' ? command[0] : undefined;
  const words = [
    name,
    typeof context === 'string' ? context.replace(/\/+$/, '').split('/').pop() : undefined,
    typeof dockerfile === 'string' ? /Dockerfile[.-](\w+)/i.exec(dockerfile)?.[1] : undefined,
    program?.split('/').pop(),
  ].filter((word): word is string => word !== undefined && word !== '' && word !== '.');
  for (const word of words) {
    const known = knownImage(word.toLowerCase());
    if (known) return { kind: known.kind, iconHint: known.name };
  }
  return { kind: 'service', iconHint: name };
}
