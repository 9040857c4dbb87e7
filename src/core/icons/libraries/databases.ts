import { AppError } from '../../errors.js';
import type { IconLibraryDefinition, IconSource } from '../types.js';
import { simpleIcon, simpleIconSvg } from './simple-icons.js';
import { tablerSvg } from './tabler.js';

/**
 * Database products and generic database kinds (cloud-only databases such as DynamoDB or Cosmos DB stay in their
 * vendor's library, which has the genuine icon). A product gets its genuine logo from `simple-icons` (CC0-1.0) when
 * Simple Icons carries the brand (it drops brands whose policy forbids such use); Oracle, Microsoft SQL Server,
 * Memcached and other brands it does not carry get a generic database icon from Tabler (MIT).
 */

interface DatabaseProduct {
  label: string;
  aliases?: readonly string[];
  /** simple-icons slug; absent when the brand's logo may not be used. */
  logo?: string;
  /** Tabler icon name for a generic icon. */
  generic?: string;
}

const PRODUCTS: readonly DatabaseProduct[] = [
  { label: 'PostgreSQL', aliases: ['Postgres', 'pg', 'psql'], logo: 'postgresql' },
  { label: 'MySQL', logo: 'mysql' },
  { label: 'MariaDB', logo: 'mariadb' },
  { label: 'SQLite', logo: 'sqlite' },
  { label: 'MongoDB', aliases: ['Mongo'], logo: 'mongodb' },
  { label: 'Redis', logo: 'redis' },
  { label: 'Apache Cassandra', aliases: ['Cassandra'], logo: 'apachecassandra' },
  { label: 'Apache CouchDB', aliases: ['CouchDB'], logo: 'apachecouchdb' },
  { label: 'Apache HBase', aliases: ['HBase'], logo: 'apachehbase' },
  { label: 'Apache Druid', aliases: ['Druid'], logo: 'apachedruid' },
  { label: 'Couchbase', logo: 'couchbase' },
  { label: 'Elasticsearch', aliases: ['Elastic', 'ES'], logo: 'elasticsearch' },
  { label: 'OpenSearch', logo: 'opensearch' },
  { label: 'InfluxDB', aliases: ['Influx'], logo: 'influxdb' },
  { label: 'Neo4j', logo: 'neo4j' },
  { label: 'ClickHouse', logo: 'clickhouse' },
  { label: 'Snowflake', logo: 'snowflake' },
  { label: 'Supabase', logo: 'supabase' },
  { label: 'ScyllaDB', aliases: ['Scylla'], logo: 'scylladb' },
  { label: 'DuckDB', logo: 'duckdb' },
  { label: 'CockroachDB', aliases: ['Cockroach'], logo: 'cockroachlabs' },
  { label: 'Firebase', aliases: ['Firestore'], logo: 'firebase' },
  { label: 'etcd', logo: 'etcd' },
  { label: 'TimescaleDB', aliases: ['Timescale'], logo: 'timescale' },
  { label: 'SurrealDB', logo: 'surrealdb' },
  { label: 'ArangoDB', logo: 'arangodb' },
  { label: 'PlanetScale', logo: 'planetscale' },
  { label: 'Neon', logo: 'neon' },
  { label: 'SingleStore', logo: 'singlestore' },
  { label: 'TiDB', logo: 'tidb' },
  { label: 'Vitess', logo: 'vitess' },
  { label: 'Trino', logo: 'trino' },
  { label: 'Oracle Database', aliases: ['Oracle'], generic: 'database' },
  { label: 'Microsoft SQL Server', aliases: ['SQL Server', 'MSSQL'], generic: 'database' },
  { label: 'Memcached', generic: 'bolt' },
  { label: 'Valkey', generic: 'bolt' },
  { label: 'YugabyteDB', aliases: ['Yugabyte'], generic: 'database' },
  { label: 'RethinkDB', generic: 'database' },
];

/** Generic kinds, for labels that name no product; stamping ranks them below products (see guess.ts). */
const KINDS: readonly DatabaseProduct[] = [
  { label: 'Database', aliases: ['DB', 'datastore', 'data store'], generic: 'database' },
  { label: 'SQL Database', aliases: ['relational database', 'RDBMS'], generic: 'table' },
  { label: 'NoSQL Database', aliases: ['document store', 'document database'], generic: 'file-database' },
  { label: 'Key-Value Store', aliases: ['KV store', 'key value'], generic: 'key' },
  { label: 'Graph Database', aliases: ['graph DB'], generic: 'affiliate' },
  { label: 'Time Series Database', aliases: ['TSDB', 'time series'], generic: 'chart-line' },
  { label: 'Data Warehouse', aliases: ['warehouse', 'DWH', 'OLAP'], generic: 'building-warehouse' },
  { label: 'Data Lake', generic: 'database-export' },
  { label: 'Database Replica', aliases: ['read replica', 'replica'], generic: 'database-import' },
];

function productSource(product: DatabaseProduct): IconSource {
  const logo = product.logo ? simpleIcon(product.logo) : undefined;
  if (product.logo && !logo) throw new AppError('internal', `simple-icons has no "${product.logo}" for ${product.label}`);
  const generic = product.generic ?? 'database';
  return {
    label: product.label,
    aliases: product.aliases ?? [],
    svg: () => (logo ? simpleIconSvg(logo) : tablerSvg(generic)),
  };
}

/** simple-icons slugs shown here; the Brands library leaves them out so a database resolves to one place. */
export const DATABASE_LOGO_SLUGS: ReadonlySet<string> = new Set(PRODUCTS.flatMap((product) => product.logo ?? []));

export const DATABASE_KIND_LABELS: ReadonlySet<string> = new Set(KINDS.map((kind) => kind.label));

export const databasesLibrary: IconLibraryDefinition = {
  id: 'databases',
  name: 'Databases',
  items: () => [...PRODUCTS, ...KINDS].map(productSource),
};
