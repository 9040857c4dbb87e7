import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { GraphIR } from '../../graph/types.js';
import { foldForReading } from '../../graph/fold.js';
import { stampIcons } from '../../icons/index.js';
import { intakeScene } from '../../scene/intake.js';
import { resolveIconHints } from '../icon-hints.js';
import { drawGraph } from '../index.js';
import { kubernetesNotation } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/kubernetes/${name}`, import.meta.url), 'utf8');
const arrows = (graph: GraphIR): string[] => graph.edges.map((e) => `${e.from} -> ${e.to}${e.label ? ` [${e.label}]` : ''}`);

describe('kubernetesNotation on real manifests', () => {
  it('draws a StatefulSet\'s volumeClaimTemplates as the claim each replica mounts (k8s website web.yaml)', () => {
    const graph = kubernetesNotation.toGraph(fixture('k8s-website-statefulset-web.yaml'));
    const claim = graph.nodes.find((n) => n.label === 'www');
    expect(claim).toMatchObject({ kind: 'storage', rows: ['PersistentVolumeClaim', 'one per replica', '1Gi'] });
    expect(graph.edges.find((e) => e.to === claim?.id)).toMatchObject({ from: graph.nodes.find((n) => n.label === 'web')?.id, label: 'mounts' });
    expect(graph.nodes.find((n) => n.label === 'web')!.rows).toContain('Service nginx Headless :80');
  });

  it('draws the WordPress MySQL Deployment with its Service as a row, the PVC it mounts and the Secret it reads', () => {
    const graph = kubernetesNotation.toGraph(fixture('k8s-website-wordpress-mysql-deployment.yaml'));
    expect(arrows(graph)).toEqual([
      'Deployment//wordpress-mysql -> PersistentVolumeClaim//mysql-pv-claim [mounts]',
      'Deployment//wordpress-mysql -> Secret//mysql-pass [env]',
    ]);
    const secret = graph.nodes.find((n) => n.id === 'Secret//mysql-pass')!;
    expect(secret.style).toEqual({ strokeStyle: 'dashed' });
    expect(graph.warnings).toEqual([
      'line 29: Secret mysql-pass: used by Deployment wordpress-mysql but not defined in the input',
      'line 2: 1 Service in front of one workload each drawn as a row on it ("Service …"), what called the Service drawn calling the workload',
    ]);
    // A workload running a database reads as the database (its product icon), its Kubernetes kind in the first row.
    const mysql = graph.nodes.find((n) => n.id === 'Deployment//wordpress-mysql')!;
    expect(mysql).toMatchObject({ kind: 'database', iconHint: 'MySQL', rows: ['Deployment', expect.any(String), 'Service Headless :3306'] });
    expect(mysql.iconRef).toBeUndefined();
  });

  it('matches guestbook selectors on every label (leader and follower share app: redis)', () => {
    const graph = kubernetesNotation.toGraph(fixture('guestbook-all-in-one.yaml'));
    expect(graph.nodes.map((n) => n.rows?.at(-1))).toEqual(['Service :6379', 'Service :6379', 'Service NodePort :80']);
    expect(graph.edges).toEqual([]);
  });

  it('draws a datastore named after the one workload that uses it as called by it, saying so (the sock shop)', () => {
    // microservices-demo/microservices-demo deploy/kubernetes/complete-demo.yaml (Apache-2.0), abridged: carts finds
    // carts-db from its code, so the store stood loose; session-db names no workload and stays so.
    const deployment = (name: string, image: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: sock-shop}\nspec:\n  selector: {matchLabels: {name: ${name}}}\n  template:\n    metadata: {labels: {name: ${name}}}\n    spec:\n      containers: [{name: ${name}, image: ${image}}]`;
    const code = [deployment('carts', 'weaveworksdemos/carts:0.4.8'), deployment('carts-db', 'mongo'), deployment('session-db', 'redis:alpine')].join('\n---\n');
    const graph = kubernetesNotation.toGraph(code);
    expect(arrows(graph)).toEqual(['Deployment/sock-shop/carts -> Deployment/sock-shop/carts-db [calls]']);
    expect(graph.warnings).toContain('carts → carts-db: calls drawn from the names (a datastore named after the one workload that uses it); the manifests do not say them');
  });

  it('follows service addresses in env values through the Online Boutique', () => {
    const graph = kubernetesNotation.toGraph(fixture('microservices-demo-release.yaml'));
    expect(graph.nodes.filter((n) => n.kind === 'workload')).toHaveLength(11);
    expect(graph.nodes.find((n) => n.id === 'Deployment//redis-cart')).toMatchObject({ kind: 'cache', iconHint: 'Redis' });
    expect(arrows(graph)).toContain('Deployment//checkoutservice -> Deployment//paymentservice [calls]');
    // Both of the frontend's Services are its rows: the one inside the cluster and the load balancer in front of it.
    expect(graph.nodes.find((n) => n.id === 'Deployment//frontend')!.rows).toEqual(expect.arrayContaining(['Service :80→8080', 'Service frontend-external LoadBalancer :80→8080']));
    expect(graph.nodes.some((n) => n.id.startsWith('Service/'))).toBe(false);
  });

  it('puts ingress-nginx in its namespace container and reports the kinds it does not draw', () => {
    const graph = kubernetesNotation.toGraph(fixture('ingress-nginx-cloud-deploy.yaml'));
    expect(graph.groups).toEqual([{ id: 'namespace:ingress-nginx', label: 'ingress-nginx', kind: 'namespace' }]);
    expect(graph.nodes.every((n) => n.parent === 'namespace:ingress-nginx')).toBe(true);
    expect(graph.warnings).toContain('line 626: skipped 1 IngressClass object (not drawn)');
  });

  it('draws RBAC compactly: each ServiceAccount lists the Roles and ClusterRoles bound to it (ingress-nginx)', () => {
    const graph = kubernetesNotation.toGraph(fixture('ingress-nginx-cloud-deploy.yaml'));
    const account = (name: string) => graph.nodes.find((n) => n.id === `ServiceAccount/ingress-nginx/${name}`)?.rows;
    expect(account('ingress-nginx')).toEqual(['ServiceAccount', 'Role ingress-nginx', 'ClusterRole ingress-nginx']);
    expect(account('ingress-nginx-admission')).toEqual(['ServiceAccount', 'Role ingress-nginx-admission', 'ClusterRole ingress-nginx-admission']);
    // No Role or binding nodes: the roles are rows, and the warning says so instead of "skipped".
    expect(graph.nodes.filter((n) => /Role|Binding/.test(n.rows?.[0] ?? ''))).toEqual([]);
    expect(graph.warnings).toContain('lines 36, 126, 146, 227, 246, 266, 286, 304: 8 Role, ClusterRole and binding objects shown as rows on the ServiceAccounts they bind');
    expect(graph.warnings.some((w) => /skipped .* Role/.test(w))).toBe(false);
  });

  it('reads a JDBC URL in a ConfigMap a workload reads as a call to the database it names, and writes images short (Bank of Anthos)', () => {
    const graph = kubernetesNotation.toGraph(fixture('bank-of-anthos-manifests.yaml'));
    // ledger-db-config's SPRING_DATASOURCE_URL is `jdbc:postgresql://ledger-db:5432/postgresdb`: ledger-db stood alone.
    expect(arrows(graph).filter((a) => a.includes('-> StatefulSet//ledger-db')).sort()).toEqual([
      'Deployment//balancereader -> StatefulSet//ledger-db [calls]',
      'Deployment//ledgerwriter -> StatefulSet//ledger-db [calls]',
      'Deployment//transactionhistory -> StatefulSet//ledger-db [calls]',
    ]);
    // `us-central1-docker.pkg.dev/bank-of-anthos-ci/bank-of-anthos/ledger-db:v0.6.10@sha256:891c…` wrapped to four lines.
    expect(graph.nodes.find((n) => n.id === 'StatefulSet//ledger-db')?.rows?.[1]).toBe('bank-of-anthos/ledger-db:v0.6.10');
    // The project's own Postgres images: named databases, drawn as such, not as the other workloads are.
    expect(graph.nodes.filter((n) => n.kind === 'database').map((n) => n.id)).toEqual(['StatefulSet//accounts-db', 'StatefulSet//ledger-db']);
  });

  it('counts a pod\'s other containers on its image row and draws its own …-db images as databases (Sock Shop)', () => {
    const graph = kubernetesNotation.toGraph(fixture('sock-shop-complete-demo.yaml'));
    const node = (name: string) => graph.nodes.find((n) => n.id === `Deployment/sock-shop/${name}`)!;
    // Two image rows took rabbitmq to four rows, a table without its icon beside the iconned workloads.
    expect(node('rabbitmq').rows).toEqual(['Deployment, 1 replica', 'rabbitmq:3.6.8-management +1', 'Service :5672, 9090→exporter']);
    expect(['catalogue-db', 'user-db', 'carts-db', 'orders-db'].map((name) => node(name).kind)).toEqual(['database', 'database', 'database', 'database']);
  });

  it('draws a Service in front of one workload as a row on it, its callers calling the workload (Azure voting app: four boxes two across before)', () => {
    const graph = kubernetesNotation.toGraph(fixture('azure-vote-all-in-one-redis.yaml'));
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([
      ['Deployment//azure-vote-back', ['Deployment, 1 replica', 'bitnami/redis:6.0.8', 'Service :6379']],
      ['Deployment//azure-vote-front', ['Deployment, 1 replica', 'azuredocs/azure-vote-front:v1', 'Service LoadBalancer :80']],
    ]);
    expect(arrows(graph)).toEqual(['Deployment//azure-vote-front -> Deployment//azure-vote-back [calls]']);
    expect(graph.warnings).toEqual(['lines 28, 73: 2 Services in front of one workload each drawn as a row on it ("Service …"), what called the Service drawn calling the workload']);
  });

  it('keeps a Service that selects several workloads a node of its own, its selects edges drawn', () => {
    const workload = (name: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec: {template: {metadata: {labels: {app: shop, track: ${name}}}, spec: {containers: [{image: shop}]}}}`;
    const graph = kubernetesNotation.toGraph([workload('stable'), workload('canary'), 'apiVersion: v1\nkind: Service\nmetadata: {name: shop}\nspec: {selector: {app: shop}, ports: [{port: 80}]}'].join('\n---\n'));
    expect(arrows(graph)).toEqual(['Service//shop -> Deployment//stable [80]', 'Service//shop -> Deployment//canary [80]']);
  });

  it('draws the Services a manifest of one part calls, defined elsewhere, dashed (emojivoto web, a petclinic service)', () => {
    // web.yml is one of emojivoto's four files: its env names emoji-svc.emojivoto:8080 and voting-svc.emojivoto:8080,
    // and the box stood alone with its ServiceAccount.
    const web = kubernetesNotation.toGraph(fixture('emojivoto-web.yaml'));
    expect(arrows(web).filter((a) => a.endsWith('[calls]'))).toEqual(['Deployment/emojivoto/web -> Service/emojivoto/emoji-svc [calls]', 'Deployment/emojivoto/web -> Service/emojivoto/voting-svc [calls]']);
    expect(web.nodes.find((n) => n.id === 'Service/emojivoto/emoji-svc')).toMatchObject({ parent: 'namespace:emojivoto', rows: ['Service'], style: { strokeStyle: 'dashed' } });
    expect(web.warnings).toContain('line 8: Service emoji-svc: called by Deployment web but not defined in the input');
    // A JDBC URL and a metrics proxy by their full cluster names: the MySQL behind it reads as MySQL.
    const customers = kubernetesNotation.toGraph(fixture('petclinic-customers-service.yaml'));
    expect(customers.nodes.find((n) => n.id === 'Service/spring-petclinic/customers-db-mysql')).toMatchObject({ kind: 'database', iconHint: 'MySQL' });
    expect(arrows(customers)).toContain('Deployment/spring-petclinic/customers-service -> Service/spring-petclinic/wavefront-proxy [calls]');
  });

  it('leaves out a Service the whole app’s manifest names but does not run, and says so (the Online Boutique’s shopping assistant)', () => {
    const graph = kubernetesNotation.toGraph(fixture('microservices-demo-release.yaml'));
    expect(graph.nodes.some((n) => n.label === 'shoppingassistantservice')).toBe(false);
    expect(graph.warnings).toContain('shoppingassistantservice: named in the settings but not defined in the input, which holds the Services the rest call; not drawn');
  });

  it('draws a Job named by generateName, and a hook’s step as a row (Argo CD helm-hooks example, abridged)', () => {
    const job = (meta: string) => `apiVersion: batch/v1\nkind: Job\nmetadata:\n${meta}spec:\n  template:\n    spec:\n      containers:\n        - name: main\n          image: alpine:latest\n`;
    const graph = kubernetesNotation.toGraph([job('  generateName: upgrade-sql-schema\n  annotations:\n    helm.sh/hook: pre-install\n'), job('  name: maint-page-down\n  annotations:\n    argocd.argoproj.io/hook: PostSync\n')].join('---\n'));
    // The schema upgrade, named by the server from its prefix, was skipped as a document without a name.
    expect(graph.nodes.map((n) => [n.label, n.rows])).toEqual([
      ['upgrade-sql-schema', ['Job', 'pre-install hook', 'alpine:latest']],
      ['maint-page-down', ['Job', 'PostSync hook', 'alpine:latest']],
    ]);
    expect(graph.warnings).toEqual([]);
  });

  it('draws the cartservice example with its ServiceAccount', () => {
    const graph = kubernetesNotation.toGraph(fixture('microservices-demo-cartservice.yaml'));
    expect(arrows(graph)).toContain('Deployment//cartservice -> ServiceAccount//cartservice [runs as]');
  });
});

describe('kubernetesNotation edges of every kind', () => {
  const manifest = `
apiVersion: v1
kind: List
items:
  - apiVersion: networking.k8s.io/v1
    kind: Ingress
    metadata: {name: web, namespace: shop}
    spec:
      rules:
        - host: shop.example
          http: {paths: [{path: /api, pathType: Prefix, backend: {service: {name: api, port: {number: 80}}}}]}
  - apiVersion: v1
    kind: Service
    metadata: {name: api, namespace: shop}
    spec: {selector: {app: api}, ports: [{port: 80, targetPort: 8080}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: api, namespace: shop}
spec:
  template:
    metadata: {labels: {app: api, tier: backend}}
    spec:
      containers:
        - image: ghcr.io/acme/api:1.2
          envFrom: [{configMapRef: {name: api-config}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: api-config, namespace: shop}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api, namespace: shop}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: api}, minReplicas: 2, maxReplicas: 6}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: other}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {metadata: {labels: {app: api}}, spec: {containers: [{image: busybox}]}}}}
`;

  it('draws Ingress → workload (its Service a row, its autoscaler its replica range), workload → ConfigMap, and keeps selectors inside a namespace', () => {
    const graph = kubernetesNotation.toGraph(manifest);
    expect(arrows(graph)).toEqual(['Ingress/shop/web -> StatefulSet/shop/api [shop.example/api]', 'StatefulSet/shop/api -> ConfigMap/shop/api-config [env]']);
    // The autoscaler was a box beside the workload with a dashed "scales" arrow; it sets the replica count, said there.
    expect(graph.nodes.find((n) => n.id === 'StatefulSet/shop/api')!.rows).toEqual(['StatefulSet, 2–6 replicas, autoscaled', 'acme/api:1.2', 'Service :80→8080']);
    expect(graph.nodes.some((n) => n.id.startsWith('HorizontalPodAutoscaler/'))).toBe(false);
    expect(graph.groups.map((g) => g.id)).toEqual(['namespace:shop', 'namespace:other']);
    expect(graph.nodes.find((n) => n.id === 'CronJob/other/report')!.rows).toEqual(['CronJob', 'schedule 0 * * * *', 'busybox']);
  });

  it('reports a YAML syntax error with line and column', () => {
    const error = (() => {
      try {
        kubernetesNotation.toGraph('apiVersion: v1\nkind: Service\nmetadata:\n  name: [a, b\n  x: 1\n');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('parse_error');
    expect((error as AppError).message).toMatch(/^line 5, column \d+: /);
  });

  it('refuses YAML without Kubernetes objects', () => {
    expect(() => kubernetesNotation.toGraph('foo: bar\n')).toThrow(/expected Kubernetes objects/);
  });

  it('claims manifests and leaves compose files and Helm values alone', () => {
    expect(kubernetesNotation.detect(fixture('guestbook-all-in-one.yaml'))).toBeGreaterThan(0.9);
    expect(kubernetesNotation.detect('services:\n  db:\n    image: postgres:16\n')).toBe(0);
    expect(kubernetesNotation.detect('replicaCount: 1\nimage:\n  repository: nginx\n')).toBe(0);
  });

  it('reads 200 resources quickly', () => {
    const docs = Array.from({ length: 100 }, (_, i) => [
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app${i}}\nspec: {template: {metadata: {labels: {app: app${i}}}, spec: {containers: [{image: img${i}, env: [{name: NEXT, value: "app${(i + 1) % 100}:80"}]}]}}}`,
      `apiVersion: v1\nkind: Service\nmetadata: {name: app${i}}\nspec: {selector: {app: app${i}}, ports: [{port: 80}]}`,
    ]).flat();
    const started = performance.now();
    const graph = kubernetesNotation.toGraph(docs.join('\n---\n'));
    expect(graph.nodes).toHaveLength(100);
    expect(graph.edges).toHaveLength(100);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('kubernetesNotation references by value', () => {
  const service = (name: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector:\n    app: ${name}\n  ports:\n    - port: 80\n`;
  const deployment = (name: string, env: string, extra = '') =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  selector:\n    matchLabels:\n      app: ${name}\n  template:\n    metadata:\n      labels:\n        app: ${name}\n    spec:\n      containers:\n        - name: ${name}\n          image: example/${name}\n          env:\n${env}${extra}`;

  it('draws a call for a connection string with credentials, a broker list and a ConfigMap entry naming a Service', () => {
    const code = [
      service('rabbitmq'),
      service('kafka'),
      service('orders'),
      service('payments'),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop-config\ndata:\n  PAYMENTS_URL: http://payments.default.svc.cluster.local:8080/api\n  LOG_LEVEL: info\n`,
      deployment(
        'orders',
        '            - name: AMQP_URL\n              value: amqp://guest:guest@rabbitmq:5672/\n            - name: BROKERS\n              value: kafka:9092,kafka-1:9092\n',
        '          envFrom:\n            - configMapRef:\n                name: shop-config\n',
      ),
      deployment('rabbitmq', '            - name: X\n              value: "1"\n'),
      deployment('kafka', '            - name: X\n              value: "1"\n'),
      deployment('payments', '            - name: X\n              value: "1"\n'),
    ].join('---\n');
    const calls = arrows(kubernetesNotation.toGraph(code)).filter((a) => a.endsWith('[calls]'));
    expect(calls.sort()).toEqual([
      'Deployment//orders -> Deployment//kafka [calls]',
      'Deployment//orders -> Deployment//payments [calls]',
      'Deployment//orders -> Deployment//rabbitmq [calls]',
    ]);
  });

  it('draws no call from a workload to the Service in front of it (Kiali’s config names the kiali Service)', () => {
    const code = [service('kiali'), service('prometheus'), deployment('kiali', '            - name: SERVER_URL\n              value: http://kiali:20001\n            - name: PROMETHEUS\n              value: http://prometheus:9090\n'), deployment('prometheus', '            - name: X\n              value: "1"\n')].join('---\n');
    expect(arrows(kubernetesNotation.toGraph(code)).filter((a) => a.endsWith('[calls]'))).toEqual(['Deployment//kiali -> Deployment//prometheus [calls]']);
  });

  it('draws a NetworkPolicy of one workload as the calls it allows, and a row on that workload (Argo CD: no arrow before)', () => {
    // argoproj/argo-cd manifests/install.yaml, abridged: the binaries' addresses are built in, so only the policies
    // say who calls the repo server; the metrics port is open to any namespace, which names no workload.
    const policy = [
      'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: repo-server-network-policy\nspec:',
      '  podSelector:\n    matchLabels:\n      app: repo-server\n  ingress:',
      '  - from:\n    - podSelector:\n        matchLabels:\n          app: server\n    - podSelector:\n        matchLabels:\n          app: controller\n    ports:\n    - port: 8081',
      '  - from:\n    - namespaceSelector: {}\n    ports:\n    - port: 8084\n',
    ].join('\n');
    const quiet = '            - name: X\n              value: "1"\n';
    const graph = kubernetesNotation.toGraph([policy, deployment('repo-server', quiet), deployment('server', quiet), deployment('controller', quiet)].join('---\n'));
    expect(arrows(graph).sort()).toEqual(['Deployment//controller -> Deployment//repo-server [allowed :8081]', 'Deployment//server -> Deployment//repo-server [allowed :8081]']);
    expect(graph.nodes.map((node) => node.id)).not.toContain('NetworkPolicy//repo-server-network-policy');
    expect(graph.nodes.find((node) => node.id === 'Deployment//repo-server')!.rows).toContain('NetworkPolicy repo-server-network-policy');
  });

  it('draws a call for an address given on the command line, not for a flag\'s bare word (podinfo\'s frontend)', () => {
    // stefanprodan/podinfo deploy/bases/frontend/deployment.yaml, abridged: the backend and the cache are flags.
    const code = [
      service('backend'),
      service('cache'),
      service('check'),
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
spec:
  selector:
    matchLabels: {app: frontend}
  template:
    metadata:
      labels: {app: frontend}
    spec:
      containers:
        - name: frontend
          image: ghcr.io/stefanprodan/podinfo:6.14.1
          command:
            - ./podinfo
            - --port=9898
            - --backend-url=http://backend:9898/echo
            - --cache-server=tcp://cache:6379
          args: [--level, check]
`,
    ].join('---\n');
    const calls = arrows(kubernetesNotation.toGraph(code)).filter((a) => a.endsWith('[calls]'));
    expect(calls.sort()).toEqual(['Deployment//frontend -> Service//backend [calls]', 'Deployment//frontend -> Service//cache [calls]']);
  });
});

describe('kubernetesNotation entry point', () => {
  it('reads the AKS store quickstart with its Ingress as the entry point: said in its rows, first in the drawing, nothing routed into it', () => {
    const graph = kubernetesNotation.toGraph(fixture('aks-store-ingress-quickstart.yaml'));
    expect(graph.nodes).toHaveLength(8);
    expect(graph.edges).toHaveLength(5);
    const ingress = graph.nodes[0]!;
    expect(ingress).toMatchObject({ id: 'Ingress//store-front', rows: ['Ingress', 'entry point'] });
    expect(graph.edges.filter((e) => e.to === ingress.id)).toEqual([]);
    expect(graph.edges.find((e) => e.from === ingress.id)).toMatchObject({ to: 'Deployment//store-front', label: '/' });
  });
});

describe('kubernetesNotation warnings name their lines', () => {
  it('says where each object left out is, in a List too, and where an Ingress names a Service that is not there', () => {
    const graph = kubernetesNotation.toGraph(`apiVersion: v1
kind: List
items:
  - apiVersion: rbac.authorization.k8s.io/v1
    kind: Role
    metadata:
      name: reader
  - apiVersion: networking.k8s.io/v1
    kind: Ingress
    metadata:
      name: web
    spec:
      defaultBackend:
        service:
          name: ghost
          port:
            number: 80
---
apiVersion: v1
metadata:
  name: nameless-kind
`);
    expect(graph.warnings).toEqual([
      'line 9: Ingress web: backend service "ghost" is not in the input',
      'line 5: skipped 1 Role object (not drawn)',
      'line 19: skipped 1 document without kind or metadata.name',
    ]);
  });
});

describe('workloads drawn as tables keep their icon (Bank of Anthos)', () => {
  it('stamps each table-drawn workload\'s icon small in its header, left of its title, as the icon boxes beside it carry theirs', async () => {
    const graph = resolveIconHints(foldForReading(kubernetesNotation.toGraph(fixture('bank-of-anthos-manifests.yaml')), 'kubernetes'));
    const { elements } = stampIcons(intakeScene((await drawGraph(graph, 'kubernetes')).elements).elements, { autoIcons: false });
    const byId = new Map(elements.map((e) => [e.id, e]));
    const headers = elements.filter((e) => e.type === 'text' && e.id.endsWith('-header'));
    // frontend, ledgerwriter, … and the two databases: eight tables, loadgenerator an icon box.
    expect(headers.length).toBe(8);
    for (const header of headers) {
      const table = byId.get(header.id.replace(/-header$/, ''))!;
      const rule = byId.get(header.id.replace(/-header$/, '-rule'))!;
      const icon = (table as { icon?: { x: number; y: number; width: number; height: number } }).icon;
      expect(icon, header.text as string).toBeDefined();
      // In the header band, left of the title, overlapping neither it nor the table's edge.
      expect(icon!.y).toBeGreaterThan(table.y);
      expect(icon!.y + icon!.height).toBeLessThan(rule.y);
      expect(icon!.x).toBeGreaterThan(table.x);
      expect(icon!.x + icon!.width).toBeLessThan(header.x);
      expect(icon!.width).toBeLessThanOrEqual(24);
    }
    // Stamping a stamped scene moves nothing (an edit or a read-back stamps again).
    expect(stampIcons(elements, { autoIcons: false }).elements).toEqual(elements);
  });
});

describe('kubernetesNotation Gateway API', () => {
  const app = ['apiVersion: v1', 'kind: Service', 'metadata: {name: httpbin}', 'spec: {selector: {app: httpbin}, ports: [{port: 80}]}', '---', 'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: httpbin}', 'spec:', '  selector: {matchLabels: {app: httpbin}}', '  template:', '    metadata: {labels: {app: httpbin}}', '    spec: {containers: [{name: httpbin, image: docker.io/kennethreitz/httpbin}]}'];
  const route = ['apiVersion: gateway.networking.k8s.io/v1', 'kind: HTTPRoute', 'metadata: {name: httpbin}', 'spec:', '  parentRefs: [{name: eg}]', '  hostnames: ["www.example.com"]', '  rules:', '    - backendRefs: [{group: "", kind: Service, name: httpbin, port: 80}]', '      matches: [{path: {type: PathPrefix, value: /}}]'];

  it('draws the Gateway as the entry point and its route as its arrow to the Service, hosts and paths on it', () => {
    // envoyproxy/gateway examples/kubernetes/quickstart.yaml (Apache-2.0), abridged: Gateway and HTTPRoute were
    // skipped, leaving httpbin with no way in.
    const gateway = ['apiVersion: gateway.networking.k8s.io/v1', 'kind: Gateway', 'metadata: {name: eg}', 'spec:', '  gatewayClassName: eg', '  listeners: [{name: http, protocol: HTTP, port: 8080}]'];
    const graph = kubernetesNotation.toGraph([...gateway, '---', ...app, '---', ...route].join('\n'));
    expect(graph.nodes[0]).toMatchObject({ id: 'Gateway//eg', kind: 'gateway', rows: ['Gateway', 'entry point', 'HTTP :8080'] });
    expect(graph.nodes.map((n) => n.id)).not.toContain('HTTPRoute//httpbin');
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: 'Gateway//eg', to: 'Deployment//httpbin', label: 'www.example.com/' }));
  });

  it('finds a Gateway written in `default` for a route written without a namespace, which is in default too', () => {
    // envoyproxy/gateway examples/kubernetes/merged-gateways.yaml: three routes stood as entry points beside their
    // own Gateways, unconnected.
    const gateway = ['apiVersion: gateway.networking.k8s.io/v1', 'kind: Gateway', 'metadata: {name: eg, namespace: default}', 'spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 8080}]}'];
    const graph = kubernetesNotation.toGraph([...gateway, '---', ...app, '---', ...route].join('\n'));
    expect(graph.nodes.map((n) => n.id)).not.toContain('HTTPRoute//httpbin');
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: 'Gateway//eg', to: 'Deployment//httpbin' }));
  });

  it('draws what is written in `default` with what is written without a namespace, in no box (Envoy Gateway merged-gateways)', () => {
    // The three Gateways, written in default, stood in a "default" box apart from the backend they route to, written
    // without a namespace and so applied to default too.
    const graph = kubernetesNotation.toGraph(fixture('envoy-gateway-merged-gateways.yaml'));
    expect(graph.groups).toEqual([]);
    expect(graph.nodes.filter((n) => n.kind === 'gateway').map((n) => n.parent)).toEqual([undefined, undefined, undefined]);
    expect(arrows(graph).filter((a) => a.startsWith('Gateway'))).toEqual([
      'Gateway//merged-eg-1 -> Deployment//merged-backend [www.merged1.com/example]',
      'Gateway//merged-eg-2 -> Deployment//merged-backend [www.merged2.com/example2]',
      'Gateway//merged-eg-3 -> Deployment//merged-backend [www.merged3.com/example3]',
    ]);
  });

  it('draws a route whose Gateway is defined elsewhere as the entry point itself', () => {
    const graph = kubernetesNotation.toGraph([...app, '---', ...route].join('\n'));
    expect(graph.nodes[0]).toMatchObject({ id: 'HTTPRoute//httpbin', rows: ['HTTPRoute', 'entry point', 'www.example.com'] });
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: 'HTTPRoute//httpbin', to: 'Deployment//httpbin', label: 'www.example.com/' }));
  });
});
