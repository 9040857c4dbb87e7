import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { GraphIR } from '../../graph/types.js';
import { resolveIconHints } from '../icon-hints.js';
import { helmNotation } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/helm/${name}`, import.meta.url), 'utf8');
const arrows = (graph: GraphIR): string[] => graph.edges.map((e) => `${e.from} -> ${e.to}${e.label ? ` [${e.label}]` : ''}`);

describe('helmNotation on real values files', () => {
  it('reads the bjw-s common library: the controller with its container and service, the ingress and volume it names', () => {
    const graph = helmNotation.toGraph(fixture('bjw-s-vaultwarden.values.yaml'));
    expect(graph.nodes.map((n) => `${n.id}:${n.kind}`)).toEqual(['controller:main:workload', 'ingress:main:gateway', 'volume:config:storage']);
    expect(graph.nodes[0]).toMatchObject({ label: 'server', rows: ['deployment', 'vaultwarden/server', 'Service :80, 3012'] });
    expect(arrows(graph)).toEqual(['ingress:main -> controller:main [chart-example.local]', 'controller:main -> volume:config [mounts]']);
  });

  it('draws an umbrella of common-library parts as its parts, the top-level controllers being what they share', () => {
    // The shape of immich-app/immich-charts' values (AGPL, so written here by hand): one workload "main" stood for the
    // whole chart, made of the shared env, with the server and machine learning left out.
    const graph = helmNotation.toGraph(`controllers:
  main:
    containers:
      main:
        image: {tag: v2.6.3}
        env:
          REDIS_HOSTNAME: '{{ printf "%s-valkey" .Release.Name }}'
          IMMICH_MACHINE_LEARNING_URL: '{{ printf "http://%s-machine-learning:3003" .Release.Name }}'
valkey:
  enabled: false
  controllers:
    main:
      containers:
        main:
          image: {repository: docker.io/valkey/valkey}
server:
  enabled: true
  controllers:
    main:
      containers:
        main:
          image: {repository: ghcr.io/immich-app/immich-server}
machine-learning:
  enabled: true
  controllers:
    main:
      containers:
        main:
          image: {repository: ghcr.io/immich-app/immich-machine-learning}
  persistence:
    cache: {enabled: true, size: 10Gi, type: emptyDir}
`);
    expect(graph.nodes.map((n) => `${n.id}:${n.label}`)).toEqual(['server/controller:main:server', 'machine-learning/controller:main:machine-learning', 'machine-learning/volume:cache:cache']);
    expect(arrows(graph)).toEqual(['machine-learning/controller:main -> machine-learning/volume:cache [mounts]', 'server/controller:main -> machine-learning/controller:main']);
    expect(graph.warnings).toEqual(['line 10: valkey: enabled: false; not drawn']);
  });

  it('draws Argo CD\'s and the Kubernetes Dashboard\'s parts joined as their documentation draws them, and says so', () => {
    // argoproj/argo-helm charts/argo-cd and kubernetes/dashboard charts/kubernetes-dashboard values (Apache-2.0),
    // abridged: they name no host, so their parts stood in rows with no line between them.
    const argo = helmNotation.toGraph(`redis: {enabled: true, name: redis, image: {repository: ecr-public.aws.com/docker/library/redis}}
controller: {name: application-controller, replicas: 1}
dex: {enabled: true, name: dex-server, image: {repository: ghcr.io/dexidp/dex}}
server: {name: server, replicas: 1, service: {type: ClusterIP, servicePortHttp: 80}}
repoServer: {name: repo-server, replicas: 1, service: {port: 8081}}
applicationSet: {name: applicationset-controller, replicas: 1}
notifications: {enabled: true, name: notifications-controller}
`);
    expect(arrows(argo)).toEqual([
      'server -> repoServer [manifests]',
      'controller -> repoServer [manifests]',
      'applicationSet -> repoServer [manifests]',
      'server -> dex [SSO]',
      'server -> redis [cache]',
      'controller -> redis [cache]',
      'repoServer -> redis [cache]',
    ]);
    const part = (name: string) => `{role: ${name}, image: {repository: docker.io/kubernetesui/dashboard-${name}}, scaling: {replicas: 1}, service: {type: ClusterIP}}`;
    const dashboard = helmNotation.toGraph(`auth: ${part('auth')}
api: ${part('api')}
web: ${part('web')}
metricsScraper: ${part('metrics-scraper')}
kong: {enabled: true, env: {dns_order: 'LAST,A,CNAME'}}
`);
    expect(arrows(dashboard)).toEqual(['kong -> web [routes]', 'kong -> api [routes]', 'kong -> auth [routes]', 'api -> metricsScraper [metrics]']);
    expect(dashboard.warnings.join('\n')).not.toContain('which of the');
  });

  it('reads a block named as the chart\'s image as the application\'s settings, and its internal database as a row on it', () => {
    // nextcloud/helm charts/nextcloud values (AGPL, so written here by hand in its shape): the `nextcloud` block stood
    // as the workload without the chart's Service, its `persistence.subPath` drew a volume the chart switches off, and
    // the SQLite database inside the pod was a sub-chart.
    const graph = helmNotation.toGraph(`image:
  repository: nextcloud
replicaCount: 1
nextcloud:
  host: nextcloud.kube.home
  containerPort: 80
  persistence:
    subPath:
internalDatabase:
  enabled: true
  name: nextcloud
externalDatabase:
  enabled: false
  type: mysql
mariadb:
  enabled: false
service:
  type: ClusterIP
  port: 8080
persistence:
  enabled: false
  size: 8Gi
`);
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([['app', ['workload, 1 replica', 'nextcloud', 'Service :8080', 'built-in database']]]);
    expect(graph.edges).toEqual([]);
  });

  it('joins common-library services and volumes to the controllers they name, not to an invented workload', () => {
    const graph = helmNotation.toGraph(`controllers:
  radarr:
    containers:
      app:
        image: {repository: ghcr.io/home-operations/radarr, tag: 5.26.2}
  exporter:
    type: cronjob
    containers:
      app:
        image: {repository: ghcr.io/onedr0p/exportarr, tag: v2.2.0}
      sidecar:
        image: {repository: busybox}
service:
  app:
    controller: radarr
    ports: {http: {port: 7878}}
persistence:
  config:
    existingClaim: radarr
    advancedMounts:
      radarr:
        app:
          - path: /config
  tmp:
    type: emptyDir
  off:
    enabled: false
`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['controller:radarr', 'controller:exporter', 'volume:config', 'volume:tmp']);
    expect(graph.nodes[0]!.rows).toEqual(['deployment', 'ghcr.io/home-operations/radarr', 'Service app :7878']);
    expect(graph.nodes[1]!.rows).toEqual(['cronjob', 'app: exportarr', 'sidecar: busybox']);
    expect(arrows(graph)).toEqual([
      'controller:radarr -> volume:config [mounts]',
      'controller:radarr -> volume:tmp [mounts]',
      'controller:exporter -> volume:tmp [mounts]',
    ]);
  });

  it('reads a Service port under the name the chart gives it (Argo CD: servicePortHttp), not its node port', () => {
    const graph = helmNotation.toGraph(`server:
  image:
    repository: quay.io/argoproj/argocd
  service:
    type: ClusterIP
    nodePortHttp: 30080
    servicePortHttp: 80
    servicePortHttps: 443
    servicePortHttpName: http
`);
    expect(graph.nodes.find((node) => node.id === 'server')?.rows).toEqual(['workload', 'argocd', 'Service :80']);
  });

  it('draws WordPress: its Service a row on it, its volume, and the enabled MariaDB sub-chart (memcached is off)', () => {
    const graph = helmNotation.toGraph(fixture('bitnami-wordpress.values.yaml'));
    expect(graph.nodes.map((n) => `${n.id}:${n.kind}`)).toEqual(['mariadb:database', 'app:workload', 'app:volume:storage']);
    expect(graph.nodes.find((n) => n.id === 'app')).toMatchObject({ label: 'wordpress', iconHint: 'wordpress', rows: ['workload, 1 replica', 'wordpress', 'Service LoadBalancer :80, 443'] });
    // Its ports map opens both: the row said :80 alone.
    expect(arrows(graph)).toEqual(['app -> app:volume [mounts]', 'app -> mariadb']);
  });

  it('draws the OpenTelemetry Collector the chart runs, with the ports it opens, and no workload for its config block', () => {
    const graph = helmNotation.toGraph(fixture('opentelemetry-collector.values.yaml'));
    // `config: {receivers, exporters, service: {pipelines}}` was a workload "config", and hid the collector itself.
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([['app', ['workload, 1 replica', 'Service :4317, 4318, 6831']]]);
  });

  it('reads a Service written as flat keys of its workload (Jenkins: serviceType, servicePort)', () => {
    // jenkinsci/helm-charts charts/jenkins/values.yaml, abridged.
    const graph = helmNotation.toGraph(`controller:
  image:
    repository: "jenkins/jenkins"
  replicas: 1
  serviceEnabled: true
  serviceType: ClusterIP
  servicePort: 8080
  targetPort: 8080
agent:
  enabled: true
  image:
    repository: "jenkins/inbound-agent"
`);
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([
      ['controller', ['workload, 1 replica', 'jenkins', 'Service :8080']],
      ['agent', ['workload', 'inbound-agent']],
    ]);
  });

  it('lets Bitnami PostgreSQL primary stand for the application and leaves out read replicas in standalone mode', () => {
    const graph = helmNotation.toGraph(fixture('bitnami-postgresql.values.yaml'));
    expect(graph.nodes.map((n) => n.id)).toEqual(['primary', 'primary:volume']);
    expect(graph.nodes[0]).toMatchObject({ kind: 'database', rows: ['workload', 'postgresql', 'Service :5432'] });
    expect(graph.nodes[1]!.rows).toEqual(['8Gi']);
  });

  it('finds the Loki components and skips the disabled ones', () => {
    const graph = helmNotation.toGraph(fixture('grafana-loki-distributed.values.yaml'));
    const ids = graph.nodes.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(['ingester', 'distributor', 'querier', 'queryFrontend', 'gateway']));
    expect(ids).not.toContain('compactor');
    expect(ids).not.toContain('queryScheduler');
    expect(graph.warnings).toContain('line 1359: compactor: enabled: false; not drawn');
  });

  it('draws the write and read paths of Grafana\'s distributed databases, which their values do not say (loki-distributed, tempo-distributed)', () => {
    const loki = helmNotation.toGraph(fixture('grafana-loki-distributed.values.yaml'));
    // Seven boxes and no line: the values hold each component's settings, the paths are in the documentation.
    expect(arrows(loki).sort()).toEqual([
      'distributor -> ingester [writes]',
      'gateway -> distributor [writes]',
      'gateway -> queryFrontend [reads]',
      'querier -> ingester [reads]',
      'queryFrontend -> querier [reads]',
    ]);
    expect(loki.warnings).toContain(
      "gateway → distributor (writes), gateway → queryFrontend (reads), distributor → ingester (writes), queryFrontend → querier (reads), querier → ingester (reads): drawn as the parts' documentation draws them; the values do not say it",
    );
    // The shape of tempo-distributed's values, written here: no gateway, a metrics generator switched off.
    const tempo = helmNotation.toGraph(`
ingester:
  replicas: 3
metricsGenerator:
  enabled: false
  replicas: 1
distributor:
  replicas: 1
compactor:
  replicas: 1
querier:
  replicas: 1
queryFrontend:
  replicas: 1
`);
    expect(arrows(tempo).sort()).toEqual(['distributor -> ingester [writes]', 'querier -> ingester [reads]', 'queryFrontend -> querier [reads]']);
    // A part its comment says runs only with another block's switch is off with it (tempo-distributed's enterprise parts).
    const enterprise = helmNotation.toGraph(`distributor:
  replicas: 1
enterprise:
  # Enable enterprise features.
  enabled: false
# Settings for the admin_api service providing authentication and authorization service.
# Can only be enabled if enterprise.enabled is true - requires license.
adminApi:
  replicas: 1
`);
    expect(enterprise.nodes.map((n) => n.id)).toEqual(['distributor']);
    expect(enterprise.warnings).toEqual(['line 3: adminApi: switched off by enterprise.enabled: false; not drawn']);
    // kube-prometheus-stack's shape, written here: the operator runs Prometheus and Alertmanager and watches the CRDs.
    const stack = helmNotation.toGraph(`crds:
  enabled: true
  upgradeJob:
    enabled: false
alertmanager:
  enabled: true
  alertmanagerSpec:
    replicas: 1
prometheusOperator:
  enabled: true
  image:
    repository: prometheus-operator/prometheus-operator
prometheus:
  enabled: true
  prometheusSpec:
    replicas: 1
`);
    expect(arrows(stack).filter((a) => a.startsWith('prometheusOperator')).sort()).toEqual([
      'prometheusOperator -> alertmanager [runs]',
      'prometheusOperator -> crds [watches]',
      'prometheusOperator -> prometheus [runs]',
    ]);
    // A chart without the three is not one of them: nothing drawn from the table.
    expect(arrows(helmNotation.toGraph('distributor:\n  replicas: 1\ningester:\n  replicas: 2\n'))).toEqual([]);
  });

  it('reads the blocks its comments call sub-charts as sub-charts, scraped and alerted by the server running Prometheus (prometheus-community prometheus)', () => {
    const graph = helmNotation.toGraph(fixture('prometheus-community-prometheus.values.yaml'));
    // `kube-state-metrics: {enabled: true}` alone was read as a setting and dropped; Alertmanager's `persistence` made
    // it a workload of this chart, drawn using the node exporter and the Pushgateway.
    expect(graph.nodes.map((n) => [n.id, n.rows![0]])).toEqual([
      ['alertmanager', 'sub-chart'],
      ['kube-state-metrics', 'sub-chart'],
      ['prometheus-node-exporter', 'sub-chart'],
      ['prometheus-pushgateway', 'sub-chart'],
      ['server', 'workload, 1 replica'],
    ]);
    expect(arrows(graph)).toEqual([
      'server -> alertmanager [alerts]',
      'server -> kube-state-metrics [scrapes]',
      'server -> prometheus-node-exporter [scrapes]',
      'server -> prometheus-pushgateway [scrapes]',
    ]);
  });

  it('draws the configured kube-prometheus-stack workloads and names the switched-off ones with their lines', () => {
    const graph = helmNotation.toGraph(fixture('bank-of-anthos-prometheus.values.yaml'));
    // operator holds resources beside a switched-off kubeletService: still a workload.
    expect(graph.nodes.map((n) => n.id)).toEqual(['operator', 'prometheus', 'alertmanager', 'blackboxExporter']);
    expect(graph.warnings).toEqual([
      "prometheus → alertmanager (alerts): drawn as the parts' documentation draws them; the values do not say it",
      'line 38: exporters: all of its parts are switched off; not drawn',
      'line 43: kubelet: enabled: false; not drawn',
      'line 45: kubeApiServer: enabled: false; not drawn',
      'line 47: kubeControllerManager: enabled: false; not drawn',
      'line 49: kubeScheduler: enabled: false; not drawn',
      'line 51: coreDns: enabled: false; not drawn',
      'line 53: kubeProxy: enabled: false; not drawn',
    ]);
    // The Prometheus operator is software: no person icon for it (the generic Admin icon once answered to "operator");
    // a workload whose name or image matches no product is drawn as a Deployment, as in a manifest.
    const icons = new Map(resolveIconHints(graph).nodes.map((n) => [n.id, n.iconRef]));
    expect(icons.get('operator')).toBe('kubernetes/Deployment');
    expect(icons.get('alertmanager')).toBe('kubernetes/Deployment');
    expect(icons.get('prometheus')).toBe('brands/Prometheus');
  });

  it('reads a prometheus block with a ServiceMonitor as how the chart is scraped, not a Prometheus sub-chart (cert-manager)', () => {
    // cert-manager's values, abridged: drawn before as a Prometheus sub-chart its controller used.
    const graph = helmNotation.toGraph(`replicaCount: 1
image:
  repository: quay.io/jetstack/cert-manager-controller
prometheus:
  enabled: true
  servicemonitor:
    enabled: false
    interval: 60s
  podmonitor:
    enabled: false
webhook:
  replicaCount: 1
  image:
    repository: quay.io/jetstack/cert-manager-webhook
`);
    expect(graph.nodes.map((node) => node.label).sort()).toEqual(['cert-manager-controller', 'webhook']);
    expect(graph.edges).toEqual([]);
  });

  it('reads a Service’s port from its workload’s containers when the service block names none (Kubernetes Dashboard)', () => {
    // kubernetes/dashboard charts/kubernetes-dashboard/values.yaml, abridged: the template takes the Service's port
    // from `containers.ports`; the Services were drawn with no port.
    const graph = helmNotation.toGraph(`auth:
  role: auth
  image:
    repository: docker.io/kubernetesui/dashboard-auth
  scaling:
    replicas: 1
  service:
    type: ClusterIP
  containers:
    ports:
      - name: auth
        containerPort: 8000
        protocol: TCP
`);
    expect(graph.nodes.find((node) => node.id === 'auth')!.rows).toEqual(['workload, 1 replica', 'dashboard-auth', 'Service :8000']);
    expect(arrows(graph)).toEqual([]);
  });

  it('draws a workload\'s Service block as a row on it with the port clients use, not a box beside it nor the metrics port (podinfo)', () => {
    const graph = helmNotation.toGraph(fixture('podinfo.values.yaml'));
    expect(graph.nodes.map((n) => [n.label, n.rows])).toEqual([['podinfo', ['workload, 1 replica', 'podinfo', 'Service :9898']]]);
    expect(graph.edges).toEqual([]);
  });

  it('reads the defaults every component inherits as settings, not a workload (OpenTelemetry demo: `default` drew as a workload named default)', () => {
    // open-telemetry/opentelemetry-helm-charts charts/opentelemetry-demo/values.yaml, abridged.
    const graph = helmNotation.toGraph(`default:
  image:
    repository: ghcr.io/open-telemetry/demo
    tag: ""
  replicas: 1
components:
  accounting:
    enabled: true
    useDefault:
      env: true
    service:
      port: 8080
  cart:
    enabled: true
    service:
      port: 8080
`);
    expect(graph.nodes.map((n) => n.label)).toEqual(['accounting', 'cart']);
    // linkerd-multicluster's values, abridged: `controllerDefaults` is what each of its `controllers` inherits.
    const multicluster = helmNotation.toGraph(`gateway:
  enabled: true
  replicas: 1
  name: linkerd-gateway
controllers: []
controllerDefaults:
  replicas: 1
  image:
    name: cr.l5d.io/linkerd/controller
`);
    expect(multicluster.nodes.map((n) => n.id)).toEqual(['gateway']);
  });

  it('draws the enabled sub-charts of an umbrella chart', () => {
    const graph = helmNotation.toGraph(fixture('grafana-loki-stack.values.yaml'));
    expect(graph.nodes.map((n) => n.id)).toEqual(['loki', 'promtail']);
  });

  it('reads one block per microservice with create: true, and the redis a settings block creates (cartDatabase.inClusterRedis)', () => {
    const graph = helmNotation.toGraph(fixture('microservices-demo.values.yaml'));
    expect(graph.nodes).toHaveLength(12);
    expect(graph.nodes.find((n) => n.id === 'redis-cart')).toMatchObject({ kind: 'cache' });
    expect(graph.nodes.find((n) => n.id === 'cartService')!.label).toBe('cartservice');
  });
});

describe('helmNotation parts chosen by a type switch', () => {
  it('draws Harbor\'s internal database and redis as workloads and the components their settings name as users', () => {
    const graph = helmNotation.toGraph(fixture('harbor.values.yaml'));
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    // `database: {type: internal, internal: {image: harbor-db}}`: the chart runs it, a cylinder with its image.
    // Its volumes, listed by component under persistence.persistentVolumeClaim, are a row on each.
    expect(byId.get('database')).toMatchObject({ kind: 'database', rows: ['workload', 'harbor-db', 'volume 1Gi'] });
    expect(byId.get('redis')).toMatchObject({ kind: 'cache', rows: ['workload', 'valkey-photon', 'volume 1Gi'] });
    expect(byId.get('jobservice')?.rows).toEqual(['workload, 1 replica', 'harbor-jobservice', 'jobLog volume 1Gi']);
    // `coreDatabase`, `jobserviceDatabaseIndex`, `registryDatabaseIndex`, `trivyAdapterIndex` name who uses what;
    // the rest is Harbor's architecture, drawn as its documentation draws it and said (the exporter stood loose).
    expect(arrows(graph).sort()).toEqual([
      'core -> database',
      'core -> redis',
      'core -> registry [fronts]',
      'core -> trivy [scans]',
      'exporter -> core [metrics]',
      'expose -> core [core.harbor.domain]',
      'jobservice -> core [reports]',
      'jobservice -> redis',
      'registry -> redis',
      'trivy -> redis',
    ]);
    expect(graph.warnings).toContain("core → registry (fronts), core → trivy (scans), jobservice → core (reports), exporter → core (metrics): drawn as the parts' documentation draws them; the values do not say it");
    // The registry pod runs two containers written as blocks of their own.
    expect(byId.get('registry')?.rows).toEqual(['workload, 1 replica', 'registry-photon, harbor-registryctl', 'volume 5Gi']);
    // Exposed by an ingress that routes to core itself, the chart's nginx is not deployed: it stood loose beside it.
    expect(byId.has('nginx')).toBe(false);
    expect(graph.warnings).toContain("line 510: nginx: the chart's proxy for exposures other than expose.type: ingress, which routes to the parts itself; not drawn");
    // Exposed otherwise, it is the way in.
    const clusterIP = helmNotation.toGraph(fixture('harbor.values.yaml').replace(/^  type: ingress$/m, '  type: clusterIP'));
    expect(clusterIP.nodes.map((n) => n.id)).toContain('nginx');
    expect(arrows(clusterIP)).toEqual(expect.arrayContaining(['nginx -> core [routes API]', 'nginx -> portal [routes UI]']));
  });

  it('draws a part the switch says is external as such, with its address, and the alternatives not chosen as nothing', () => {
    const graph = helmNotation.toGraph(`
core:
  image: {repository: acme/core}
  replicas: 2
database:
  type: external
  internal:
    image: {repository: acme/db}
  external:
    host: db.example.com
    port: "5432"
    coreDatabase: registry
`);
    expect(graph.nodes.map((n) => [n.id, n.kind, n.rows])).toEqual([
      ['core', 'workload', ['workload, 2 replicas', 'core']],
      ['database', 'database', ['external', 'db.example.com:5432']],
    ]);
    expect(arrows(graph)).toEqual(['core -> database']);
  });
});

describe('helmNotation products sharing volumes, and datastore sub-charts with an image', () => {
  // The shape of Mastodon's chart values (AGPL, so not copied): the product block holds the volumes its workloads
  // share, its workers are a list, and the datastores are Bitnami sub-charts whose image the chart overrides.
  const mastodonShaped = `
image:
  repository: ghcr.io/mastodon/mastodon
mastodon:
  persistence:
    assets:
      accessMode: ReadWriteOnce
    system:
      accessMode: ReadWriteOnce
  sidekiq:
    resources: {}
    workers:
      - name: all-queues
        concurrency: 25
        replicas: 1
  streaming:
    image:
      repository: ghcr.io/mastodon/mastodon-streaming
    port: 4000
  web:
    port: 3000
    replicas: 1
    image:
      repository:
      tag:
postgresql:
  enabled: true
  image:
    repository: bitnamilegacy/postgresql
redis:
  enabled: true
  image:
    repository: bitnamilegacy/redis
  sidekiq:
    enabled: false
`;

  it('draws the product\'s workloads in its box and the datastores as sub-charts, the one a workload is named in used by it, the others by the product', () => {
    const graph = helmNotation.toGraph(mastodonShaped);
    // It was one workload "mastodon" (its persistence made it one) beside three "workloads" postgresql, redis, elasticsearch.
    expect(graph.groups.map((g) => g.id)).toEqual(['mastodon']);
    expect(graph.nodes.map((n) => [n.id, n.rows, n.parent])).toEqual([
      ['postgresql', ['sub-chart'], undefined],
      ['redis', ['sub-chart'], undefined],
      ['mastodon.sidekiq', ['workload', 'mastodon'], 'mastodon'],
      ['mastodon.streaming', ['workload', 'mastodon-streaming'], 'mastodon'],
      // An image block left empty runs the chart's image.
      ['mastodon.web', ['workload, 1 replica', 'mastodon'], 'mastodon'],
    ]);
    // `redis.sidekiq` is sidekiq's redis setting; which workload uses PostgreSQL is not in the values, but the product
    // does: an arrow from its box, where PostgreSQL stood apart with no line.
    expect(arrows(graph)).toEqual(['mastodon.sidekiq -> redis', 'mastodon -> postgresql']);
    expect(graph.warnings).toEqual([]);
  });

  it('routes the chart’s ingress and Service to the product’s web workload, which serves its front (Mastodon: the ingress was lost)', () => {
    const graph = helmNotation.toGraph(`${mastodonShaped}ingress:\n  enabled: true\n  hosts:\n    - host: mastodon.local\n      paths:\n        - path: "/"\nservice:\n  type: ClusterIP\n  port: 80\n`);
    expect(graph.nodes.find((n) => n.id === 'mastodon.web')!.rows).toEqual(['workload, 1 replica', 'mastodon', 'Service :80']);
    expect(arrows(graph)).toContain('mastodon.web:ingress -> mastodon.web [mastodon.local]');
  });
});

describe('helmNotation the application run as a kind, objects it makes and parts reached outside', () => {
  it('draws n8n with the PostgreSQL and Redis its values say to reach outside the chart, queue mode a row (n8n-hosting chart)', () => {
    const graph = helmNotation.toGraph(fixture('n8n.values.yaml'));
    // queueMode and an external redis were two sub-charts to install, and the external PostgreSQL was lost.
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([
      ['app', ['workload, 1 replica', 'n8n', 'Service :5678', 'with queueMode']],
      ['database', ['external postgresdb', 'your-postgres-hostname:5432']],
      ['redis', ['external', 'your-redis-hostname:6379']],
    ]);
    expect(arrows(graph)).toEqual(['app -> database', 'app -> redis']);
  });

  it('draws traefik’s deployment block as the application with its exposed ports, its IngressClass and Gateway rows on it (traefik chart, abridged)', () => {
    const graph = helmNotation.toGraph(`
image:
  registry:
  repository:
  tag:
deployment:
  enabled: true
  kind: Deployment
  replicas: 1
ingressClass:
  enabled: true
  isDefaultClass: true
gateway:
  enabled: true
  listeners:
    web:
      port: 8000
      protocol: HTTP
gatewayClass:
  enabled: true
ports:
  traefik:
    port: 8080
    expose:
      default: false
    exposedPort: 8080
  web:
    port: 8000
    expose:
      default: true
    exposedPort: 80
  websecure:
    port: 8443
    expose:
      default: true
    exposedPort: 443
service:
  enabled: true
  single: true
nameOverride: ""
`);
    // It was a workload "deployment" using three sub-charts ingressClass, gateway and gatewayClass, with a bare "Service".
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([['deployment', ['workload, 1 replica', 'Service :80, 443', 'with ingressClass, gateway, gatewayClass']]]);
    expect(graph.edges).toEqual([]);
  });
});

describe('helmNotation duplicate keys', () => {
  it('reads a key written twice as Helm does, the last one winning, and says so', () => {
    const values = ['image:', '  repository: bitnami/apache', 'service:', '  type: ClusterIP', 'image:', '  repository: bitnami/nginx', ''].join('\n');
    const graph = helmNotation.toGraph(values) as GraphIR;
    expect(graph.warnings).toContain('line 5: image is written twice in one map; the last one is used');
    expect(graph.nodes.map((n) => [n.label, n.rows])).toEqual([['nginx', ['workload', 'nginx', 'Service']]]);
  });
});

describe('helmNotation features and detection', () => {
  it('draws ingress → workload, its Service and its autoscaler rows on it', () => {
    const graph = helmNotation.toGraph(`
replicaCount: 2
image: {repository: ghcr.io/acme/shop, tag: "1.0"}
service: {type: ClusterIP, port: 8080}
ingress:
  enabled: true
  hosts: [{host: shop.example, paths: [{path: /}]}]
autoscaling: {enabled: true, minReplicas: 2, maxReplicas: 5}
redis: {enabled: true}
`);
    expect(arrows(graph)).toEqual(['app:ingress -> app [shop.example]', 'app -> redis']);
    // The autoscaler was a box with a dashed "scales" arrow; it sets the replica count, said there.
    expect(graph.nodes.find((n) => n.id === 'app')!.rows).toEqual(['workload, 2–5 replicas, autoscaled', 'shop', 'Service :8080']);
    expect(graph.nodes.find((n) => n.id === 'redis')!.kind).toBe('cache');
  });

  it('reports YAML errors with line and column', () => {
    expect(() => helmNotation.toGraph('image:\n  repository: a\n tag: b\n')).toThrow(AppError);
    expect(() => helmNotation.toGraph('image:\n  repository: a\n tag: b\n')).toThrow(/^line 3, column \d+:/);
  });

  it('claims values files but not compose files or manifests', () => {
    expect(helmNotation.detect(fixture('bitnami-wordpress.values.yaml'))).toBeGreaterThan(0.5);
    expect(helmNotation.detect(fixture('microservices-demo.values.yaml'))).toBeGreaterThan(0.3);
    expect(helmNotation.detect('services:\n  web:\n    image: nginx\n')).toBe(0);
    expect(helmNotation.detect('apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n')).toBe(0);
  });
});

describe('helmNotation relations named in values', () => {
  it('draws what a host, URL, connection string or env entry says a component talks to, and nothing else', () => {
    const graph = helmNotation.toGraph(
      [
        'frontend:',
        '  image:',
        '    repository: shop/frontend',
        '  replicaCount: 2',
        '  env:',
        '    - name: API_URL',
        '      value: http://orders:8080',
        '    - name: LOG_LEVEL',
        '      value: orders',
        'orders:',
        '  image:',
        '    repository: shop/orders',
        '  replicaCount: 1',
        '  config:',
        '    rabbitmqHost: "{{ .Release.Name }}-rabbitmq"',
        '    databaseUrl: postgres://shop:secret@postgresql:5432/shop',
        'rabbitmq:',
        '  enabled: true',
        'postgresql:',
        '  enabled: true',
      ].join('\n'),
    );
    expect(arrows(graph).sort()).toEqual(['frontend -> orders', 'orders -> postgresql', 'orders -> rabbitmq']);
    expect(graph.warnings).toEqual([]);
  });

  it('takes a host for the part of that name before one whose name ends it (the OpenTelemetry demo chart: cart → valkey-cart)', () => {
    // components.cart's VALKEY_ADDR named valkey-cart, which ends in "-cart": read as cart itself, the line was lost.
    const graph = helmNotation.toGraph(
      ['cart:', '  image:', '    repository: demo/cart', '  replicaCount: 1', '  env:', '    - name: VALKEY_ADDR', '      value: valkey-cart:6379', 'valkey-cart:', '  image:', '    repository: valkey/valkey', '  replicaCount: 1'].join('\n'),
    );
    expect(arrows(graph)).toEqual(['cart -> valkey-cart']);
  });
});

describe('helmNotation components named by blocks and flags', () => {
  it('reads Robot Shop’s per-workload blocks as its workloads and its datastore blocks as dependencies, guessing no arrow', () => {
    const graph = helmNotation.toGraph(fixture('robot-shop.values.yaml'));
    expect(graph.nodes.map((n) => n.id).sort()).toEqual(
      ['cart', 'catalogue', 'dispatch', 'mongodb', 'mysql', 'payment', 'rabbitmq', 'ratings', 'redis', 'shipping', 'user', 'web'].sort(),
    );
    // Which workload uses which store is in the templates, not the values: no edge is invented, and that is said
    // at the line of each store.
    expect(graph.edges).toEqual([]);
    expect(graph.warnings).toEqual([
      'line 42: mongodb: which of the 8 workloads uses it is not in the values; drawn without an arrow',
      'line 44: mysql: which of the 8 workloads uses it is not in the values; drawn without an arrow',
      'line 52: rabbitmq: which of the 8 workloads uses it is not in the values; drawn without an arrow',
      'line 56: redis: which of the 8 workloads uses it is not in the values; drawn without an arrow',
    ]);
  });

  it('draws a dependency switched on by a flag, and not a feature switched on by one', () => {
    const graph = helmNotation.toGraph(`
image:
  repository: acme/shop
replicaCount: 2
useRabbitMQ: true
redisEnabled: true
enableMetrics: true
tracing:
  enabled: true
kafka:
  enabled: false
`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['rabbitmq', 'redis', 'app']);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['app->rabbitmq', 'app->redis']);
  });

  it('reads Sentry’s workloads one level down under their product (sentry.web, snuba.api), each product a box', () => {
    const graph = helmNotation.toGraph(fixture('sentry.values.yaml'));
    expect(graph.groups.map((g) => g.id)).toEqual(['sentry', 'snuba']);
    const inSentry = graph.nodes.filter((n) => n.parent === 'sentry').map((n) => n.id);
    expect(inSentry).toEqual(expect.arrayContaining(['sentry.web', 'sentry.worker', 'sentry.cron', 'sentry.ingestConsumerEvents']));
    expect(graph.nodes.find((n) => n.id === 'sentry.web')).toMatchObject({ label: 'web', rows: ['workload, 1 replica', 'Service'] });
    expect(graph.nodes.filter((n) => n.parent === 'snuba')).toHaveLength(21);
    // Switched-off parts are said at their own line, not drawn.
    expect(graph.warnings).toContain('line 281: sentry.workerEvents: enabled: false; not drawn');
    expect(graph.nodes.some((n) => n.id === 'sentry.workerEvents')).toBe(false);
  });

  it('reads empty blocks as settings when the chart’s workloads say what they are (Sentry’s `github: {}`, `slack: {}`)', () => {
    const ids = helmNotation.toGraph(fixture('sentry.values.yaml')).nodes.map((n) => n.id);
    for (const integration of ['github', 'google', 'slack', 'discord', 'openai']) expect(ids).not.toContain(integration);
    // `hooks` (Helm hooks switched on) configures jobs; it is no sub-chart.
    expect(ids).not.toContain('hooks');
    expect(ids).toEqual(expect.arrayContaining(['relay', 'vroom', 'nginx', 'kafka', 'postgresql']));
    // Argo Workflows: `customArtifactRepository: {}` and `artifactRepositoryRef: {}` configure the controller.
    expect(helmNotation.toGraph(fixture('argo-workflows.values.yaml')).nodes.map((n) => n.id)).toEqual(['controller', 'controller:volume', 'executor', 'server']);
  });

  it('reads Temporal: the server, admin tools and web UI with their services, nothing for its feature switches', () => {
    const graph = helmNotation.toGraph(fixture('temporal.values.yaml'));
    expect(graph.nodes.map((n) => n.id)).toEqual(['server', 'admintools', 'web']);
    expect(graph.nodes.filter((n) => n.rows!.some((row) => row.startsWith('Service'))).map((n) => n.id)).toEqual(['admintools', 'web']);
    expect(graph.edges).toHaveLength(0);
  });

  it('reads a workload under a name that usually configures the chart, and no workload from shared image settings (Kubernetes Dashboard)', () => {
    // kubernetes/dashboard charts/kubernetes-dashboard/values.yaml, abridged: `app` holds what every workload shares,
    // `auth` is the auth service beside `api` and `web`.
    const graph = helmNotation.toGraph(`app:
  mode: 'dashboard'
  image:
    pullPolicy: IfNotPresent
    pullSecrets: []
  scheduling:
    nodeSelector: {}
auth:
  role: auth
  image:
    repository: docker.io/kubernetesui/dashboard-auth
    tag: 1.3.0
  scaling:
    replicas: 1
  service:
    type: ClusterIP
api:
  role: api
  image:
    repository: docker.io/kubernetesui/dashboard-api
    tag: 1.14.0
  scaling:
    replicas: 1
  service:
    type: ClusterIP
web:
  role: web
  image:
    repository: docker.io/kubernetesui/dashboard-web
    tag: 1.7.0
  scaling:
    replicas: 1
  service:
    type: ClusterIP
`);
    expect(graph.nodes.filter((node) => node.rows?.[0]?.startsWith('workload')).map((node) => `${node.label}: ${node.rows!.join(', ')}`)).toEqual([
      'auth: workload, 1 replica, dashboard-auth, Service',
      'api: workload, 1 replica, dashboard-api, Service',
      'web: workload, 1 replica, dashboard-web, Service',
    ]);
    // An image left empty takes the chart's global one: still a workload (Argo CD's notifications controller).
    const argo = helmNotation.toGraph('global:\n  image:\n    repository: quay.io/argoproj/argocd\nnotifications:\n  enabled: true\n  name: notifications-controller\n  image:\n    repository: ""\n    tag: ""\n');
    expect(argo.nodes.map((node) => `${node.label}: ${node.rows!.join(', ')}`)).toEqual(['notifications-controller: workload']);
    // Bitnami's `auth` (passwords) and `metrics` (an exporter beside the database, with no count) stay settings.
    const bitnami = helmNotation.toGraph(fixture('bitnami-postgresql.values.yaml'));
    expect(bitnami.nodes.some((node) => node.id === 'auth' || node.id === 'metrics')).toBe(false);
  });

  it('reads what a chart\'s Prometheus scrapes as scrape targets, not as workloads or sub-charts (kube-prometheus-stack)', () => {
    // prometheus-community/helm-charts charts/kube-prometheus-stack/values.yaml, abridged.
    const graph = helmNotation.toGraph(`prometheus:
  enabled: true
  service:
    port: 9090
  serviceMonitor:
    selfMonitor: true
  prometheusSpec:
    retention: 10d
coreDns:
  enabled: true
  service:
    enabled: true
    port: 9153
  serviceMonitor:
    interval: ""
kubelet:
  enabled: true
  namespace: kube-system
  serviceMonitor:
    https: true
kubeScheduler:
  enabled: true
  endpoints: []
  service:
    enabled: true
    port: null
  serviceMonitor:
    enabled: true
kubeDns:
  enabled: false
  service:
    dnsmasq:
      port: 10054
  serviceMonitor:
    interval: ""
`);
    expect(graph.nodes.map((node) => `${node.id}: ${node.rows!.join(', ')}`)).toEqual([
      'coreDns: scrape target',
      'kubelet: scrape target',
      'kubeScheduler: scrape target',
      'prometheus: workload, Service :9090',
    ]);
    expect(arrows(graph)).toEqual(['prometheus -> coreDns [scrapes]', 'prometheus -> kubelet [scrapes]', 'prometheus -> kubeScheduler [scrapes]']);
    expect(graph.warnings).toEqual(['line 29: kubeDns: enabled: false; not drawn']);
    // Alone, a Service with a ServiceMonitor may be a small chart's own component.
    expect(helmNotation.toGraph('web:\n  service:\n    port: 80\n  serviceMonitor:\n    enabled: true\nimage:\n  repository: nginx\n').nodes.some((node) => node.rows?.includes('scrape target'))).toBe(false);
  });

  it('lists many scrape targets in one node, and draws one arrow to a sub-chart Prometheus both scrapes and is named in (kube-prometheus-stack)', () => {
    // prometheus-community/helm-charts charts/kube-prometheus-stack/values.yaml, abridged: its seven targets stacked
    // seven boxes 1,624 px tall, and the two arrows into kube-state-metrics shared an id, so Graphviz drew neither.
    const target = (name: string) => `${name}:\n  enabled: true\n  endpoints: []\n  serviceMonitor:\n    enabled: true\n`;
    const graph = helmNotation.toGraph(`prometheus:
  enabled: true
  service:
    port: 9090
  serviceAccount:
    create: true
    name: ""
  prometheusSpec:
    image:
      repository: prometheus/prometheus
    replicas: 1
${['kubeApiServer', 'kubelet', 'kubeEtcd', 'kubeScheduler', 'kubeProxy'].map(target).join('')}kubeStateMetrics:
  enabled: true
kube-state-metrics:
  prometheus:
    monitor:
      enabled: true
`);
    expect(graph.nodes.map((node) => `${node.id}: ${node.rows!.join(' | ')}`)).toEqual([
      'kube-state-metrics: sub-chart',
      'scrape-targets: 5 scrape targets: | kubeApiServer, kubelet, kubeEtcd, | kubeScheduler, kubeProxy',
      // Its serviceAccount and prometheusSpec are its own, not two workloads of a "prometheus" product.
      'prometheus: workload | Service :9090',
    ]);
    expect(arrows(graph)).toEqual(['prometheus -> scrape-targets [scrapes]', 'prometheus -> kube-state-metrics [scrapes]']);
    expect(graph.warnings[0]).toBe('lines 12, 17, 22, 27, 32: 5 scrape targets drawn as one node listing them');
  });

  it('draws a dependency switched on by an umbrella block of its own once, under the dependency\'s name (kube-prometheus-stack)', () => {
    // prometheus-community/helm-charts charts/kube-prometheus-stack/values.yaml (cf408a2), abridged: Chart.yaml's
    // `condition: nodeExporter.enabled` switches the prometheus-node-exporter dependency, kubeStateMetrics its own.
    const graph = helmNotation.toGraph(`windowsMonitoring:
  enabled: false
prometheus-windows-exporter:
  prometheus:
    monitor:
      enabled: true
  releaseLabel: true
grafana:
  enabled: true
  serviceMonitor:
    enabled: true
  service:
    portName: http-web
kubeStateMetrics:
  enabled: true
kube-state-metrics:
  namespaceOverride: ""
  releaseLabel: true
  prometheusScrape: false
  prometheus:
    monitor:
      enabled: true
nodeExporter:
  enabled: true
  operatingSystems:
    linux:
      enabled: true
  forceDeployDashboards: false
prometheus-node-exporter:
  namespaceOverride: ""
  podLabels:
    jobLabel: node-exporter
  service:
    portName: http-metrics
  prometheus:
    monitor:
      enabled: true
prometheus:
  enabled: true
  service:
    port: 9090
`);
    const ids = graph.nodes.map((n) => n.id);
    // The node exporter once, by the chart it is; kube-state-metrics drawn, not lost as a bare switch.
    expect(ids.filter((id) => /node-?exporter/i.test(id))).toEqual(['prometheus-node-exporter']);
    expect(graph.nodes.find((n) => n.id === 'kube-state-metrics')).toMatchObject({ rows: ['sub-chart'] });
    expect(ids).not.toContain('prometheus-windows-exporter');
    // What its Prometheus is told to scrape is drawn as scraped, so no part hangs loose.
    expect(arrows(graph).filter((a) => a.endsWith('[scrapes]'))).toEqual([
      'prometheus -> grafana [scrapes]',
      'prometheus -> prometheus-node-exporter [scrapes]',
      'prometheus -> kube-state-metrics [scrapes]',
    ]);
    // Scraped, kube-state-metrics is no dependency of unknown user; Grafana queries Prometheus, as documented.
    expect(graph.warnings).toEqual(["grafana → prometheus (queries): drawn as the parts' documentation draws them; the values do not say it"]);
    const off = helmNotation.toGraph('kubeStateMetrics:\n  enabled: false\nkube-state-metrics:\n  releaseLabel: true\nprometheus:\n  service:\n    port: 9090\n');
    expect(off.nodes.map((n) => n.id)).toEqual(['prometheus']);
    expect(off.warnings).toEqual(['line 1: kube-state-metrics: switched off by kubeStateMetrics.enabled: false; not drawn']);
  });

  it('reads the k8s-at-home common library\'s named Services and volumes, drawing none that the values switch off', () => {
    // k8s-at-home/charts charts/stable/home-assistant/values.yaml (2463dec), abridged.
    const graph = helmNotation.toGraph(`image:
  repository: ghcr.io/home-assistant/home-assistant
  tag:
  pullPolicy: IfNotPresent
env:
  TZ: UTC
service:
  main:
    ports:
      http:
        port: 8123
ingress:
  main:
    enabled: false
persistence:
  config:
    enabled: false
  usb:
    enabled: false
    type: hostPath
    hostPath: /path/to/device
mariadb:
  enabled: false
  architecture: standalone
  auth:
    database: home-assistant
postgresql:
  enabled: false
  image:
    repository: bitnami/postgresql
    tag: 14.1.0
`);
    expect(graph.nodes.map((n) => `${n.id}:${n.kind}`)).toEqual(['app:workload']);
    expect(graph.nodes[0]!.rows!.at(-1)).toBe('Service :8123');
    expect(arrows(graph)).toEqual([]);
    expect(graph.warnings).toEqual(['line 22: mariadb: enabled: false; not drawn', 'line 27: postgresql: enabled: false; not drawn']);
    // A volume the values switch on is drawn with its type and where it is mounted, one node per name.
    const on = helmNotation.toGraph('image:\n  repository: ghcr.io/home-assistant/home-assistant\npersistence:\n  config:\n    enabled: true\n    mountPath: /config\n    size: 1Gi\n  usb:\n    enabled: false\n    type: hostPath\n');
    expect(on.nodes.filter((n) => n.kind === 'storage').map((n) => `${n.label} ${n.rows!.join(' ')}`)).toEqual(['config pvc 1Gi /config']);
    // Bitnami names Services so too, each on unless switched off (bitnami/charts bitnami/vault/values.yaml, abridged).
    const vault = helmNotation.toGraph('server:\n  image: {repository: bitnami/vault}\n  replicaCount: 1\n  service:\n    general:\n      type: ClusterIP\n      ports: {http: 8200, internal: 8201}\n    active:\n      type: ClusterIP\n      ports: {http: 8200}\n');
    expect(vault.nodes.map((n) => `${n.label}: ${n.rows!.join(', ')}`)).toEqual(['server: workload, 1 replica, vault, Service general :8200, 8201, Service active :8200']);
  });
});

describe('helmNotation settings of the application under its name', () => {
  it('does not draw the application\'s own settings block as a sub-chart (authentik\'s `authentik: {enabled: true, …}`), but the database it names', () => {
    // goauthentik/helm charts/authentik/values.yaml (GPL-3.0, so abridged here): `authentik` was a sub-chart box with
    // the product's icon beside the server and worker that are the product.
    const graph = helmNotation.toGraph(['global:', '  image:', '    repository: ghcr.io/goauthentik/server', '    tag: ""', 'authentik:', '  enabled: true', '  log_level: info', '  secret_key: ""', '  email:', '    host: ""', '    port: 587', '  postgresql:', '    host: "{{ .Release.Name }}-postgresql"', '    port: 5432', 'server:', '  replicas: 1', '  service:', '    type: ClusterIP', '    servicePortHttp: 80', 'worker:', '  replicas: 1', 'postgresql:', '  enabled: false', 'redis:', '  enabled: true', '  architecture: standalone'].join('\n'));
    expect(graph.nodes.map((n) => n.id)).not.toContain('authentik');
    // A sub-chart switched on beside it stays one.
    expect(graph.nodes.find((n) => n.id === 'redis')?.rows).toEqual(['sub-chart']);
    // The database its settings give an address for, its bundled chart off, is reached outside: used by every part.
    expect(graph.nodes.find((n) => n.id === 'postgresql')).toMatchObject({ kind: 'database', rows: ['external'] });
    expect(arrows(graph)).toEqual(expect.arrayContaining(['server -> postgresql', 'worker -> postgresql']));
    expect(graph.warnings.join('\n')).not.toContain('postgresql: enabled: false');
  });
});

describe('helmNotation switches, products with shared defaults and parts only some architectures run', () => {
  it('draws langfuse’s web and worker in its box and the datastores `deploy: true` brings as sub-charts it uses (langfuse-k8s)', () => {
    // Before: one workload "langfuse" (its shared image tag and count), PostgreSQL and Valkey as workloads of the chart
    // with no arrow, and the bundled S3 store lost.
    const graph = helmNotation.toGraph(fixture('langfuse.values.yaml'));
    expect(graph.groups.map((g) => g.id)).toEqual(['langfuse']);
    expect(graph.nodes.map((n) => `${n.id}:${n.kind}:${n.rows?.[0] ?? ''}`).sort()).toEqual([
      'clickhouse:database:sub-chart',
      'langfuse.web:workload:workload',
      'langfuse.worker:workload:workload',
      'postgresql:database:sub-chart',
      'redis:cache:sub-chart',
      's3:storage:sub-chart',
    ]);
    expect(graph.nodes.find((n) => n.id === 'langfuse.web')?.rows).toEqual(['workload', 'langfuse', 'Service :3000']);
    expect(arrows(graph).sort()).toEqual(['langfuse -> clickhouse', 'langfuse -> postgresql', 'langfuse -> redis', 'langfuse -> s3']);
  });

  it('draws a volume named for what it holds on its workload (Vault’s `server.dataStorage`), not one switched off', () => {
    const graph = helmNotation.toGraph(fixture('hashicorp-vault.values.yaml'));
    expect(graph.nodes.find((n) => n.id === 'server:volume:data')).toMatchObject({ label: 'server data', kind: 'storage', rows: ['10Gi', '/vault/data'] });
    expect(graph.nodes.some((n) => n.id.includes('audit'))).toBe(false);
    expect(arrows(graph)).toContain('server -> server:volume:data [mounts]');
  });

  it('draws a datastore sub-chart switched on with a count of its own as a sub-chart, the application beside it (bitnami/solr, abridged)', () => {
    // Before: ZooKeeper drawn as a workload running Solr's image, and Solr itself not drawn.
    const graph = helmNotation.toGraph(`image:
  registry: docker.io
  repository: bitnami/solr
replicaCount: 3
service:
  type: ClusterIP
  ports:
    http: 8983
persistence:
  enabled: true
  size: 8Gi
zookeeper:
  enabled: true
  replicaCount: 3
  persistence:
    enabled: true
    size: 8Gi
`);
    expect(graph.nodes.map((n) => `${n.id}:${n.label}:${n.rows?.[0] ?? ''}`)).toEqual(['zookeeper:zookeeper:sub-chart', 'app:solr:workload, 3 replicas', 'app:volume:solr data:8Gi']);
    expect(arrows(graph)).toContain('app -> zookeeper');
  });

  it('draws no MongoDB arbiter for the standalone architecture, but MongoDB itself (bitnami/mongodb, abridged)', () => {
    // The chart's arbiter template tests `eq .Values.architecture "replicaset"`; drawn, the arbiter took MongoDB's place.
    const graph = helmNotation.toGraph(`architecture: standalone
image:
  repository: bitnami/mongodb
service:
  ports:
    mongodb: 27017
persistence:
  enabled: true
  size: 8Gi
arbiter:
  enabled: true
  service:
    ports:
      mongodb: 27017
hidden:
  enabled: false
  persistence:
    enabled: true
`);
    expect(graph.nodes.map((n) => n.label)).toEqual(['mongodb', 'mongodb data']);
  });

  it('reads RabbitMQ’s clustering and Keycloak’s distributed cache as ways the application runs, not sub-charts (bitnami/rabbitmq, bitnami/keycloak, abridged)', () => {
    // Drawn as sub-charts, RabbitMQ used a "clustering" chart and Keycloak a "cache" one, neither of which exists.
    const rabbitmq = helmNotation.toGraph(`image:
  repository: bitnami/rabbitmq
replicaCount: 1
clustering:
  enabled: true
  name: ""
  addressType: hostname
  rebalance: false
  partitionHandling: autoheal
`);
    expect(rabbitmq.nodes.map((node) => node.label)).toEqual(['rabbitmq']);
    expect(rabbitmq.nodes[0]!.rows).toContain('with clustering');
    const keycloak = helmNotation.toGraph(`image:
  repository: bitnami/keycloak
replicaCount: 1
cache:
  enabled: true
  stack: jdbc-ping
  configFile: "cache-ispn.xml"
`);
    expect(keycloak.nodes.map((node) => node.label)).toEqual(['keycloak']);
  });

  it('draws standalone MongoDB with the one replica it runs, saying its replicaCount of 2 counts only for a replica set (bitnami/mongodb, abridged)', () => {
    // The chart's own comment: "When architecture=standalone, the number of replicas can only be 0 or 1"; drawn, the
    // default values read "workload, 2 replicas".
    const graph = helmNotation.toGraph(`architecture: standalone
image:
  repository: bitnami/mongodb
replicaCount: 2
service:
  ports:
    mongodb: 27017
`);
    expect(graph.nodes[0]!.rows?.[0]).toBe('workload, 1 replica');
    expect(graph.warnings).toContain('line 4: replicaCount: 2 counts only for a replicated architecture; architecture: standalone runs 1 replica, drawn so');
    const replicaset = helmNotation.toGraph('architecture: replicaset\nimage:\n  repository: bitnami/mongodb\nreplicaCount: 2\n');
    expect(replicaset.nodes[0]!.rows?.[0]).toBe('workload, 2 replicas');
  });

  it('draws Spark’s master as a workload of its image fronted by the chart’s Service, its workers registering with it (bitnami/spark, abridged)', () => {
    // Before: the master was a sub-chart "master" the workers used, with no Service.
    const graph = helmNotation.toGraph(`image:
  repository: bitnami/spark
master:
  enabled: true
  containerPorts:
    http: 8080
    cluster: 7077
  podSecurityContext:
    enabled: true
  containerSecurityContext:
    enabled: true
  livenessProbe:
    enabled: true
worker:
  replicaCount: 2
  podSecurityContext:
    enabled: true
service:
  type: ClusterIP
  ports:
    http: 80
    cluster: 7077
`);
    expect(graph.nodes.map((n) => `${n.id}:${(n.rows ?? []).join(', ')}`)).toEqual(['master:workload, spark, Service :80, 7077', 'worker:workload, 2 replicas, spark']);
    expect(arrows(graph)).toEqual(['worker -> master [registers]']);
  });

  it('draws no workload for a service account its parts share (bitnami/mongodb-sharded’s `common`, abridged)', () => {
    // Before: a workload with no name beside the config servers and routers.
    const graph = helmNotation.toGraph(`image:
  repository: bitnami/mongodb-sharded
common:
  mongodbEnableNumactl: false
  containerPorts:
    mongodb: 27017
  serviceAccount:
    create: true
    name: ""
configsvr:
  replicaCount: 1
mongos:
  replicaCount: 1
`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['configsvr', 'mongos']);
  });

  it('names the application by the image an empty `image.repository` defaults to, as its comment says (traefik chart, abridged)', () => {
    // Before: a workload named "deployment", with no image.
    const graph = helmNotation.toGraph(`image:  # @schema additionalProperties: false
  # -- Traefik image host registry. Defaults to \`docker.io\` for Traefik Proxy and \`ghcr.io\` for Traefik Hub (when \`hub.enabled\` is true).
  registry:  # @schema type:[string, null]
  # -- Traefik image repository. Defaults to \`traefik\` for Traefik Proxy and \`traefik/traefik-hub\` for Traefik Hub (when \`hub.enabled\` is true).
  repository:  # @schema type:[string, null]
  tag:  # @schema type:[string, null]
deployment:
  enabled: true
  kind: Deployment
  replicas: 1
`);
    expect(graph.nodes.map((n) => [n.label, n.kind, n.rows])).toEqual([['traefik', 'gateway', ['workload, 1 replica', 'traefik']]]);
  });

  it('reads a Job block switched on as the chart’s Job, a row on the application, not a sub-chart (bitnami/superset’s `init`)', () => {
    const graph = helmNotation.toGraph(fixture('bitnami-superset.values.yaml'));
    expect(graph.nodes.map((n) => n.id)).not.toContain('init');
    expect(graph.nodes.find((n) => n.id === 'web')?.rows).toContain('with init job');
    expect(graph.warnings.join('\n')).not.toMatch(/init: which of/);
  });

  it('draws a bundled web server with no image of its own as running the server, not the application (bitnami/mastodon’s `apache`)', () => {
    const graph = helmNotation.toGraph(fixture('bitnami-mastodon.values.yaml'));
    const apache = graph.nodes.find((n) => n.id === 'apache')!;
    expect(apache.rows).toContain('apache');
    expect(apache.rows).not.toContain('mastodon');
    expect(apache.iconHint).not.toBe('mastodon');
  });

  it('draws no sub-chart for the image of an init container switched on (bitnami/elasticsearch’s `sysctlImage`, abridged)', () => {
    const graph = helmNotation.toGraph(`image:
  repository: bitnami/elasticsearch
master:
  replicaCount: 2
data:
  replicaCount: 2
sysctlImage:
  enabled: true
  registry: docker.io
  repository: bitnami/os-shell
`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['master', 'data']);
  });

  it('reads a block named for the product, holding the image its components run, as that image, and joins the object store and caches (bitnami/grafana-mimir, abridged)', async () => {
    const graph = await helmNotation.toGraph(`mimir:
  image:
    registry: docker.io
    repository: bitnami/grafana-mimir
    tag: 2.17.0
  dataDir: /bitnami/grafana-mimir
compactor:
  replicaCount: 1
distributor:
  replicaCount: 1
ingester:
  replicaCount: 2
querier:
  replicaCount: 1
queryFrontend:
  replicaCount: 1
storeGateway:
  replicaCount: 1
minio:
  enabled: true
memcachedfrontend:
  enabled: true
  nameOverride: memcachedfrontend
  service:
    ports:
      memcached: 11211
memcachedindex:
  enabled: true
  nameOverride: memcachedindex
  service:
    ports:
      memcached: 11211
`);
    expect(graph.nodes.map((n) => n.id)).not.toContain('mimir');
    expect(graph.nodes.find((n) => n.id === 'querier')!.rows).toContain('grafana-mimir');
    expect(arrows(graph)).toEqual(
      expect.arrayContaining(['ingester -> minio [uploads blocks]', 'storeGateway -> minio [reads blocks]', 'queryFrontend -> memcachedfrontend [results cache]', 'storeGateway -> memcachedindex [index cache]']),
    );
  });
});
