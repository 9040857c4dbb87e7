/**
 * Every real file of the fixture corpus, read by its notation, against a count taken from the file itself: nodes,
 * edges (messages for sequence diagrams) and containers. A relation dropped, a node invented or a container lost
 * changes a count and fails here; valid input never fails to parse. DOT counts what is drawn: invisible nodes and
 * edges shape Graphviz's layout but are not counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GraphIR } from '../graph/types.js';
import { CONVERTERS } from './index.js';

type Count = [notation: string, file: string, nodes: number, edges: number, containers: number, counted: string];

/** Counted from the source; `counted` says what was counted as what. */
const CORPUS: Count[] = [
  ['dot', 'gallery-cluster.gv', 10, 13, 2, 'a0–a3, b0–b3, start, end; 3 + 3 chain edges and 7 more; cluster_0, cluster_1'],
  ['dot', 'gallery-datastruct.gv', 13, 17, 0, '13 record nodes, 17 edges between their ports'],
  ['dot', 'graphviz-html.gv', 3, 2, 0, '3 HTML-table nodes, 2 edges to their PORT cells'],
  ['dot', 'graphviz-records.gv', 7, 7, 0, '6 records and d, 7 edges between ports'],
  ['dot', 'graphviz-shapes.gv', 33, 28, 0, 'a–z and 1–7, one of each shape; 28 edges in five chains'],
  ['dot', 'gallery-fsm.gv', 9, 14, 0, 'states 0–8, 14 labelled transitions (two self loops)'],
  ['dot', 'gallery-gd-1994-2007.gv', 506, 1380, 0, '506 authors, 1,380 co-authorship edges (--)'],
  ['dot', 'gallery-neato-er.gv', 12, 12, 0, '3 entities, 6 attributes, 3 relationship diamonds; 12 edges (--)'],
  ['dot', 'gallery-git.gv', 8, 10, 0, 'changes, staging, stash, the "git stash [push]" text node, HEAD, remote, branches, discard; 10 edges'],
  ['dot', 'gallery-psg.gv', 10, 14, 0, 'states 0–9 (HTML tables in Mrecords), 14 labelled transitions (one self loop)'],
  ['dot', 'gallery-uml-class.gv', 9, 11, 0, '9 record classes, 11 edges'],
  ['dot', 'gprof2dot-cprofile.gv', 22, 24, 0, '22 functions, 24 call edges'],
  ['dot', 'graphviz-plugins.gv', 120, 163, 11, '120 nodes, 163 edges, 11 clusters (the other subgraphs are rank=same rows)'],
  ['dot', 'linux-kernel-map.gv', 52, 40, 0, '65 nodes less 13 style=invis, the edges between drawn nodes less 15 style=invis'],
  ['sql', 'mysql-employees.sql', 6, 6, 0, '6 CREATE TABLE, 6 REFERENCES'],
  ['sql', 'mysql-sakila-schema.sql', 16, 22, 0, '16 CREATE TABLE (tmpCustomer of rewards_report is in a procedure body), 22 FOREIGN KEY'],
  ['sql', 'mysql-petclinic-schema.sql', 7, 5, 0, '7 CREATE TABLE, 5 FOREIGN KEY'],
  ['sql', 'mysql-seats-ddl.sql', 10, 12, 0, '10 CREATE TABLE, 12 REFERENCES'],
  ['sql', 'postgres-pagila-schema.sql', 16, 22, 1, '71 CREATE TABLE less 55 payment partitions, 22 FK after folding, schema public'],
  ['sql', 'postgres-sakila-schema.sql', 15, 22, 0, '21 CREATE TABLE less 6 INHERITS partitions of payment, 40 FK less 18 of the partitions'],
  ['sql', 'postgres-tpcc-ddl.sql', 9, 10, 0, '9 CREATE TABLE, 10 REFERENCES'],
  ['sql', 'sqlite-sakila-schema.sql', 16, 22, 0, '16 CREATE TABLE, 22 FOREIGN KEY'],
  ['sql', 'flowable-postgres-all.sql', 62, 60, 0, '62 create table, 60 alter table … foreign key'],
  ['sql', 'camunda-postgres-engine.sql', 43, 37, 0, '43 create table, 37 alter table … foreign key (7 of them a table to itself)'],
  ['sql', 'dolphinscheduler-postgresql.sql', 70, 0, 0, '70 CREATE TABLE, no foreign key (Quartz and DolphinScheduler tables, none joined)'],
  ['plantuml', 'irs-quality-tree-mindmap.puml', 80, 79, 0, '80 topics (lines of * marks), each joined to its parent'],
  ['plantuml', 'aries-discover-features-requester-state.puml', 5, 5, 0, '3 states, [*] start and end, 5 transitions'],
  ['plantuml', 'aries-introducer-state.puml', 7, 10, 0, '5 states, [*] start and end, 10 transitions'],
  ['plantuml', 'edc-contract-negotiation-state.puml', 26, 35, 2, '24 states and a [*] start in each of Consumer and Provider; 27 transitions and 8 hidden links that place'],
  ['plantuml', 'aries-invite-action-sequence.puml', 2, 3, 0, '2 participants, 3 messages'],
  ['plantuml', 'irs-deployment-chain.puml', 6, 7, 0, '5 nodes and an actor, 7 links'],
  ['plantuml', 'irs-job-state-machine.puml', 8, 11, 4, 'UNSAVED, ERROR, a state in each of 4 composites, [*] start and end; 11 transitions'],
  ['plantuml', 'irs-deployment-level-1.puml', 6, 5, 4, '2 agents, 2 interfaces, an artifact and a collections in node IRS, frames public and internal, node pod; 5 links'],
  ['plantuml', 'capi-machine-health-check-activity.plantuml', 13, 14, 0, 'start, 8 actions, 2 repeat starts and 2 repeat-while decisions; 10 flow arrows, 2 loops back (yes, requeue), no and the dashed out-of-band arrow'],
  ['plantuml', 'capi-machine-phases-activity.plantuml', 11, 13, 0, '(*) start, 6 quoted activities, 4 notes; 9 arrows and 4 note connectors'],
  ['plantuml', 'capi-runtime-sdk-topology-mutation-sequence.plantuml', 3, 11, 0, '3 participants (each in its own box), 11 messages'],
  ['plantuml', 'capi-clusterclass-create-sequence.plantuml', 3, 15, 0, 'actor User and 2 participants (each in its own box), 15 messages (8 to self)'],
  ['plantuml', 'c4-messagebus-container.puml', 12, 10, 2, '1 Person, 6 Container, 2 ContainerDb; 9 Rel (Customer Service and the app both ways) and Lay_R, laid out and not drawn; System_Boundary; LAYOUT_WITH_LEGEND: its key (person, container, database container)'],
  ['plantuml', 'c4-bigbank-deployment.puml', 8, 6, 13, '6 Container/ContainerDb, 6 Rel, 12 Deployment_Node; SHOW_LEGEND: its key (container, database container)'],
  ['plantuml', 'capi-machinedeployment-activity.plantuml', 52, 71, 0, 'start, stop, 20 actions, 4 repeat points, 4 repeat-while and 16 if/elseif decisions, 6 merges where an if without elseif ends; 67 arrows of the flow and 4 loops back'],
  ['plantuml', 'jdp-hexagonal-class.puml', 29, 23, 9, '29 classes and interfaces, 23 relation lines, 9 packages'],
  ['plantuml', 'jdp-onion-architecture-class.puml', 15, 24, 11, '15 classes, records and interfaces, 24 relation lines, 3 layer packages holding 8 packages'],
  ['plantuml', 'blazemeter-rte-class.puml', 26, 19, 9, '26 classes, interfaces and enums, 15 extends/implements and 4 other relation lines, 9 packages (4 nested in core and protocols, 2 a level further)'],
  ['plantuml', 'jdp-promise-class.urm.puml', 7, 6, 1, '6 classes and Map (named by a link), 6 relation lines, 1 package'],
  ['plantuml', 'mojaloop-position-prepare-sequence.plantuml', 5, 25, 0, '5 participants, 25 messages'],
  ['plantuml', 'capi-machine-infra-provider-activity.plantuml', 30, 34, 0, 'start, 10 actions, 9 decisions, 5 stops, 5 merges where two branches of an if go on; 34 arrows of the flow'],
  ['compose', 'aks-store-demo-quickstart.docker-compose.yml', 4, 3, 1, '4 services, 3 depends_on, network backend_services'],
  ['compose', 'aks-store-demo.docker-compose.yml', 10, 10, 1, '10 services, 9 depends_on + AI_SERVICE_URL of product-service, 1 network'],
  ['compose', 'awesome-nginx-golang-mysql.compose.yaml', 4, 3, 0, '3 services + volume db-data, 2 depends_on + 1 mount'],
  ['compose', 'awesome-pihole-cloudflared.compose.yaml', 2, 1, 1, '2 services, 1 depends_on, 1 network'],
  ['compose', 'awesome-react-express-mysql.compose.yaml', 5, 4, 2, '3 services + 2 volumes, 2 depends_on + 2 mounts, 2 networks'],
  ['compose', 'example-voting-app.docker-stack.yml', 6, 1, 2, '5 services + volume db-data, 1 mount, 2 networks'],
  ['compose', 'nextcloud-with-nginx-proxy-postgres-fpm.compose.yaml', 13, 18, 2, '7 services + 6 named volumes, 7 depends_on + 11 named-volume mounts, networks default and proxy-tier'],
  ['compose', 'robot-shop.docker-compose.yaml', 12, 12, 1, '12 services, 12 depends_on, 1 network'],
  ['compose', 'opentelemetry-demo.compose.yaml', 20, 46, 0, '20 services, 46 depends_on; only the default network (renamed), which every service is on: no box'],
  ['compose', 'sentry-self-hosted.docker-compose.yml', 73, 294, 0, '57 services + 16 named volumes; 236 depends_on (anchors merged), 21 calls named by *_URL/host:port settings and 1 by a command’s --rpc-host, 36 named-volume mounts'],
  ['compose', 'frappe-docker-pwd.yml', 15, 38, 1, '11 services + 4 named volumes; 7 depends_on, 10 calls named in settings (DB_HOST, REDIS_*, FRAPPE_REDIS_*; the frontend’s BACKEND and SOCKETIO repeat its depends_on) and 3 by create-site’s wait-for-it, 18 named-volume mounts; network frappe_network'],
  ['kubernetes', 'sock-shop-complete-demo.yaml', 14, 4, 1, '14 Deployments with their 14 Services as rows; user → user-db (MONGO_HOST); carts, catalogue, orders → the -db named after each (warned); the sock-shop namespace'],
  ['kubernetes', 'bank-of-anthos-manifests.yaml', 17, 48, 0, 'nine workloads (two StatefulSets; Services as rows), six ConfigMaps, the jwt-key Secret, the ServiceAccount; 33 env, mount and runs-as edges and 15 calls, balancereader, ledgerwriter, transactionhistory → ledger-db and contacts, userservice → accounts-db among them through JDBC/postgres URLs in ConfigMaps'],
  ['kubernetes', 'aks-store-all-in-one.yaml', 12, 8, 0, '19 objects; 7 Services rows on their workloads, 3 env refs, 5 calls by URL or ConfigMap'],
  ['kubernetes', 'aks-store-ingress-quickstart.yaml', 8, 5, 0, '12 objects; Ingress→workload, 4 Services rows on their workloads, 3 env refs, 1 call'],
  ['kubernetes', 'aks-store-quickstart.yaml', 4, 1, 0, '8 objects; 4 Services rows on their workloads, order-service calls rabbitmq'],
  ['kubernetes', 'azure-vote-all-in-one-redis.yaml', 2, 1, 0, '2 Deployments with their Services as rows; the front calls the back'],
  ['kubernetes', 'guestbook-all-in-one.yaml', 3, 0, 0, '3 Deployments, each with the Service that selects it as a row'],
  ['kubernetes', 'ingress-nginx-cloud-deploy.yaml', 7, 4, 1, 'drawn kinds of the controller, its two Services rows on it, namespace ingress-nginx'],
  ['kubernetes', 'k8s-website-statefulset-web.yaml', 2, 1, 0, 'StatefulSet web with Service nginx as a row, its claim template www; mounts'],
  ['kubernetes', 'k8s-website-wordpress-mysql-deployment.yaml', 3, 2, 0, 'Deployment (its Service a row), PVC, Secret of mysql'],
  ['kubernetes', 'microservices-demo-cartservice.yaml', 3, 2, 0, 'cartservice and redis-cart with their Services as rows, and the account'],
  ['kubernetes', 'microservices-demo-release.yaml', 23, 27, 0, '12 Deployments with their 12 Services as rows, 11 ServiceAccounts'],
  ['kubernetes', 'envoy-gateway-merged-gateways.yaml', 5, 4, 0, '3 Gateways (in default, as the rest: no box) routing to the backend (its Service a row), its account; GatewayClass and EnvoyProxy skipped'],
  ['kubernetes', 'emojivoto-web.yaml', 4, 3, 1, 'Deployment web (Service web-svc a row), its ServiceAccount, and the emoji-svc and voting-svc its env calls, defined elsewhere (dashed); runs as + 2 calls; namespace emojivoto'],
  ['kubernetes', 'petclinic-customers-service.yaml', 4, 3, 1, 'Deployment customers-service, the Secret it reads and the MySQL and wavefront-proxy Services its env calls by cluster address, all three defined elsewhere (dashed); env + 2 calls; namespace spring-petclinic'],
  ['terraform', 'bank-of-anthos-multienv.tf', 29, 46, 0, '28 resources and modules, 1 data source (google_client_config, read only by providers, left out); 35 references and 11 depends_on'],
  ['terraform', 'aks-store-demo.cosmosdb.tf', 1, 0, 0, 'module db'],
  ['terraform', 'aks-store-demo.main.tf', 4, 0, 0, 'the resource group (random_pet and random_integer rows on it, as they name it) and 3 data'],
  ['terraform', 'aks-store-demo.servicebus.tf', 2, 1, 0, 'module sb, the role assignment scoped to it'],
  ['terraform', 'azure-aks-store-demo.kubernetes.tf', 3, 2, 0, 'resources and their references'],
  ['terraform', 'bank-of-anthos-gke.main.tf', 3, 1, 0, '2 data sources, module enabled_google_apis and the project it reads'],
  ['terraform', 'gcp-microservices-demo.main.tf', 5, 4, 0, 'resources and modules and their references'],
  ['terraform', 'gcp-microservices-demo.memorystore.tf', 2, 1, 0, 'redis instance and its reference'],
  ['terraform', 'learn-provision-eks-cluster.main.tf', 5, 4, 0, '3 modules, 2 data (random_string a row on the modules that use it); eks and irsa-ebs-csi read each other: one two-headed line'],
  ['terraform', 'tf-aws-vpc-example-simple.main.tf', 2, 1, 0, 'module vpc and what it uses'],
  ['terraform', 'tf-aws-lambda.iam.tf', 14, 13, 0, 'the role, its 8 inline policies and 2 attachments, 3 data (5 policy documents rows on what reads them); vpc and tracing name two blocks each'],
  ['terraform', 'tf-aws-s3-bucket.main.tf', 25, 36, 0, '21 resources and 17 data sources less the 13 IAM policy documents, rows on the bucket policy that reads them (their reads of the account, partition and region moved to it); 36 references, 14 of them `bucket = aws_s3_bucket.this[0].id`'],
  ['terraform', 'tf-aws-vpc-root.main.tf', 66, 94, 8, '74 resource/data blocks less the VPC and 7 subnet tiers they sit in (containers); 94 references between them, locals expanded (18 of them to a subnet tier or the VPC from outside, drawn to the container)'],
  ['terraform', 'tf-provider-aws-two-tier.main.tf', 7, 7, 2, '7 resources besides the VPC and subnet containers; 7 references not drawn by nesting'],
  ['terraform', 'tf-aws-ecs-express-service.main.tf', 3, 2, 0, 'module ecs_express_service, module vpc (random_string a row on it, via local.name), data availability zones; the second module call with create = false left out; ecs → vpc, vpc → zones'],
  ['terraform', 'gcp-sql-mysql-ha.main.tf', 1, 0, 0, 'module mysql, the file’s one block'],
  ['mermaid', 'office-network-bus-architecture.mmd', 9, 8, 1, '6 services and 3 junctions; 8 lines with their sides; group office'],
  ['mermaid', 'mermaid-docs-architecture.mmd', 4, 3, 1, 'db, disk1, disk2, server; 3 edges with their sides; group api'],
  ['mermaid', 'mermaid-docs-block.mmd', 6, 2, 1, 'db, the block arrow, A, B, C, D (space is no block); ID --> D and C --> D; composite block ID'],
  ['mermaid', 'mermaid-docs-c4-context.mmd', 12, 4, 4, '4 persons and 8 systems; 2 BiRel and 2 Rel; boundaries b0–b3'],
  ['mermaid', 'mermaid-docs-mindmap.mmd', 15, 14, 0, 'the root and 14 topics (the ::icon line is no topic), each joined to its parent'],
  ['mermaid', 'mermaid-docs-requirement.mmd', 9, 8, 0, '6 requirements of each kind and 3 elements; 8 relations'],
  ['mermaid', 'print-job-emphasis-state.mmd', 10, 15, 0, '10 described states, 15 transitions (one without a label)'],
  ['mermaid', 'powertools-idempotency-record-class.mmd', 2, 1, 0, 'the record and its Status enumeration, 1 association'],
  ['helm', 'argo-workflows.values.yaml', 4, 1, 0, 'controller with its volume, executor, server; the empty artifact-repository blocks are settings'],
  ['helm', 'bank-of-anthos-prometheus.values.yaml', 4, 1, 0, 'operator, prometheus, alertmanager, blackboxExporter; the six kube* blocks and exporters are off; prometheus alerts alertmanager'],
  ['helm', 'bitnami-postgresql.values.yaml', 2, 1, 0, 'primary (its Service a row) and its volume'],
  ['helm', 'bitnami-wordpress.values.yaml', 3, 2, 0, 'wordpress (its Service a row), volume, mariadb sub-chart'],
  ['helm', 'grafana-loki-distributed.values.yaml', 6, 5, 0, 'enabled components (the gateway\'s Service a row, the `loki` block the image they run), memcached; the write and read paths its documentation draws'],
  ['helm', 'grafana-loki-stack.values.yaml', 2, 1, 0, 'loki and promtail sub-charts, promtail pushing to loki'],
  ['helm', 'microservices-demo.values.yaml', 12, 0, 0, '11 service blocks with create: true, and redis-cart (cartDatabase.inClusterRedis.create)'],
  ['helm', 'robot-shop.values.yaml', 12, 0, 0, '8 per-workload blocks, 4 datastore blocks; which uses which is in the templates'],
  ['helm', 'sentry.values.yaml', 55, 2, 2, '21 sentry.* and 21 snuba.* workloads on (2 off), 2 with their Services as rows; relay, vroom, nginx with Services as rows, geodata with its volume; 7 datastore sub-charts (rabbitmq and zookeeper switched on with counts of their own); the chart’s ingress into nginx, its proxy'],
  ['helm', 'n8n.values.yaml', 3, 2, 0, 'n8n (its Service a row, queueMode a row), the external PostgreSQL and Redis its values give hosts for, each used by it; webhookProcessor, multiMain and taskRunners switched off'],
  ['helm', 'podinfo.values.yaml', 1, 0, 0, 'podinfo with its Service as a row (port 9898, not the metrics port); redis switched off'],
  ['helm', 'temporal-proxy.values.yaml', 1, 0, 0, 'the proxy, its Service a row'],
  ['helm', 'temporal.values.yaml', 3, 0, 0, 'server, admintools and web, the latter two with their Services as rows'],
  ['helm', 'linkerd-viz.values.yaml', 6, 0, 0, 'metricsAPI, tap, tapInjector and dashboard with their Services as rows, namespaceMetadata, prometheus'],
  ['helm', 'opentelemetry-collector.values.yaml', 1, 0, 0, 'the collector (replicaCount, its Service ports from the ports map); config is its pipelines'],
  ['helm', 'harbor.values.yaml', 9, 10, 0, 'portal, core, jobservice, registry, trivy, exporter (nginx is for the exposures other than the ingress chosen); database and redis (type: internal); the expose ingress; core, jobservice, registry, trivy named in the database/redis settings, the ingress host keyed core; core → registry, trivy, jobservice and exporter → core from Harbor\'s architecture'],
  ['helm', 'bitnami-superset.values.yaml', 4, 0, 0, 'web (its Service a row, the init Job a row), worker, postgresql and redis sub-charts; which uses which is in the templates'],
  ['helm', 'bitnami-mastodon.values.yaml', 8, 0, 0, 'web, sidekiq, streaming (Services as rows), apache running Apache; redis, postgresql, minio, elasticsearch sub-charts; which uses which is in the templates'],
  ['helm', 'bjw-s-vaultwarden.values.yaml', 3, 2, 0, 'bjw-s app-template: the main controller (its Service a row), Ingress and data volume'],
  ['helm', 'langfuse.values.yaml', 6, 4, 1, 'web (its Service a row) and worker in the langfuse box; postgresql, redis, clickhouse and s3 (deploy: true) sub-charts the box uses'],
  ['helm', 'hashicorp-vault.values.yaml', 3, 1, 0, 'server (its Service a row) with its dataStorage volume, injector; csi switched off'],
  ['helm', 'prometheus-community-prometheus.values.yaml', 5, 4, 0, 'the server running Prometheus; alertmanager, kube-state-metrics, node exporter and Pushgateway sub-charts (their comments say so), scraped or alerted as documented'],
  ['mermaid', 'ci-pipeline-chain-flowchart.mmd', 11, 10, 0, 'eleven steps of a CI pipeline in one sideways chain'],
  ['mermaid', 'kyma-nats-reconcile-flowchart.mmd', 6, 5, 0, 'Start and 5 steps, one chain written over 6 lines'],
  ['mermaid', 'kyma-nats-watches-flowchart.mmd', 6, 5, 0, 'NATS-Controller and the 5 kinds it watches'],
  ['mermaid', 'k8s-ingress-flowchart.mmd', 5, 4, 1, 'client, ingress, service, pod1, pod2; 4 links; subgraph cluster'],
  ['mermaid', 'k8s-system-flow-sequence.mmd', 7, 12, 0, '1 actor and 6 participants, 12 numbered messages'],
  ['mermaid', 'mermaid-docs-er.mmd', 3, 2, 0, 'CUSTOMER, ORDER, LINE-ITEM; places, contains'],
  ['mermaid', 'mermaid-readme-class.mmd', 7, 4, 0, 'Class01, AveryLongClass, Class09, C2, C3, Class07, Class10; 4 relations'],
  ['mermaid', 'mermaid-readme-state.mmd', 5, 6, 0, 'Still, Moving, Crash, [*] as start and as end; 6 transitions'],
  ['mermaid', 'powertools-batch-class.mmd', 2, 1, 0, '2 classes, 1 inheritance'],
  ['mermaid', 'powertools-batch-fifo-sequence.mmd', 3, 7, 0, '3 participants, 7 messages (3 to self)'],
  ['mermaid', 'lock-contention-interfaces-class.mmd', 6, 5, 0, '3 interfaces (one without members), the abstract base, 2 implementations; 5 relations'],
  ['mermaid', 'signup-transaction-rect-sequence.mmd', 4, 11, 0, '4 participants, 11 messages (4 in a rect highlight inside an alt, 2 in one at the top level)'],
  ['mermaid', 'k8s-composite-podgroup-flowchart.mmd', 11, 16, 4, '3 composite and 4 plain pod groups, 4 templates; 6 two-way links, 3 template links, 7 WorkloadRef; 2 titled subgraphs and 2 hidden branches'],
  ['mermaid', 'k8s-kms-v2-themed-sequence.mmd', 5, 11, 0, '5 participants, 11 messages (4 in an alt, 3 to self)'],
  ['mermaid', 'reth-database-tables-er.mmd', 22, 17, 0, '22 tables, 17 relationships'],
  ['mermaid', 'temporal-history-service-sequence.mmd', 5, 9, 0, '5 participants, 9 messages (1 to self) and 8 notes'],
  ['mermaid', 'semantic-kernel-otel-layers-block.mmd', 11, 0, 2, '9 blocks and 2 block arrows, the clients and kernel composite blocks'],
];

const edgeCount = (graph: GraphIR): number =>
  graph.sequence ? JSON.stringify(graph.sequence).split('"type":"message"').length - 1 : graph.edges.length;

describe('every corpus file matches its hand count', () => {
  it.each(CORPUS)('%s %s: %i nodes, %i edges, %i containers', async (notation, file, nodes, edges, containers) => {
    const converter = CONVERTERS.find((c) => c.id === notation)!;
    const graph = await converter.toGraph(readFileSync(new URL(`../../../test/fixtures/${notation}/${file}`, import.meta.url), 'utf8'));
    expect([graph.nodes.length, edgeCount(graph), graph.groups.length]).toEqual([nodes, edges, containers]);
  });

  it('counts every fixture of these notations, so a new file cannot join the corpus without its count', () => {
    for (const notation of new Set(CORPUS.map(([n]) => n))) {
      const files = readdirSync(new URL(`../../../test/fixtures/${notation}/`, import.meta.url)).filter((f) => f !== 'NOTICE.md');
      expect(files.sort()).toEqual(CORPUS.filter(([n]) => n === notation).map(([, f]) => f).sort());
    }
  });
});
