import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeNotation } from '../notations/compose/index.js';
import { terraformNotation } from '../notations/terraform/index.js';
import { FOLD_NODES, foldForReading } from './fold.js';
import type { GraphEdge, GraphIR, GraphNode } from './types.js';

const sentry = composeNotation.toGraph(readFileSync(new URL('../../../test/fixtures/compose/sentry-self-hosted.docker-compose.yml', import.meta.url), 'utf8'));

/** A deployment graph of `workers` workloads, each mounting one volume and reading one secret. */
function deployment(workers: number): GraphIR {
  const nodes: GraphNode[] = [{ id: 'secret', label: 'jwt-key', kind: 'secret' }, { id: 'db', label: 'db', kind: 'database' }, { id: 'v', label: 'scratch', kind: 'storage' }];
  const edges: GraphEdge[] = [];
  for (let i = 0; i < workers; i++) {
    nodes.push({ id: `w${i}`, label: `worker-${i}`, kind: 'workload' });
    edges.push(
      { id: `w${i}-v`, from: `w${i}`, to: 'v', label: '/tmp', style: { strokeStyle: 'dashed' } },
      { id: `w${i}-s`, from: `w${i}`, to: 'secret', label: 'env', style: { strokeStyle: 'dashed' } },
      { id: `w${i}-db`, from: `w${i}`, to: 'db', label: i % 2 === 0 ? 'reads' : 'writes' },
    );
  }
  return { layout: 'layered', direction: 'RIGHT', nodes, edges, groups: [], warnings: [] };
}

describe('foldForReading: prerequisites only waited for', () => {
  it('lists what waits for a Terraform module by depends_on on it, instead of seven dashed lines across the root (Bank of Anthos)', () => {
    const root = terraformNotation.toGraph(readFileSync(new URL('../../../test/fixtures/terraform/bank-of-anthos-multienv.tf', import.meta.url), 'utf8'));
    const folded = foldForReading(root, 'terraform');
    const apis = folded.nodes.find((node) => node.id === 'module.enabled_google_apis')!;
    expect(apis.rows).toEqual([
      'module project-factory/google//project_services',
      'awaited by 7:',
      'container_registry, acm, asm,',
      'artifact-registry-repository-iam-bindings,',
      'ci-cd-pipeline, gke_staging, network',
    ]);
    expect(folded.edges.filter((edge) => edge.to === apis.id)).toEqual([]);
    // The other depends_on edges, into nodes fewer wait for, stay lines.
    expect(folded.edges.filter((edge) => edge.label === 'depends on').length).toBe(3);
    expect(folded.warnings.at(-1)).toContain('the 7 edges into enabled_google_apis, only waited for (depends_on), into an "awaited by" list on each');
  });
});

describe('foldForReading', () => {
  it('folds sentry’s 73 services and volumes to 22 nodes, saying what it folded and how to see everything', () => {
    const folded = foldForReading(sentry, 'compose');
    expect(sentry.nodes.length).toBe(73);
    expect(folded.nodes.length).toBe(22);
    expect(folded.warnings.at(-1)).toBe(
      '73 nodes drawn as 22 to stay readable: folded 16 volumes into the nodes that use them, as rows, and 37 nodes wired exactly alike into 2, each listing their names (their edges merged, as each meant the same), ' +
        'and the 19 edges into redis, kafka, which most nodes use, into a "used by" list on each (each edge meant the same: depends on it), ' +
        'and the 21 edges from web, 17 services, sentry-cleanup to the 7 nodes each of them depends on into one edge each to a box of those (each edge meant the same: depends on it); detail: "full" draws everything',
    );
    const byId = new Map(folded.nodes.map((node) => [node.id, node]));
    // A volume becomes a row on the service mounting it; a storage service others call (SeaweedFS) stays a node.
    expect(byId.get('service:postgres')!.rows).toContain('volume sentry-postgres (external) (/var/lib/postgresql/data)');
    expect(byId.has('service:seaweedfs')).toBe(true);
    expect(folded.nodes.some((node) => node.id.startsWith('volume:'))).toBe(false);
    // Twenty Snuba consumers with the same dependencies: one node naming each, one edge per dependency (Kafka and Redis
    // list them among their users).
    const snuba = folded.nodes.find((node) => node.label === 'snuba-* (20)')!;
    expect(snuba.rows).toContain('snuba-replacer');
    expect(folded.edges.filter((edge) => edge.from === snuba.id).map((edge) => edge.to).sort()).toEqual(['service:clickhouse']);
    expect(byId.get('service:redis')!.rows).toContain('used by 8:');
    // Kafka and Redis, which nearly every service depends on, list their users instead of drawing an edge from each.
    expect(byId.get('service:kafka')!.rows).toContain('used by 11:');
    expect(folded.edges.some((edge) => edge.to === 'service:kafka' || edge.to === 'service:redis')).toBe(false);
    // Web, the 17 consumers and the cleanup each depend on the same seven services: one edge each to a box of them. The
    // taskworker, given the task broker's address on its command line, calls it besides, so it stands apart.
    const box = folded.groups.find((group) => group.label === 'used by web, 17 services, sentry-cleanup')!;
    expect(folded.nodes.filter((node) => node.parent === box.id).map((node) => node.label).sort()).toEqual(['memcached', 'pgbouncer', 'seaweedfs', 'smtp', 'snuba-api', 'symbolicator', 'vroom']);
    expect(folded.edges.filter((edge) => edge.to === box.id).map((edge) => edge.from).sort()).toEqual(['service:events-consumer', 'service:sentry-cleanup', 'service:web']);
    expect(folded.edges.filter((edge) => edge.from === 'service:taskworker').map((edge) => edge.to)).toContain('service:taskbroker');
    expect(folded.edges.length).toBe(20);
    // Every edge still joins two drawn nodes (or a node and the box).
    for (const edge of folded.edges) expect((byId.has(edge.from) || edge.from === box.id) && (byId.has(edge.to) || edge.to === box.id), edge.id).toBe(true);
  });

  it('lists the users of a dependency nearly every service has instead of an edge from each (OpenTelemetry demo: 46 edges, 23 of them into the collector and flagd)', () => {
    const otel = composeNotation.toGraph(readFileSync(new URL('../../../test/fixtures/compose/opentelemetry-demo.compose.yaml', import.meta.url), 'utf8'));
    expect(otel.edges.length).toBe(46);
    const folded = foldForReading(otel, 'compose');
    expect(folded.nodes.length).toBe(20);
    expect(folded.edges.length).toBe(23);
    const collector = folded.nodes.find((node) => node.id === 'service:otel-collector')!;
    expect(collector.rows).toEqual(['used by 13:', 'ad, cart, checkout, currency, email,', 'frontend, image-provider, payment,', 'product-catalog, quote,', 'recommendation, shipping, flagd-ui']);
    // The calls between the services stay edges: the frontend's to the services it calls, checkout's to cart.
    expect(folded.edges.some((edge) => edge.from === 'service:checkout' && edge.to === 'service:cart')).toBe(true);
    expect(folded.warnings.at(-1)).toContain('the 23 edges into flagd, otel-collector, which most nodes use, into a "used by" list on each');
    // Drawn as written when asked; a sparser graph folds only a fan of eight lines or more into one node (the collector's 13).
    expect(foldForReading(otel, 'compose', 'full')).toBe(otel);
    const sparse = { ...otel, edges: otel.edges.filter((edge) => edge.to !== 'service:flagd' && edge.from !== 'service:checkout') };
    expect(sparse.edges.length).toBeLessThan(1.5 * sparse.nodes.length);
    expect(foldForReading(sparse, 'compose').edges).toEqual(sparse.edges.filter((edge) => edge.to !== 'service:otel-collector'));
    const fewer = { ...sparse, edges: sparse.edges.filter((edge) => edge.to !== 'service:otel-collector' || edge.from < 'service:f') };
    expect(fewer.edges.filter((edge) => edge.to === 'service:otel-collector').length).toBeLessThan(8);
    expect(foldForReading(fewer, 'compose').edges.length).toBe(fewer.edges.length);
  });

  it('lists the users of a node eight services wait for in a graph of any size, its own line onward kept (Supabase’s analytics)', () => {
    // The shape of supabase/supabase docker/docker-compose.yml, written here: eight of thirteen services wait for the
    // log service (depends_on … service_healthy), which waits for the database; 15 nodes, under SHARED_FOLD_NODES.
    const waiting = ['studio', 'kong', 'auth', 'rest', 'realtime', 'meta', 'functions', 'supavisor'];
    const services = [...waiting, 'storage', 'imgproxy', 'analytics', 'db', 'vector'];
    const compose = composeNotation.toGraph(`services:
${services.map((name) => `  ${name}:\n    image: ${name}\n    depends_on: [${[...(waiting.includes(name) ? ['analytics'] : []), ...(['auth', 'rest', 'realtime', 'meta', 'analytics', 'supavisor', 'storage'].includes(name) ? ['db'] : [])].join(', ')}]`).join('\n')}
`);
    const folded = foldForReading(compose, 'compose');
    expect(folded.edges.filter((edge) => edge.to === 'service:analytics')).toEqual([]);
    expect(folded.nodes.find((node) => node.id === 'service:analytics')!.rows).toEqual(['used by 8:', 'studio, kong, auth, rest, realtime,', 'meta, functions, supavisor']);
    expect(folded.edges.some((edge) => edge.from === 'service:analytics' && edge.to === 'service:db')).toBe(true);
    // The database's seven users keep their lines: fewer than eight is no wall in a graph this small.
    expect(folded.edges.filter((edge) => edge.to === 'service:db')).toHaveLength(7);
  });

  it('lists the users of a shared dependency whose edges all carry one label (the OpenTelemetry demo chart: ten "uses" into flagd)', () => {
    // The same demo as Helm values: its edges say "uses", which kept flagd's ten edges drawn across the chart.
    const otel = composeNotation.toGraph(readFileSync(new URL('../../../test/fixtures/compose/opentelemetry-demo.compose.yaml', import.meta.url), 'utf8'));
    const labelled = { ...otel, edges: otel.edges.map((edge) => ({ ...edge, label: 'uses' })) };
    const folded = foldForReading(labelled, 'helm');
    expect(folded.nodes.find((node) => node.id === 'service:flagd')!.rows).toContain('used by 10:');
    expect(folded.edges.some((edge) => edge.to === 'service:flagd')).toBe(false);
    // Edges into one node that say different things are kept: each says something of its own.
    const mixed = { ...labelled, edges: labelled.edges.map((edge, i) => (edge.to === 'service:flagd' && i % 2 === 0 ? { ...edge, label: 'reads' } : edge)) };
    expect(foldForReading(mixed, 'helm').edges.filter((edge) => edge.to === 'service:flagd').length).toBeGreaterThan(0);
  });

  it('folds a smaller graph when a third of it is detail (mailcow: 30 nodes, 13 shared volumes), merging no services', () => {
    // 18 services, each pair sharing a volume: 27 nodes, 9 of them volumes.
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    for (let i = 0; i < 18; i++) nodes.push({ id: `s${i}`, label: `service-${i}`, kind: 'service' });
    for (let v = 0; v < 9; v++) {
      nodes.push({ id: `v${v}`, label: `vol-${v}`, kind: 'storage' });
      for (const i of [2 * v, 2 * v + 1]) edges.push({ id: `s${i}-v${v}`, from: `s${i}`, to: `v${v}`, label: `/data/${v}`, style: { strokeStyle: 'dashed' } });
    }
    const graph: GraphIR = { layout: 'layered', direction: 'RIGHT', nodes, edges, groups: [], warnings: [] };
    const folded = foldForReading(graph, 'compose');
    expect(folded.nodes.map((node) => node.id)).toEqual(nodes.slice(0, 18).map((node) => node.id));
    expect(folded.nodes[3]!.rows).toEqual(['volume vol-1 (/data/1)']);
    expect(folded.warnings).toEqual(['27 nodes drawn as 18 to stay readable: folded 9 volumes into the nodes that use them, as rows; detail: "full" draws everything']);
    // Less detail than a third: drawn as written.
    const lighter: GraphIR = { ...graph, nodes: [...nodes, ...Array.from({ length: 2 }, (_, i) => ({ id: `x${i}`, label: `x${i}`, kind: 'service' as const }))] };
    expect(foldForReading(lighter, 'compose')).toBe(lighter);
  });

  it('folds Terraform resources that only attach to another (ACL rules, routes, associations) into rows on it, keeping every dependency', async () => {
    const vpc = await terraformNotation.toGraph(readFileSync(new URL('../../../test/fixtures/terraform/tf-aws-vpc-root.main.tf', import.meta.url), 'utf8'));
    const folded = foldForReading(vpc, 'terraform');
    expect([vpc.nodes.length, folded.nodes.length]).toEqual([66, 36]);
    expect(folded.warnings.at(-1)).toBe(
      '66 nodes drawn as 36 to stay readable: folded 14 rules, 9 routes, 4 associations, 3 route propagations into the resources they attach to, as rows; detail: "full" draws everything',
    );
    const byId = new Map(folded.nodes.map((node) => [node.id, node]));
    // `private` names a subnet, a route table and an ACL here: the ACL's title is its address, so no row repeats its type.
    expect(byId.get('aws_network_acl.private')).toMatchObject({ label: 'aws_network_acl.private', rows: ['if local.create_private_network_acl', 'rule private_inbound', 'rule private_outbound'] });
    // A route names the gateway it leads to, and the route table keeps one edge to that gateway.
    expect(byId.get('aws_route_table.private')!.rows).toContain('route private_nat_gateway → aws_nat_gateway.this');
    expect(folded.edges.filter((edge) => edge.from === 'aws_route_table.private' && edge.to === 'aws_nat_gateway.this')).toHaveLength(1);
    expect(byId.get('aws_vpn_gateway.this')!.rows).toContain('route propagation private → aws_route_table.private, aws_vpn_gateway_attachment.this');
    // A subnet that held only its route-table association keeps it, so the subnet and the ACL's edge to it stay drawn.
    expect(byId.get('aws_route_table_association.database')?.parent).toBe('aws_subnet.database');
    expect(byId.has('aws_route_table_association.private')).toBe(false);
    const groups = new Set(folded.groups.map((group) => group.id));
    for (const edge of folded.edges) expect((byId.has(edge.from) || groups.has(edge.from)) && (byId.has(edge.to) || groups.has(edge.to)), edge.id).toBe(true);
    // Below the threshold, or for a notation that names no resource types, attachments stay nodes.
    expect(foldForReading(vpc, 'terraform', 'full').nodes.map((node) => node.id)).toEqual(vpc.nodes.map((node) => node.id));
  });

  it('folds an S3 bucket’s settings, each a resource since AWS provider v4, into rows on it, its policy documents on its policy (terraform-aws-s3-bucket)', async () => {
    const module = await terraformNotation.toGraph(readFileSync(new URL('../../../test/fixtures/terraform/tf-aws-s3-bucket.main.tf', import.meta.url), 'utf8'));
    const folded = foldForReading(module, 'terraform');
    // 38 boxes: nineteen settings, twelve policy documents fanned out of the combined one, and the bucket listing the
    // thirteen that named it as "used by", the settings left beside it with no line.
    expect([module.nodes.length, folded.nodes.length]).toEqual([25, 6]);
    const bucket = folded.nodes.find((node) => node.id === 'aws_s3_bucket.this')!;
    expect(bucket.rows).toEqual(expect.arrayContaining(['versioning', 'public access block', 'acl → data.aws_canonical_user_id.this', 'ownership controls']));
    // The ownership controls refer to the policy, a setting of the same bucket: both rows, no line from the bucket to itself.
    expect(bucket.rows!.find((row) => row.startsWith('policy ('))).toMatch(/^policy \(policy documents combined, elb_log_delivery, .*waf_log_delivery\) → aws_s3_directory_bucket\.this, data\.aws_caller_identity\.current/);
    expect(folded.edges.filter((edge) => edge.from === edge.to)).toEqual([]);
    expect(folded.edges.map((edge) => `${edge.from} -> ${edge.to}`).sort()).toEqual([
      'aws_s3_bucket.this -> aws_s3_directory_bucket.this',
      'aws_s3_bucket.this -> data.aws_caller_identity.current',
      'aws_s3_bucket.this -> data.aws_canonical_user_id.this',
      'aws_s3_bucket.this -> data.aws_partition.current',
      'aws_s3_bucket.this -> data.aws_region.current',
    ]);
  });

  it('folds a resource’s settings into it in a small module too (learn-terraform-lambda-api-gateway)', async () => {
    // The shape of its main.tf, written here by hand: the ACL and ownership controls stood as two more buckets.
    const module = await terraformNotation.toGraph(`resource "aws_s3_bucket" "lambda_bucket" {
  bucket = "learn-terraform-functions"
}
resource "aws_s3_bucket_ownership_controls" "lambda_bucket" {
  bucket = aws_s3_bucket.lambda_bucket.id
}
resource "aws_s3_bucket_acl" "lambda_bucket" {
  depends_on = [aws_s3_bucket_ownership_controls.lambda_bucket]
  bucket     = aws_s3_bucket.lambda_bucket.id
  acl        = "private"
}
resource "aws_iam_role" "lambda_exec" {
  name = "serverless_lambda"
}
resource "aws_iam_role_policy_attachment" "lambda_policy" {
  role = aws_iam_role.lambda_exec.name
}
`);
    const folded = foldForReading(module, 'terraform');
    // The role's policy attachment, a type extending the role's, is a row on it as well.
    expect(folded.nodes.map((node) => node.id).sort()).toEqual(['aws_iam_role.lambda_exec', 'aws_s3_bucket.lambda_bucket']);
    expect(folded.nodes.find((node) => node.id === 'aws_s3_bucket.lambda_bucket')!.rows).toEqual(expect.arrayContaining(['acl', 'ownership controls']));
  });

  it('folds the IAM grants of a mid-sized Terraform module into rows on what they grant on or to (a Django app on Cloud Run)', async () => {
    // The shape of GoogleCloudPlatform/terraform-dynamic-python-webapp's infra/, abridged and written here: each grant
    // drew as a box of its own, its lines crossing the module to the secret and the accounts.
    const module = await terraformNotation.toGraph(`
resource "google_service_account" "server" { account_id = "server" }
resource "google_service_account" "automation" { account_id = "automation" }
resource "google_project_iam_member" "server_permissions" {
  role   = "roles/cloudsql.client"
  member = "serviceAccount:\${google_service_account.server.email}"
}
resource "google_secret_manager_secret" "django_settings" { secret_id = "django_settings" }
resource "google_secret_manager_secret_iam_binding" "django_settings" {
  secret_id = google_secret_manager_secret.django_settings.id
  role      = "roles/secretmanager.secretAccessor"
  members   = ["serviceAccount:\${google_service_account.server.email}", "serviceAccount:\${google_service_account.automation.email}"]
}
resource "google_secret_manager_secret_version" "django_settings" {
  secret      = google_secret_manager_secret.django_settings.id
  secret_data = "DATABASE_URL=postgres://\${google_sql_user.django.name}@//cloudsql/\${google_sql_database_instance.postgres.connection_name}"
}
resource "google_sql_database_instance" "postgres" { name = "psql" }
resource "google_sql_database" "database" { instance = google_sql_database_instance.postgres.name }
resource "google_sql_user" "django" { instance = google_sql_database_instance.postgres.name }
resource "google_cloud_run_v2_service" "server" {
  template {
    service_account = google_service_account.server.email
    volumes {
      cloud_sql_instance {
        instances = [google_sql_database_instance.postgres.connection_name]
      }
    }
    containers {
      env {
        name = "SETTINGS"
        value_source {
          secret_key_ref {
            secret = google_secret_manager_secret.django_settings.secret_id
          }
        }
      }
    }
  }
}
data "google_iam_policy" "noauth" {
  binding {
    role    = "roles/run.invoker"
    members = ["allUsers"]
  }
}
resource "google_cloud_run_service_iam_policy" "server_noauth" {
  service     = google_cloud_run_v2_service.server.name
  policy_data = data.google_iam_policy.noauth.policy_data
}
resource "google_cloud_run_v2_job" "migrate" {
  template {
    template {
      service_account = google_service_account.automation.email
    }
  }
  depends_on = [google_secret_manager_secret_version.django_settings]
}
`);
    const folded = foldForReading(module, 'terraform');
    // The run.invoker policy document is the text of the policy that reads it (notations/terraform), not a box.
    expect([module.nodes.length, folded.nodes.length]).toEqual([12, 8]);
    const byId = new Map(folded.nodes.map((node) => [node.id, node]));
    expect(byId.get('google_secret_manager_secret.django_settings')!.rows).toContain('iam binding → google_service_account.server, google_service_account.automation');
    expect(byId.get('google_service_account.server')!.rows).toContain('project iam member server_permissions');
    expect(byId.get('google_cloud_run_v2_service.server')!.rows).toContain('service iam policy server_noauth (policy document noauth)');
    // A secret's version is its value, a row on it, not named again when named as its secret; what waited for the version (depends_on) waits for the secret.
    expect(byId.get('google_secret_manager_secret.django_settings')!.rows).toContain('version → google_sql_user.django, google_sql_database_instance.postgres');
    expect(folded.edges.find((edge) => edge.from === 'google_cloud_run_v2_job.migrate' && edge.to === 'google_secret_manager_secret.django_settings')).toMatchObject({ label: 'depends on' });
    // Every dependency stays drawn once: the secret keeps an edge to each account it grants to.
    expect(folded.edges.filter((edge) => edge.from === 'google_secret_manager_secret.django_settings').map((edge) => edge.to).sort()).toEqual([
      'google_service_account.automation',
      'google_service_account.server',
      'google_sql_database_instance.postgres',
      'google_sql_user.django',
    ]);
  });

  it('folds a dozen nodes half of which are volumes its services mount alike (netbox), saying each path once on its user', () => {
    // netbox-community/netbox-docker docker-compose.yml (27bf52c), abridged: the worker and housekeeping share
    // netbox's volumes through a YAML anchor, so each volume had three dashed lines carrying one path.
    const netbox = composeNotation.toGraph(`services:
  netbox: &netbox
    image: docker.io/netboxcommunity/netbox:\${VERSION-v4.1-3.0.2}
    depends_on: [postgres, redis, redis-cache]
    volumes:
      - ./configuration:/etc/netbox/config:z,ro
      - netbox-media-files:/opt/netbox/netbox/media:rw
      - netbox-reports-files:/opt/netbox/netbox/reports:rw
      - netbox-scripts-files:/opt/netbox/netbox/scripts:rw
  netbox-worker:
    <<: *netbox
    depends_on:
      netbox:
        condition: service_healthy
  netbox-housekeeping:
    <<: *netbox
    depends_on:
      netbox:
        condition: service_healthy
  postgres:
    image: docker.io/postgres:16-alpine
    volumes: [netbox-postgres-data:/var/lib/postgresql/data]
  redis:
    image: docker.io/valkey/valkey:8.0-alpine
    volumes: [netbox-redis-data:/data]
  redis-cache:
    image: docker.io/valkey/valkey:8.0-alpine
    volumes: [netbox-redis-cache-data:/data]
volumes:
  netbox-media-files: {driver: local}
  netbox-postgres-data: {driver: local}
  netbox-redis-cache-data: {driver: local}
  netbox-redis-data: {driver: local}
  netbox-reports-files: {driver: local}
  netbox-scripts-files: {driver: local}
`);
    expect(netbox.nodes).toHaveLength(12);
    const folded = foldForReading(netbox, 'compose');
    expect(folded.nodes.map((node) => node.label)).toEqual(['netbox', 'netbox-worker', 'netbox-housekeeping', 'postgres', 'redis', 'redis-cache']);
    expect(folded.nodes[1]!.rows).toEqual(['volume netbox-media-files (/opt/netbox/netbox/media)', 'volume netbox-reports-files (/opt/netbox/netbox/reports)', 'volume netbox-scripts-files (/opt/netbox/netbox/scripts)']);
    expect(folded.nodes[3]!.rows).toEqual(['volume netbox-postgres-data (/var/lib/postgresql/data)']);
    expect(folded.warnings.at(-1)).toBe('12 nodes drawn as 6 to stay readable: folded 6 volumes into the nodes that use them, as rows; detail: "full" draws everything');
  });

  it('folds the wall of a small graph whose services share one anchor’s depends_on (Zammad: 15 of 19 edges into three stores)', async () => {
    // Zammad's compose file, reduced to its shape: five services merge one `x-shared` block that mounts two volumes
    // and depends on three stores; nginx overrides depends_on; elasticsearch stands alone. Its five volumes fold first.
    const services = ['backup', 'init', 'railsserver', 'scheduler', 'websocket'].map((name) => `  zammad-${name}:\n    <<: *zammad-service\n`).join('');
    const stores = ['memcached', 'postgresql:/var/lib/postgresql/data', 'redis:/data']
      .map((store) => store.split(':'))
      .map(([name, path]) => `  zammad-${name}:\n    image: ${name}\n${path ? `    volumes: [${name}-data:${path}]\n` : ''}`)
      .join('');
    const code = [
      'x-shared:',
      '  zammad-service: &zammad-service',
      '    image: ghcr.io/zammad/zammad',
      '    volumes: [zammad-backup:/var/tmp/zammad, zammad-storage:/opt/zammad/storage]',
      '    depends_on: [zammad-memcached, zammad-postgresql, zammad-redis]',
      'services:',
      `${services}${stores}  zammad-nginx:\n    <<: *zammad-service\n    depends_on: [zammad-railsserver]\n  zammad-elasticsearch:\n    image: elasticsearch`,
      '    volumes: [elasticsearch-data:/usr/share/elasticsearch/data]',
      'volumes: {zammad-backup: {}, zammad-storage: {}, elasticsearch-data: {}, postgresql-data: {}, redis-data: {}}',
    ].join('\n');
    const graph = await composeNotation.toGraph(code);
    expect(graph.edges.filter((edge) => !edge.style?.strokeStyle)).toHaveLength(16);
    const folded = foldForReading(graph, 'compose');
    const box = folded.groups.find((group) => group.kind === 'shared')!;
    expect(box.label).toBe('used by zammad-backup, zammad-init, zammad-railsserver, zammad-scheduler, zammad-websocket');
    expect(folded.nodes.filter((node) => node.parent === box.id).map((node) => node.label).sort()).toEqual(['zammad-memcached', 'zammad-postgresql', 'zammad-redis']);
    expect(folded.edges).toHaveLength(6);
    expect(folded.warnings.at(-1)).toContain('the 15 edges from zammad-backup, zammad-init, zammad-railsserver, zammad-scheduler, zammad-websocket to the 3 nodes');
  });

  it('draws everything with detail "full", for small graphs, and for notations that are not infrastructure', () => {
    expect(foldForReading(sentry, 'compose', 'full')).toBe(sentry);
    expect(foldForReading(deployment(5), 'kubernetes').nodes).toHaveLength(8);
    expect(foldForReading(sentry, 'dot')).toBe(sentry);
  });

  it('merges edges only when they mean the same: workers that write are kept apart from workers that read', () => {
    const graph = deployment(FOLD_NODES);
    const folded = foldForReading(graph, 'kubernetes');
    // 40 workers → one that reads and one that writes; the volume and the secret become rows on each.
    expect(folded.nodes.map((node) => node.label).sort()).toEqual(['db', 'worker-* (20)', 'worker-* (20)']);
    expect(folded.edges.map((edge) => edge.label).sort()).toEqual(['reads', 'writes']);
    const reader = folded.nodes.find((node) => node.rows?.includes('worker-0'))!;
    expect(reader.rows).toContain('secret jwt-key (env)');
    expect(reader.rows).toContain('volume scratch (/tmp)');
    expect(reader.rows).toContain('worker-2');
    expect(reader.rows).not.toContain('worker-1');
    expect(folded.warnings.at(-1)).toMatch(/^43 nodes drawn as 3 to stay readable: folded 1 secret, 1 volume into the nodes that use them, as rows, and 40 nodes wired exactly alike into 2, .*; detail: "full" draws everything$/);
  });
});
