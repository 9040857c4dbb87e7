/** Issue 27's prototype: Graphviz's placement, every edge between two nodes drawn at right angles by our router. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GraphIR } from '../graph/types.js';
import { composeNotation } from '../notations/compose/index.js';
import { helmNotation } from '../notations/helm/index.js';
import { kubernetesNotation } from '../notations/kubernetes/index.js';
import { mermaidNotation } from '../notations/mermaid/index.js';
import { resolveIconHints } from '../notations/icon-hints.js';
import { plantumlNotation } from '../notations/plantuml/index.js';
import { FOLD_NODES, foldForReading } from '../graph/fold.js';
import { sqlNotation } from '../notations/sql/index.js';
import { terraformNotation } from '../notations/terraform/index.js';
import { checkScene, sharedRuns } from '../quality/check.js';
import { graphToScene } from '../scene/from-graph.js';
import { codeToScene } from '../notations/index.js';
import { crosses } from './detours.js';
import { MIXED_TRUNK, SPACING } from './drawing-rules.js';
import { layoutGraph } from './elk.js';
import { layoutEngineFor } from './engine.js';
import { layoutGraphvizOrthogonal } from './graphviz-orthogonal.js';
import { layoutWithGraphviz, placeWithGraphviz } from './graphviz.js';
import type { Box, Point } from './types.js';

const graph: GraphIR = {
  layout: 'layered',
  direction: 'DOWN',
  nodes: ['web', 'api', 'db', 'cache'].map((id) => ({ id, label: id, kind: 'service' as const })),
  edges: [
    { id: 'e1', from: 'web', to: 'api', label: 'REST' },
    { id: 'e2', from: 'api', to: 'db' },
    { id: 'e3', from: 'api', to: 'cache' },
    { id: 'e4', from: 'web', to: 'db' },
  ],
  groups: [],
  warnings: [],
};

const onOutline = (point: Point, box: Box) =>
  point.x >= box.x - 1 && point.x <= box.x + box.width + 1 && point.y >= box.y - 1 && point.y <= box.y + box.height + 1 &&
  (Math.abs(point.x - box.x) <= 1 || Math.abs(point.x - box.x - box.width) <= 1 || Math.abs(point.y - box.y) <= 1 || Math.abs(point.y - box.y - box.height) <= 1);
/** The box a right-angle leg from a to b lies in (no width or no height). */
const legBox = (a: Point, b: Point): Box => ({ x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) });
/** A PlantUML diagram of these lines, between its @startuml and @enduml. */
const plantumlGraph = (lines: readonly string[]) => plantumlNotation.toGraph(['@startuml', ...lines, '@enduml'].join('\n'));

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('Graphviz placement with orthogonal routes', () => {
  it('keeps Graphviz’s node positions and draws every edge in right angles from outline to outline', async () => {
    const [placed, laid] = [await layoutWithGraphviz(graph), await layoutGraphvizOrthogonal(graph)];
    expect(laid.nodes.map(({ id, x, y }) => ({ id, x, y }))).toEqual(placed.nodes.map(({ id, x, y }) => ({ id, x, y })));
    expect(laid.edges).toHaveLength(4);
    for (const edge of laid.edges) {
      expect(edge.curved).toBeFalsy();
      edge.points.slice(1).forEach((point, i) => expect(point.x === edge.points[i]!.x || point.y === edge.points[i]!.y).toBe(true));
      const { from, to } = graph.edges[edge.index]!;
      expect(onOutline(edge.points[0]!, laid.nodes.find((node) => node.id === from)!)).toBe(true);
      expect(onOutline(edge.points.at(-1)!, laid.nodes.find((node) => node.id === to)!)).toBe(true);
    }
  });

  it('draws an edge to a container at right angles to its border too, as ELK does (Terraform VPC module)', async () => {
    // Graphviz's curves into the subnets were kept: five of them ran along routes drawn at right angles.
    const graph = await terraformNotation.toGraph(readFileSync(new URL('../../../test/fixtures/terraform/tf-aws-vpc-root.main.tf', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    const groups = new Map(laid.groups.map((group) => [group.id, group]));
    const toContainers = laid.edges.filter((edge) => groups.has(graph.edges[edge.index]!.to));
    expect(toContainers.length).toBeGreaterThan(10);
    for (const edge of toContainers) {
      expect(edge.curved).toBeFalsy();
      expect(onOutline(edge.points.at(-1)!, groups.get(graph.edges[edge.index]!.to)!)).toBe(true);
    }
    const scene = graphToScene(graph, laid);
    expect(checkScene(scene.elements, scene.parents).violations.filter((v) => v.includes('run together'))).toEqual([]);
  });

  it('moves a label beside its new route, off every node', async () => {
    const laid = await layoutGraphvizOrthogonal(graph);
    const label = laid.edges.flatMap((edge) => edge.labels).find((l) => l.text === 'REST')!;
    expect(label).toBeDefined();
    for (const node of laid.nodes) expect(overlaps(label, node)).toBe(false);
  });

  it('keeps the foreign keys of one table to different tables on lines of their own (TPC-C stock → warehouse, item)', async () => {
    // Labelled before the legs were moved apart, the cardinalities hemmed in both legs at the table's side: one line.
    const graph = await sqlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/sql/postgres-tpcc-ddl.sql', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations.filter((v) => v.includes('run together'))).toEqual([]);
  });

  it('crosses no label with a line, its own route’s included, on the small schemas of the corpus (sakila, pagila, TPC-C, SEATS)', async () => {
    // Labels were set clear of the other routes only, and onto a line where no place beside their own leg was clear:
    // 2, 1, 2, 2 and 1 labels crossed, where ELK crossed none; SEATS' f_arrive_ap_id, among four sources' keys into
    // airport, found a clear place only at a finer step along its legs.
    for (const file of ['mysql-sakila-schema.sql', 'postgres-pagila-schema.sql', 'postgres-tpcc-ddl.sql', 'postgres-sakila-schema.sql', 'mysql-seats-ddl.sql']) {
      const graph = await sqlNotation.toGraph(readFileSync(new URL(`../../../test/fixtures/sql/${file}`, import.meta.url), 'utf8'));
      const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
      expect(checkScene(scene.elements, scene.parents).textCrossings, file).toBe(0);
    }
  });

  it('draws two foreign keys named alike into one table each on its own line, their labels apart (Chinook’s track_id)', async () => {
    // The shape of Chinook (github.com/lerocha/chinook-database, MIT): invoice lines and playlist entries both refer
    // to a track by track_id; a track to its album, genre and media type. The two track_id keys shared one line into
    // track, their names side by side on it, and genre's "0..1" touched its "genre_id".
    const graph = await sqlNotation.toGraph(`
      CREATE TABLE artist (artist_id int PRIMARY KEY, name varchar(120));
      CREATE TABLE album (album_id int PRIMARY KEY, title varchar(160) NOT NULL, artist_id int NOT NULL REFERENCES artist);
      CREATE TABLE genre (genre_id int PRIMARY KEY, name varchar(120));
      CREATE TABLE media_type (media_type_id int PRIMARY KEY, name varchar(120));
      CREATE TABLE track (track_id int PRIMARY KEY, name varchar(200) NOT NULL, album_id int REFERENCES album, media_type_id int NOT NULL REFERENCES media_type, genre_id int REFERENCES genre, composer varchar(220), milliseconds int NOT NULL, bytes int, unit_price numeric(10,2) NOT NULL);
      CREATE TABLE playlist (playlist_id int PRIMARY KEY, name varchar(120));
      CREATE TABLE playlist_track (playlist_id int NOT NULL REFERENCES playlist, track_id int NOT NULL REFERENCES track, PRIMARY KEY (playlist_id, track_id));
      CREATE TABLE customer (customer_id int PRIMARY KEY, first_name varchar(40) NOT NULL, last_name varchar(20) NOT NULL, company varchar(80), address varchar(70), city varchar(40), country varchar(40), email varchar(60) NOT NULL);
      CREATE TABLE invoice (invoice_id int PRIMARY KEY, customer_id int NOT NULL REFERENCES customer, invoice_date timestamp NOT NULL, billing_address varchar(70), billing_city varchar(40), total numeric(10,2) NOT NULL);
      CREATE TABLE invoice_line (invoice_line_id int PRIMARY KEY, invoice_id int NOT NULL REFERENCES invoice, track_id int NOT NULL REFERENCES track, unit_price numeric(10,2) NOT NULL, quantity int NOT NULL);
    `);
    const laid = await layoutGraphvizOrthogonal(graph);
    const [fromLines, fromPlaylists] = ['invoice_line', 'playlist_track'].map((from) => laid.edges.find((edge) => graph.edges[edge.index]!.from === from && graph.edges[edge.index]!.to === 'track')!.points);
    const legs = (points: readonly Point[]) => points.slice(1).map((point, k) => legBox(points[k]!, point));
    const oneLine = (a: Box, b: Box) =>
      (a.width === 0 && b.width === 0 && Math.abs(a.x - b.x) < 1.5 && a.y < b.y + b.height && b.y < a.y + a.height) ||
      (a.height === 0 && b.height === 0 && Math.abs(a.y - b.y) < 1.5 && a.x < b.x + b.width && b.x < a.x + a.width);
    for (const a of legs(fromLines!)) for (const b of legs(fromPlaylists!)) expect(oneLine(a, b), 'track_id keys on one line').toBe(false);
    const labels = laid.edges.flatMap((edge) => edge.labels);
    const gap = (a: Box, b: Box) => Math.max(a.x - b.x - b.width, b.x - a.x - a.width, a.y - b.y - b.height, b.y - a.y - a.height);
    for (const [i, a] of labels.entries()) for (const b of labels.slice(i + 1)) expect(gap(a, b), `${a.text} and ${b.text}`).toBeGreaterThanOrEqual(3);
  });

  it('draws each Mermaid ER relation on its own line, though all are labelled alike ("1:N" from one table)', async () => {
    // The shape of a shop schema whose author labels every relation "1:N": users' three relations left users down one
    // trunk that forked to addresses, orders and reviews, read as one relation with three ends.
    const graph = await mermaidNotation.toGraph(`erDiagram
      USERS ||--o{ ORDERS : "1:N"
      USERS ||--o{ REVIEWS : "1:N"
      USERS ||--o{ ADDRESSES : "1:N"
      PRODUCTS ||--o{ REVIEWS : "1:N"
      PRODUCTS ||--o{ ORDER_ITEMS : "1:N"
      ORDERS ||--o{ ORDER_ITEMS : "1:N"
      CATEGORIES ||--o{ PRODUCTS : "1:N"
      USERS { int id PK
        string email }
      ORDERS { int id PK
        int user_id FK }
      REVIEWS { int id PK
        int user_id FK
        int product_id FK }
      PRODUCTS { int id PK
        int category_id FK }
      ORDER_ITEMS { int order_id FK
        int product_id FK }
      ADDRESSES { int id PK
        int user_id FK }
      CATEGORIES { int id PK }`);
    const laid = await layoutGraphvizOrthogonal(graph);
    const runs = sharedRuns(laid.edges.map((edge) => [...edge.points])).filter(({ length }) => length > MIXED_TRUNK);
    expect(runs.map(({ a, b }) => [graph.edges[laid.edges[a]!.index]!, graph.edges[laid.edges[b]!.index]!].map((edge) => `${edge.from}-${edge.to}`).join(' / '))).toEqual([]);
  });

  it('parts keys that reach one side of a table without crossing them, the legs across the flow parted first (MySQL sakila’s address)', async () => {
    // Staff's and store's address_id keys reach address's top at its middle: their end legs, parted first, were set
    // in an order that crossed staff's route over store's once the legs across the flow were parted.
    const graph = await sqlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/sql/mysql-sakila-schema.sql', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    const [staff, store] = ['staff', 'store'].map((from) => laid.edges.find((edge) => graph.edges[edge.index]!.from === from && graph.edges[edge.index]!.to === 'address')!.points);
    const legs = (points: readonly Point[]) => points.slice(1).map((point, k) => legBox(points[k]!, point));
    const crossing = (a: Box, b: Box) => (a.width === 0) !== (b.width === 0) && overlaps({ ...a, width: a.width || 0.5, height: a.height || 0.5 }, { ...b, width: b.width || 0.5, height: b.height || 0.5 });
    for (const a of legs(staff!)) for (const b of legs(store!)) expect(crossing(a, b), 'address_id keys cross').toBe(false);
  });

  it('ends a key on a leg longer than its crow’s foot or bar, and sets a small schema’s parts in shared ranks (MySQL petclinic)', async () => {
    // The router turned at types' and owners' own margin lines: pets' keys ran up beside them and stepped in 7 px, the
    // bar on the turn. Packed in rows, vets and specialties under pets took 1.18 × Graphviz's canvas.
    const graph = await sqlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/sql/mysql-petclinic-schema.sql', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    const leg = (p: Point, q: Point) => Math.abs(q.x - p.x) + Math.abs(q.y - p.y);
    const short = laid.edges.filter((edge) => edge.points.length > 2 && Math.min(leg(edge.points[0]!, edge.points[1]!), leg(edge.points.at(-2)!, edge.points.at(-1)!)) < 24);
    expect(short.map((edge) => graph.edges[edge.index]!.label)).toEqual([]);
    const plain = await placeWithGraphviz(graph);
    expect(laid.height).toBeLessThanOrEqual(plain.height * 1.1);
  });

  it('sets a label a depth further out only within the tables’ extent (SQLite sakila: manager_staff_id 120 px left of every table)', async () => {
    // Set there, it widened the drawing from 1,117 to 1,236 px: text under 11 px at a README's width.
    const graph = await sqlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/sql/sqlite-sakila-schema.sql', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations).toEqual([]);
  });

  it('turns a drawing too wide for 11 px text at README width when its direction is free, as ELK’s layout does', async () => {
    // Graphviz's first layout of the vaultwarden chart is too wide for its text to stay readable at 880 px.
    const code = readFileSync(new URL('../../../test/fixtures/helm/bjw-s-vaultwarden.values.yaml', import.meta.url), 'utf8');
    const graph = await helmNotation.toGraph(code);
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations).toEqual([]);
  });

  it('gives the legs across a rank gap tracks of their own (sentry: 57 services into Redis, Kafka and PostgreSQL)', async () => {
    // On the router's few grid lines in the gap, 1,135 pairs of arrows ran together, more than moving them apart in place could part.
    const graph = await composeNotation.toGraph(readFileSync(new URL('../../../test/fixtures/compose/sentry-self-hosted.docker-compose.yml', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations.filter((v) => v.includes('run together'))).toEqual([]);
  });

  it('keeps a branch’s `yes` off the trunk of the unlabelled arrow into the same decision (Cluster API activity)', async () => {
    // The branch label is a start label, which the checker reads as the arrow's meaning: the two shared one leg out of the hexagon's tip.
    const code = readFileSync(new URL('../../../test/fixtures/plantuml/capi-machinedeployment-activity.plantuml', import.meta.url), 'utf8');
    const graph = await plantumlNotation.toGraph(code);
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations.filter((v) => v.includes('mean different things'))).toEqual([]);
  });

  it('moves a label clear of the container titles as well as the nodes (C4 big bank deployment)', async () => {
    // Labels beside routes that cross into a deployment node lay on its title: three overlaps.
    const code = readFileSync(new URL('../../../test/fixtures/plantuml/c4-bigbank-deployment.puml', import.meta.url), 'utf8');
    const graph = await plantumlNotation.toGraph(code);
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations.filter((v) => v.includes('overlap'))).toEqual([]);
  });

  it('routes no edge across a container’s title where it can go round (Terraform two-tier, Mermaid composite pod groups)', async () => {
    // The load balancer’s edge into the instance went in across "default (aws_subnet)", which sits close above it.
    const cases = [
      [terraformNotation, '../../../test/fixtures/terraform/tf-provider-aws-two-tier.main.tf', 'terraform'],
      [mermaidNotation, '../../../test/fixtures/mermaid/k8s-composite-podgroup-flowchart.mmd', 'mermaid'],
    ] as const;
    for (const [notation, file, id] of cases) {
      const graph = foldForReading(await notation.toGraph(readFileSync(new URL(file, import.meta.url), 'utf8')), id);
      const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
      expect(checkScene(scene.elements, scene.parents).textCrossings, file).toBe(0);
    }
  });

  it('caps the rows of a schema too wide for a README column, as ELK’s narrower layerings do (MySQL sakila)', async () => {
    // Graphviz ranked five tables in one row: 1,364 px wide, text under 11 px at 880.
    const graph = await sqlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/sql/mysql-sakila-schema.sql', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations).toEqual([]);
  });

  it('packs loose nodes in rows, as ELK does, not one long row (robot-shop’s twelve Helm services)', async () => {
    // Graphviz ranks nodes without edges side by side: a strip of 15.5:1.
    const graph = await helmNotation.toGraph(readFileSync(new URL('../../../test/fixtures/helm/robot-shop.values.yaml', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    expect(laid.width / laid.height).toBeLessThan(3);
  });

  it('sets loose nodes of unequal heights in one even grid, not packed one by one into ragged rows (robot-shop)', async () => {
    // Packed one by one, tallest first: four cylinders in a row with a workload stacked under the last, then rows of five and two.
    const graph = resolveIconHints(await helmNotation.toGraph(readFileSync(new URL('../../../test/fixtures/helm/robot-shop.values.yaml', import.meta.url), 'utf8')));
    const laid = await layoutGraphvizOrthogonal(graph);
    const counts = rowCounts(laid.nodes);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(laid.width).toBeGreaterThanOrEqual(laid.height * 0.9);
  });

  it('sets loose workloads in one row where it fits a README column, not a square grid (temporal’s three, guestbook’s three)', async () => {
    // Set in a square grid, two and one: temporal 434 × 434 px, 1.45 times Graphviz's canvas.
    for (const [notation, file] of [
      [helmNotation, 'helm/temporal.values.yaml'],
      [kubernetesNotation, 'kubernetes/guestbook-all-in-one.yaml'],
    ] as const) {
      const laid = await layoutGraphvizOrthogonal(await notation.toGraph(readFileSync(new URL(`../../../test/fixtures/${file}`, import.meta.url), 'utf8')));
      expect(rowCounts(laid.nodes), file).toEqual([3]);
    }
  });

  it('sets loose workloads that miss one row in even rows of a landscape block (Loki’s six, and one more)', async () => {
    // A square grid of three columns: rows of two, two and three, 1.2:1, 1.13 times Graphviz's canvas.
    // Its six workloads without the write and read paths the Helm reader draws from Loki's documentation, and a
    // seventh, as they were drawn before stop 46: its `loki` block a workload of its own, not the image row of each.
    const drawn = resolveIconHints(await helmNotation.toGraph(readFileSync(new URL('../../../test/fixtures/helm/grafana-loki-distributed.values.yaml', import.meta.url), 'utf8')));
    const six = drawn.nodes.map((node) => ({ ...node, rows: node.rows?.filter((row) => row !== 'loki') }));
    const graph = { ...drawn, nodes: [{ ...six[0]!, id: 'loki', label: 'loki', rows: ['workload', 'loki'] }, ...six], edges: [] };
    const laid = await layoutGraphvizOrthogonal(graph);
    // Even rows in the order written, the first (the longer) on top: Graphviz stacked the row of four under the three.
    expect(rowCounts(laid.nodes)).toEqual([4, 3]);
    expect(laid.width / laid.height).toBeGreaterThan(1.6);
  });

  it('packs a large schema’s unrelated tables one by one round the rest, not as one rigid grid (Camunda’s 43 tables)', async () => {
    // Its 27 tables joined to nothing set in one grid beside the 16 joined ones: 3,442 px wide, where packed one by one they fill a skyline 2,018 px wide.
    const graph = await sqlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/sql/camunda-postgres-engine.sql', import.meta.url), 'utf8'));
    expect((await layoutGraphvizOrthogonal(graph)).width).toBeLessThan(2_500);
  });

  it('packs a part under another a layer gap below its lowest box, not under Graphviz’s own routes (a microservices flowchart)', async () => {
    // Built by hand in the shape of a microservices flowchart (pulse-microservices' weekly diagram): services fan out to
    // a cache and a metrics server, and a delivery pipeline is joined to none of them. Graphviz's bounding box held its
    // splines under the lowest box, and the pipeline was packed under them: 237 px below it here, 466 px there.
    const graph = await mermaidNotation.toGraph(
      [
        'flowchart LR',
        'subgraph edge["Edge"]',
        '  Web["Storefront"] -->|HTTPS| Gw["Gateway"]',
        'end',
        'subgraph svc["Services"]',
        '  direction TB',
        '  Cart & Orders & Pay["Payments"] & Stock',
        'end',
        'subgraph data["Data"]',
        '  direction TB',
        '  OrdersDb[("orders")] & StockDb[("stock")] & Cache[("cache")]',
        'end',
        'subgraph ops["Monitoring"]',
        '  Prom["Prometheus"] --> Graf["Grafana"]',
        'end',
        'subgraph ci["Delivery"]',
        '  Actions["CI"] -. push .-> Registry',
        'end',
        'Gw -->|cart| Cart',
        'Gw -->|orders| Orders',
        'Gw -->|pay| Pay',
        'Gw -->|stock| Stock',
        'Orders -->|SQL| OrdersDb',
        'Stock -->|SQL| StockDb',
        'Cart -->|sessions| Cache',
        'Orders -->|reads| Cache',
        'Pay -->|tokens| Cache',
        'Cart -. "check stock" .-> Stock',
        'Orders -. charge .-> Pay',
        ...['Gw', 'Cart', 'Orders', 'Pay', 'Stock'].map((id) => `${id} -. metrics .-> Prom`),
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const pipeline = laid.groups.find((group) => group.id === 'ci')!;
    const rest = [...laid.nodes.filter((node) => !['Actions', 'Registry'].includes(node.id)), ...laid.groups.filter((group) => group.id !== 'ci')];
    const lowest = Math.max(...rest.map((box) => box.y + box.height));
    expect(pipeline.y).toBeGreaterThan(lowest);
    expect(pipeline.y - lowest).toBeLessThanOrEqual(SPACING.betweenLayers + 24);
  });

  it('sets the cardinalities of a table’s foreign keys to itself beside their loops, off the table (Camunda)', async () => {
    // Graphviz put the start and end labels of the self loops over the table: twelve on ACT_RU_EXECUTION, ACT_RU_INCIDENT
    // and ACT_RU_CASE_EXECUTION, and four pairs on each other.
    const graph = await sqlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/sql/camunda-postgres-engine.sql', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    const violations = checkScene(scene.elements, scene.parents).violations;
    expect(violations.filter((v) => /^text ".*" overlaps shape/.test(v))).toEqual([]);
    expect(violations.filter((v) => /^texts ".*(EXECUTION|INCIDENT)--/.test(v))).toEqual([]);
  });

  it('slides the ends of keys into a table off its self loops’ ends, no heads crowding (Camunda, every column drawn)', async () => {
    // The task's two keys into the executions, parted by their cardinalities, slid in among the three loops' ends on
    // the table's top: heads 2.4 px apart.
    const graph = await sqlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/sql/camunda-postgres-engine.sql', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations.filter((v) => v.startsWith('arrowheads at'))).toEqual([]);
  });

  it('ends an edge from a member to its own container on the container’s border, clear of other routes (a memory service)', async () => {
    // Built by hand in the shape of a memory service's flowchart: `query --> memory` from inside the subgraph was
    // drawn by Graphviz's curve to the subgraph's first member, an arrow back up into "store".
    const graph = await mermaidNotation.toGraph(
      ['flowchart TD', 'subgraph memory[Memory Service]', 'store --> index', 'index --> query', 'end', 'query --> memory', 'user --> memory', 'memory --> db[(DB)]'].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const memory = laid.groups.find((group) => group.id === 'memory')!;
    const query = laid.nodes.find((node) => node.id === 'query')!;
    const edge = laid.edges.find((candidate) => graph.edges[candidate.index]!.from === 'query')!;
    expect(edge.curved).toBeFalsy();
    expect(edge.points).toHaveLength(2);
    expect(onOutline(edge.points[0]!, query)).toBe(true);
    expect(onOutline(edge.points[1]!, memory)).toBe(true);
    expect(Math.hypot(edge.points[1]!.x - edge.points[0]!.x, edge.points[1]!.y - edge.points[0]!.y)).toBeGreaterThanOrEqual(20);
    const others = laid.edges.filter((other) => other !== edge).flatMap((other) => other.points.slice(1).map((point, i) => legBox(other.points[i]!, point)));
    expect(others.filter((leg) => overlaps(legBox(edge.points[0]!, edge.points[1]!), { x: leg.x - 1, y: leg.y - 1, width: leg.width + 2, height: leg.height + 2 }))).toEqual([]);
  });

  it('never runs a forward edge back against the flow where it joins a fan-in (a pub/sub flowchart’s gateway)', async () => {
    // Built by hand in the shape of a pub/sub flowchart (sky0621/try-mermaidjs): four services call one gateway, all
    // labelled alike. The edge straight across stepped round the others' trunk, and spreading the gap's tracks put its
    // second leg before its first, so it ran back left and drew a loop beside the gateway.
    const graph = await mermaidNotation.toGraph(
      [
        'graph LR',
        'hub(Hub) --> sub(Subscriber)',
        ...['s1', 's2', 's3', 's4'].flatMap((s) => [`sub -- call --> ${s}(${s})`, `${s} -- call --> gw(Gateway)`]),
        'gw --> out(Out)',
        'db1((Store)) --> hub',
        'db2((Store)) --> sub',
        'db3((Store)) --> s2',
        'db4((Store)) --> gw',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const backwards = laid.edges.filter((edge) => edge.points.some((point, i) => i > 0 && point.x < edge.points[i - 1]!.x - 0.5));
    expect(backwards.map((edge) => graph.edges[edge.index]!.id)).toEqual([]);
  });

  it('sets an activity’s notes beside their steps, the steps down one column (Cluster API’s cluster state transitions)', async () => {
    // Ranked as steps, the notes were sources of the flow, in the first rank with the start; their flat edges then
    // pulled every step into that rank: one row 1,460 px wide, each note's leader running back over the others.
    const code = readFileSync(new URL('../../../test/fixtures/conformance/plantuml/docs--proposals--images--cluster-spec-crds--figure2.puml', import.meta.url), 'utf8');
    const graph = await plantumlNotation.toGraph(code);
    const laid = await layoutEngineFor(graph, 'plantuml')(graph);
    const box = (id: string) => laid.nodes.find((node) => node.id === id)!;
    const steps = graph.nodes.filter((node) => node.kind !== 'note').map((node) => box(node.id));
    const centres = steps.map((step) => step.x + step.width / 2);
    expect(Math.max(...centres) - Math.min(...centres)).toBeLessThan(2);
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.y).toBeGreaterThan(steps[i - 1]!.y + steps[i - 1]!.height);
    const leaders = graph.edges.filter((edge) => graph.nodes.find((node) => node.id === edge.from)?.kind === 'note');
    expect(leaders).toHaveLength(3);
    for (const leader of leaders) {
      const [note, step] = [box(leader.from), box(leader.to)];
      expect(note.x).toBeGreaterThan(step.x + step.width);
      expect(Math.abs(note.y + note.height / 2 - (step.y + step.height / 2))).toBeLessThan(step.height / 2);
    }
  });

  it('draws a note’s leader straight to its state, not along the border of the composite between them (an inventory reservation)', async () => {
    // Built by hand in the shape of an order service's state charts: the note is declared outside the composite state
    // its state is in; routed at right angles, its leader ran down the composite's border to reach the note.
    const graph = await mermaidNotation.toGraph(
      [
        'stateDiagram-v2',
        '[*] --> Requested: after payment',
        'state Inventory {',
        'Requested --> Checking: query',
        'Checking --> Reserving: all_in_stock',
        'Checking --> Failed: none_available',
        'Reserving --> Fork',
        'Fork --> Lock',
        'Fork --> Record',
        'Fork --> Update',
        'Lock --> Join',
        'Record --> Join',
        'Update --> Join',
        'Join --> Reserved: reservation_success',
        '}',
        'note right of Fork',
        'Parallel reservation steps (lock, record, stock update)',
        'end note',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const note = laid.nodes.find((node) => graph.nodes.find((candidate) => candidate.id === node.id)?.kind === 'note')!;
    const fork = laid.nodes.find((node) => node.id === 'Fork')!;
    const leader = laid.edges.find((edge) => [graph.edges[edge.index]!.from, graph.edges[edge.index]!.to].includes(note.id))!;
    expect(leader.points).toHaveLength(2);
    const [p, q] = leader.points[0]!.x < leader.points[1]!.x ? [leader.points[0]!, leader.points[1]!] : [leader.points[1]!, leader.points[0]!];
    expect(onOutline(p, fork)).toBe(true);
    expect(onOutline(q, note)).toBe(true);
    // Its labels are kept off it.
    const labels = laid.edges.flatMap((edge) => edge.labels);
    expect(labels.filter((label) => crosses(p, q, label))).toEqual([]);
  });

  it('reaches states further down the flow on their tops, not on the sides that face each other (an order’s payment outcomes)', async () => {
    // Built by hand in the shape of an order lifecycle: ended on a side to save a bend, payment_success and
    // payment_failed ran down side by side a few px apart and turned away into Payment_Success's and Payment_Failed's
    // facing sides.
    const graph = await mermaidNotation.toGraph(
      [
        'stateDiagram-v2',
        '[*] --> Validated',
        'Validated --> Payment_Pending: request_payment()',
        'Payment_Pending --> Payment_Success: payment_success',
        'Payment_Pending --> Payment_Failed: payment_failed',
        'Payment_Success --> Fork_PostPayment',
        'Payment_Failed --> Cancelled: cancel_order()',
        'Validated --> Cancelled: validation_failed',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const node = (id: string) => laid.nodes.find((candidate) => candidate.id === id)!;
    for (const target of ['Payment_Success', 'Payment_Failed']) {
      const edge = laid.edges.find((candidate) => graph.edges[candidate.index]!.from === 'Payment_Pending' && graph.edges[candidate.index]!.to === target)!;
      expect(edge.points.at(-1)!.y).toBeCloseTo(node(target).y, 0);
    }
  });

  it('draws a link between two states one under the other as a straight line, not stepped across by their centres (a hook’s lifecycle)', async () => {
    // Built by hand in the shape of a hook lifecycle: Executed, Receipted and Broadcasted are of unequal widths, their
    // centres a few px apart, and each link stepped sideways 9 to 22 px on its way down.
    const graph = await mermaidNotation.toGraph(
      [
        'stateDiagram-v2',
        '[*] --> Registered',
        'Registered --> Listening',
        'Listening --> Matched: condition true',
        'Listening --> Idle: no match',
        'Matched --> Evaluating',
        'Evaluating --> Previewed: client advisory',
        'Evaluating --> Executed: server effect',
        'Evaluating --> Refused: blocked/invalid',
        'Previewed --> Queued',
        'Queued --> Synced',
        'Executed --> Receipted',
        'Receipted --> Broadcasted',
        'Refused --> Quarantined',
        'Broadcasted --> Idle',
        'Quarantined --> [*]',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    for (const [from, to] of [['Executed', 'Receipted'], ['Receipted', 'Broadcasted'], ['Queued', 'Synced']]) {
      const edge = laid.edges.find((candidate) => graph.edges[candidate.index]!.from === from && graph.edges[candidate.index]!.to === to)!;
      expect(edge.points, `${from} → ${to}`).toHaveLength(2);
      expect(edge.points[0]!.x).toBe(edge.points[1]!.x);
    }
  });

  it('draws the relations of two classes to the class below them as straight lines side by side, not a knot over its middle (java-design-patterns’ promise)', async () => {
    // The shape of java-design-patterns' promise (github.com/iluwatar/java-design-patterns, MIT): two actions each own
    // a Promise and refer to one as src. Routed from side middle to side middle, the four edges met in two points over
    // Promise's top and crossed there.
    const graph = await mermaidNotation.toGraph(
      [
        'classDiagram',
        'class ConsumeAction {\n  -Consumer action\n  -Promise dest\n  -Promise src\n  +run()\n}',
        'class TransformAction {\n  -Promise dest\n  -Function func\n  -Promise src\n  +run()\n}',
        'class Promise {\n  -Consumer exceptionHandler\n  -Runnable fulfillmentAction\n  +fulfill(value)\n  +thenApply(func) Promise\n}',
        'class PromiseSupport {\n  -int state\n  +get() T\n}',
        'TransformAction *-- Promise',
        'TransformAction --> "src" Promise',
        'ConsumeAction *-- Promise',
        'ConsumeAction --> "src" Promise',
        'Promise --|> PromiseSupport',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const intoPromise = laid.edges.filter((edge) => graph.edges[edge.index]!.to === 'Promise' || graph.edges[edge.index]!.from === 'Promise');
    expect(intoPromise).toHaveLength(5);
    for (const edge of intoPromise) {
      const { from, to } = graph.edges[edge.index]!;
      expect(edge.points, `${from} → ${to}`).toHaveLength(2);
      expect(edge.points[0]!.x).toBe(edge.points[1]!.x);
    }
    // Each its own line, apart enough to read as four.
    const xs = intoPromise.map((edge) => edge.points[0]!.x).sort((a, b) => a - b);
    for (let i = 1; i < xs.length; i++) if (xs[i] !== xs[i - 1]) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(20);
    expect(new Set(xs).size).toBe(5);
    const scene = graphToScene(graph, laid);
    expect(checkScene(scene.elements, scene.parents).crossings).toBe(0);
  });

  it('routes round the edges found before rather than across them (Mermaid print-job states)', async () => {
    // Each route found alone: "Stapling" back to "Waiting" went up the middle across "All pages out", two crossings
    // where ELK and Graphviz's own splines have none.
    const graph = await mermaidNotation.toGraph(readFileSync(new URL('../../../test/fixtures/mermaid/print-job-emphasis-state.mmd', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    const report = checkScene(scene.elements, scene.parents);
    expect(report.crossings).toBe(0);
    expect(report.violations).toEqual([]);
  });

  it('wraps a label that has no room beside its route at full width rather than setting it by another route (Mermaid print-job states)', async () => {
    // "User selects "Paper loaded"" found no room between "Retry" and "Tray emptied again" and stood 200 px right of
    // its own transition, beside another; "Job received or print option clicked" lay across "Cancel".
    const graph = await mermaidNotation.toGraph(readFileSync(new URL('../../../test/fixtures/mermaid/print-job-emphasis-state.mmd', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    const gap = (box: Box, points: readonly Point[]) =>
      Math.min(...points.slice(1).map((to, i) => {
        const from = points[i]!;
        const leg = legBox(from, to);
        const dx = Math.max(0, leg.x - (box.x + box.width), box.x - (leg.x + leg.width));
        const dy = Math.max(0, leg.y - (box.y + box.height), box.y - (leg.y + leg.height));
        return Math.hypot(dx, dy);
      }));
    for (const edge of laid.edges) for (const label of edge.labels) expect(gap(label, edge.points), label.text).toBeLessThanOrEqual(12);
    const loaded = laid.edges.flatMap((edge) => edge.labels).find((label) => label.text.startsWith('User selects') && label.text.includes('Paper'))!;
    expect(loaded.text.split('\n').length).toBeGreaterThan(1);
    const scene = graphToScene(graph, laid);
    expect(checkScene(scene.elements, scene.parents).textCrossings).toBe(0);
  });

  it('keeps the other routes off a self loop and its label (a token lifecycle: three transitions leave the looping state)', async () => {
    // Routed without the loop they left Authenticated on its right, through the loop and over its label.
    const graph = await mermaidNotation.toGraph(
      [
        'stateDiagram-v2',
        '  [*] --> Unregistered',
        '  Unregistered --> PendingVerification: register',
        '  PendingVerification --> Verified: verify-email',
        '  Verified --> Authenticated: POST /auth/login',
        '  Authenticated --> Authenticated: authenticated request<br/>signature check only, no I/O',
        '  Authenticated --> Refreshing: access token expires',
        '  Refreshing --> Authenticated: POST /auth/refresh',
        '  Refreshing --> Compromised: rotated token replayed',
        '  Compromised --> Verified: entire family revoked',
        '  Authenticated --> Verified: POST /auth/logout',
        '  Authenticated --> Suspended: admin suspends account',
        '  Suspended --> Verified: admin reactivates',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const loop = laid.edges.find((edge) => graph.edges[edge.index]!.from === graph.edges[edge.index]!.to)!;
    const xs = [...loop.points.map((p) => p.x), ...loop.labels.flatMap((label) => [label.x, label.x + label.width])];
    const ys = [...loop.points.map((p) => p.y), ...loop.labels.flatMap((label) => [label.y, label.y + label.height])];
    const node = laid.nodes.find((n) => n.id === 'Authenticated')!;
    const kept = { x: node.x + node.width + 1, y: Math.min(...ys), width: Math.max(...xs) - node.x - node.width - 1, height: Math.max(...ys) - Math.min(...ys) };
    const through = laid.edges.filter((edge) => edge !== loop && edge.points.some((p, i) => i > 0 && overlaps(legBox(edge.points[i - 1]!, p), kept)));
    expect(through.map((edge) => graph.edges[edge.index]!.label)).toEqual([]);
  });

  it('stacks a boundary’s parts along the flow where side by side they miss a README column (Mermaid C4 context)', async () => {
    // Graphviz set the three boundaries and the systems joined by no edge side by side: 1,985 px wide, text 6.2 px at 880.
    const graph = await mermaidNotation.toGraph(readFileSync(new URL('../../../test/fixtures/mermaid/mermaid-docs-c4-context.mmd', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations).toEqual([]);
  });

  it('stacks packages along the flow where that misses a README column by less than their one wide row (hexagonal architecture)', async () => {
    // Graphviz ranks each class by its own edges, so the packages a domain's classes use sat beside the domain, one
    // row 6,249 px wide (text 3 px at 880); stacked they miss the column too, but were dropped for missing it.
    const graph = await plantumlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/plantuml/jdp-hexagonal-class.puml', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    expect(laid.width).toBeLessThan(3_500);
    expect(laid.height / laid.width).toBeLessThan(3);
  });

  it('keeps packages side by side where stacked they make a column beyond 3:1 once drawn (onion architecture)', async () => {
    // Judged by Graphviz's extent, labels included, the stacked try was 1,486 px wide and won; drawn, 949 × 4,209 px.
    const graph = await plantumlNotation.toGraph(readFileSync(new URL('../../../test/fixtures/plantuml/jdp-onion-architecture-class.puml', import.meta.url), 'utf8'));
    const scene = graphToScene(graph, await layoutGraphvizOrthogonal(graph));
    expect(checkScene(scene.elements, scene.parents).violations.filter((violation) => violation.includes('beyond 3:1'))).toEqual([]);
  });

  it('does not stack containers that refer to each other both ways, which turns one edge against the flow (Nextcloud’s two networks)', async () => {
    // app (network default) → proxy (proxy-tier) and web (proxy-tier) → app: stacked, proxy-tier came after default and
    // web → app ran upwards, the whole drawing flowing bottom to top.
    const code = readFileSync(new URL('../../../test/fixtures/compose/nextcloud-with-nginx-proxy-postgres-fpm.compose.yaml', import.meta.url), 'utf8');
    const graph = foldForReading(await composeNotation.toGraph(code), 'compose');
    const laid = await layoutGraphvizOrthogonal(graph);
    const top = (id: string) => laid.nodes.find((node) => node.id === `service:${id}`)!.y;
    for (const [from, to] of [['web', 'app'], ['app', 'db'], ['app', 'redis'], ['cron', 'db'], ['letsencrypt-companion', 'proxy']]) expect(top(from!), `${from} above ${to}`).toBeLessThan(top(to!));
  });

  it('runs every edge with the flow where no cycle turns one, though two containers refer to each other both ways (a Mermaid module map)', async () => {
    // In the shape of a project README's module map: agents use utilities, evaluation tests the agents. Graphviz's
    // older ranking ranked the two subgraphs as units, found them a cycle and turned evaluation's and monitoring's
    // edges upwards, both drawn under the agents they test; Mermaid's own layout runs all eight down.
    const graph = await mermaidNotation.toGraph(
      [
        'graph TD',
        'subgraph "Core Logic"',
        '  Agents[src/agents]',
        '  RAG[src/rag]',
        '  Memory[src/memory]',
        'end',
        'subgraph "Support Infrastructure"',
        '  Utils[src/utils]',
        '  Eval[src/evaluation]',
        '  Monitor[src/monitoring]',
        '  Scale[src/scaling]',
        'end',
        'Agents -->|Retrieves Context| RAG',
        'Agents -->|Reads/Writes| Memory',
        'Agents -->|Uses| Utils',
        'RAG -->|Uses| Utils',
        'Eval -->|Tests| Agents',
        'Monitor -->|Observes| Agents',
        'Monitor -->|Observes| RAG',
        'Agents -.->|Traced By| Scale',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const box = new Map(laid.nodes.map((node) => [node.id, node]));
    const upwards = graph.edges.filter((edge) => box.get(edge.to)!.y + box.get(edge.to)!.height <= box.get(edge.from)!.y);
    expect(upwards.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
  });

  it('draws Kubernetes, Helm, Mermaid, Terraform, compose and SQL schemas of any size this way, the other notations and graphs from no notation with ELK', () => {
    expect(layoutEngineFor(graph, 'sql')).toBe(layoutGraphvizOrthogonal);
    const tables = Array.from({ length: FOLD_NODES + 1 }, (_, i) => ({ id: `t${i}`, label: `t${i}`, kind: 'entity' as const }));
    expect(layoutEngineFor({ ...graph, nodes: tables, edges: [] }, 'sql')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(graph, 'kubernetes')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(graph, 'helm')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(graph, 'mermaid')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(graph, 'terraform')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(graph, 'compose')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(graph)).toBe(layoutGraph);
  });

  it('draws a PlantUML diagram this way unless its containers are joined to each other (packages that refer to each other) or are swimlanes', () => {
    const packaged = (parents: Record<string, string>): GraphIR => ({
      ...graph,
      groups: [...new Set(Object.values(parents))].map((id) => ({ id, label: id, kind: 'package' })),
      nodes: graph.nodes.map((node) => ({ ...node, ...(parents[node.id] !== undefined && { parent: parents[node.id] }) })),
    });
    expect(layoutEngineFor(graph, 'plantuml')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(packaged({ web: 'app', api: 'app', db: 'app', cache: 'app' }), 'plantuml')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(packaged({ web: 'front', api: 'back', db: 'back', cache: 'back' }), 'plantuml')).toBe(layoutGraph);
    // A container joined only to what is outside every container (its users, a database its parts share).
    expect(layoutEngineFor(packaged({ api: 'back', db: 'back' }), 'plantuml')).toBe(layoutGraphvizOrthogonal);
    // A package in a package (java-design-patterns' microservices: `package com.iluwatar… { package "Order Microservice" {…} }`).
    const inOuter = (parents: Record<string, string>): GraphIR => {
      const inner = packaged(parents);
      return { ...inner, groups: [...inner.groups.map((group) => ({ ...group, parent: 'outer' })), { id: 'outer', label: 'outer' }] };
    };
    expect(layoutEngineFor(inOuter({ web: 'app', api: 'app', db: 'app', cache: 'app' }), 'plantuml')).toBe(layoutGraphvizOrthogonal);
    expect(layoutEngineFor(inOuter({ web: 'front', api: 'back', db: 'back', cache: 'back' }), 'plantuml')).toBe(layoutGraph);
    const lane = packaged({ web: 'lane', api: 'lane', db: 'lane', cache: 'lane' });
    expect(layoutEngineFor({ ...lane, groups: lane.groups.map((group) => ({ ...group, kind: 'swimlane' })) }, 'plantuml')).not.toBe(layoutGraphvizOrthogonal);
  });

  it('chooses the engine for a diagram with notes beside its parts as for the diagram without them (a SaaS platform’s architecture)', async () => {
    // Built by hand in the shape of a platform's architecture page (vhvplatform's system architecture): packages of
    // components that hold components, joined to each other, four notes `right of` parts. The notes sent it to
    // Graphviz's own layout, every inner component in one rank: 11,203 px wide where PlantUML draws 3,779 px.
    const component = (id: string, parts: string[]) => [`component "${id}" as ${id} {`, ...parts.map((part) => `[${id} ${part}]`), '}'];
    const code = [
      '@startuml',
      'actor client',
      'package "Edge" {',
      ...component('gateway', ['routing', 'auth check', 'rate limit', 'tracing']),
      '}',
      'package "Services" {',
      ...['accounts', 'billing', 'catalog', 'mailer'].flatMap((id) => component(id, ['api', 'worker', 'schema'])),
      '}',
      'package "Data" {',
      'database "store" as store {',
      '[tables]',
      '[indexes]',
      '}',
      'queue "events" as events {',
      '[topics]',
      '}',
      '}',
      'client --> gateway : HTTPS',
      ...['accounts', 'billing', 'catalog', 'mailer'].flatMap((id) => [`gateway --> ${id} : gRPC`, `${id} --> store : SQL`, `${id} ..> events : publish`]),
      ...['gateway', 'store', 'events', 'billing'].flatMap((id) => [`note right of ${id}`, `What ${id} is for,`, 'in two lines', 'end note']),
      '@enduml',
    ].join('\n');
    const diagram = await plantumlNotation.toGraph(code);
    const engine = layoutEngineFor(diagram, 'plantuml');
    expect(engine).not.toBe(layoutWithGraphviz);
    const laid = await engine(diagram);
    expect(laid.width).toBeLessThan(4_000);
    // Laid out left to right, as its author may ask, each note comes after what it annotates, on its right: ELK
    // layered it before, on the left.
    const across = await plantumlNotation.toGraph(code.replace('@startuml', '@startuml\nleft to right direction'));
    const acrossLaid = await layoutEngineFor(across, 'plantuml')(across);
    const box = (id: string) => [...acrossLaid.nodes, ...acrossLaid.groups].find((item) => item.id === id)!;
    const notes = across.edges.filter((edge) => across.nodes.find((node) => node.id === edge.from)?.kind === 'note');
    expect(notes).toHaveLength(4);
    for (const note of notes) expect(box(note.from).x, note.to).toBeGreaterThanOrEqual(box(note.to).x + box(note.to).width);
  });

  it('sets each step of an activity right after the step before it, not down beside a longer sibling branch (Cluster API deployment)', async () => {
    // Graphviz ranked the rolling update's steps anywhere between its decision and the merge at the foot of the
    // on-delete branch: "Too Many replicas" hung ~1,000 px under "Propagate in-place changes", the drawing 1,176 × 4,602.
    const code = readFileSync(new URL('../../../test/fixtures/plantuml/capi-machinedeployment-activity.plantuml', import.meta.url), 'utf8');
    const activity = await plantumlNotation.toGraph(code);
    const laid = await layoutGraphvizOrthogonal(activity);
    const boxes = new Map(laid.nodes.map((node) => [node.id, node]));
    const into = (id: string) => activity.edges.filter((edge) => edge.to === id).length;
    const gaps = activity.edges.flatMap((edge) => {
      const [from, to] = [boxes.get(edge.from)!, boxes.get(edge.to)!];
      // A step reached from one step only, below it: the gap is one arrow's length (and its label).
      return into(edge.to) === 1 && to.y > from.y ? [to.y - (from.y + from.height)] : [];
    });
    expect(gaps.length).toBeGreaterThan(30);
    expect(Math.max(...gaps)).toBeLessThan(120);
    expect(laid.height / laid.width).toBeLessThan(3);
  });

  it('draws the AKS store manifest readable at README width, which ELK did not (10.9 px text)', async () => {
    const code = readFileSync(new URL('../../../test/fixtures/kubernetes/aks-store-all-in-one.yaml', import.meta.url), 'utf8');
    const { elements } = await codeToScene(code, { notation: 'kubernetes' });
    expect(checkScene(elements).violations).toEqual([]);
  });

  it('ends a table’s foreign keys on its sides along the flow, beside its rows, not on its header or foot (Northwind’s shape)', async () => {
    // Products refer to suppliers and categories, order lines to products and orders, orders to customers, shippers
    // and employees: Graphviz set products' and orders' keys into their headers from above and below.
    const graph = await sqlNotation.toGraph(`
      CREATE TABLE categories (category_id int PRIMARY KEY, category_name varchar(15), description text, picture bytea);
      CREATE TABLE suppliers (supplier_id int PRIMARY KEY, company_name varchar(40), contact_name varchar(30), address varchar(60), city varchar(15), country varchar(15), phone varchar(24));
      CREATE TABLE products (product_id int PRIMARY KEY, product_name varchar(40), supplier_id int REFERENCES suppliers, category_id int REFERENCES categories, unit_price real, discontinued int);
      CREATE TABLE customers (customer_id varchar(5) PRIMARY KEY, company_name varchar(40), contact_name varchar(30), address varchar(60), city varchar(15), country varchar(15));
      CREATE TABLE shippers (shipper_id int PRIMARY KEY, company_name varchar(40), phone varchar(24));
      CREATE TABLE employees (employee_id int PRIMARY KEY, last_name varchar(20), first_name varchar(10), title varchar(30), reports_to int REFERENCES employees);
      CREATE TABLE orders (order_id int PRIMARY KEY, customer_id varchar(5) REFERENCES customers, employee_id int REFERENCES employees, order_date date, ship_via int REFERENCES shippers, freight real);
      CREATE TABLE order_details (order_id int REFERENCES orders, product_id int REFERENCES products, unit_price real, quantity int, PRIMARY KEY (order_id, product_id));
    `);
    const laid = await layoutGraphvizOrthogonal(graph);
    const boxes = new Map(laid.nodes.map((node) => [node.id, node]));
    const onSide = (point: Point, box: Box) => Math.abs(point.x - box.x) <= 1 || Math.abs(point.x - box.x - box.width) <= 1;
    for (const edge of laid.edges) {
      const { from, to } = graph.edges[edge.index]!;
      if (from === to) continue;
      expect(onSide(edge.points[0]!, boxes.get(from)!), `${from} → ${to} leaves ${from} on its side`).toBe(true);
      expect(onSide(edge.points.at(-1)!, boxes.get(to)!), `${from} → ${to} reaches ${to} on its side`).toBe(true);
    }
  });

  it('leaves a hub on the side facing the next rank and reaches each target there on the side facing back (opentelemetry-demo’s frontend)', async () => {
    // Free to use any side, frontend's fan ran along its own row out of its sides, into image-provider and quote from the left.
    const source = await composeNotation.toGraph(readFileSync(new URL('../../../test/fixtures/compose/opentelemetry-demo.compose.yaml', import.meta.url), 'utf8'));
    const graph = resolveIconHints(foldForReading(source, 'compose'));
    const laid = await layoutGraphvizOrthogonal(graph);
    const box = (id: string) => laid.nodes.find((node) => node.id === id)!;
    const frontend = box('service:frontend');
    const nextRank = laid.nodes.filter((node) => node.y > frontend.y + frontend.height && !laid.nodes.some((other) => other.y > frontend.y + frontend.height && other.y + other.height < node.y));
    const fan = laid.edges.filter((edge) => graph.edges[edge.index]!.from === frontend.id && nextRank.some((node) => node.id === graph.edges[edge.index]!.to));
    expect(fan.length).toBeGreaterThanOrEqual(5);
    for (const edge of fan) {
      const target = box(graph.edges[edge.index]!.to);
      expect([edge.points[0]!.y, edge.points.at(-1)!.y], target.id).toEqual([expect.closeTo(frontend.y + frontend.height, 0), expect.closeTo(target.y, 0)]);
    }
  });

  it('gives each edge into one side its own port, in its sources’ order (bank-of-anthos: three callers into ledger-db)', async () => {
    // All ended at the middle of each database's top: one arrowhead for ledger-db's three callers, accounts-db's two.
    const source = await kubernetesNotation.toGraph(readFileSync(new URL('../../../test/fixtures/kubernetes/bank-of-anthos-manifests.yaml', import.meta.url), 'utf8'));
    const graph = resolveIconHints(foldForReading(source, 'kubernetes'));
    const laid = await layoutGraphvizOrthogonal(graph);
    for (const [name, callers] of [['ledger-db', 3], ['accounts-db', 2]] as const) {
      const db = laid.nodes.find((node) => node.id === `StatefulSet//${name}`)!;
      const ends = laid.edges.filter((edge) => graph.edges[edge.index]!.to === db.id).map((edge) => edge.points.at(-1)!);
      expect(ends, name).toHaveLength(callers);
      const xs = ends.filter((end) => Math.abs(end.y - db.y) <= 1).map((end) => end.x).sort((a, b) => a - b);
      expect(xs, name).toHaveLength(callers);
      xs.slice(1).forEach((x, i) => expect(x - xs[i]!, name).toBeGreaterThanOrEqual(12));
    }
  });

  it('leaves a node’s one side by a port per edge, not round its other sides (kyma NATS controller’s five watches)', async () => {
    // Ending at the bottom's middle, the second edge could not share the first's leg: two went out of each side.
    const graph = await mermaidNotation.toGraph(readFileSync(new URL('../../../test/fixtures/mermaid/kyma-nats-watches-flowchart.mmd', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    const controller = laid.nodes.find((node) => node.id === 'Con')!;
    expect(laid.edges).toHaveLength(5);
    for (const edge of laid.edges) expect(edge.points[0]!.y, graph.edges[edge.index]!.to).toBeCloseTo(controller.y + controller.height, 0);
  });

  it('starts a loop through containers where the author did, not at its end (a chat UI answered by its query path)', async () => {
    // Built by hand in the shape of a retrieval service's runtime (a public design document): Graphviz breaks cycles
    // per cluster and drew the chat UI's container under everything, its request running up the whole drawing.
    const graph = await mermaidNotation.toGraph(
      [
        'flowchart TB',
        '  subgraph UI["Presentation"]',
        '    WEB[Chat UI]',
        '  end',
        '  subgraph ONLINE["Online query path"]',
        '    API[POST /chat]',
        '    GUARD[Scope guard]',
        '    RET[Retriever]',
        '    VAL[Draft validator]',
        '    REF[Refusal templates]',
        '  end',
        '  subgraph DATA["Local data"]',
        '    VDB[(Chroma collection)]',
        '  end',
        '  WEB --> API --> GUARD',
        '  GUARD -->|out of scope| REF',
        '  GUARD -->|in scope| RET --> VAL',
        '  VAL -->|pass| WEB',
        '  REF --> WEB',
        '  RET --> VDB',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const node = (id: string) => laid.nodes.find((candidate) => candidate.id === id)!;
    expect(node('WEB').y).toBeLessThan(node('API').y);
    expect(node('API').y).toBeLessThan(node('REF').y);
  });

  it('ends an edge from upstream on a decision’s upper faces, not at its side corner that a branch leaves (a search’s threshold)', async () => {
    // Built by hand in the shape of a retrieval service's query path: the search across all documents came straight
    // down onto the threshold decision's right corner, the one its "yes" left by, and read as one line through it.
    const graph = await mermaidNotation.toGraph(
      [
        'flowchart TD',
        '  Q[User message] --> G{Scope guard}',
        '  G -->|medical, calorie target, weight target, nutrient lookup| OS[out_of_scope template]',
        '  G -->|in scope| D{Named document in the question?}',
        '  D -->|yes| F[Vector search filtered to that document_id]',
        '  D -->|no| A[Vector search across all seven documents]',
        '  F --> H{Any hit at or above threshold?}',
        '  A --> H',
        '  H -->|no| NIC[not_in_corpus template naming the scope]',
        '  H -->|yes| GRP[Group hits by document_id]',
        '  GRP --> GEN[Claims with chunk ids per document]',
        '  GEN --> REN[Citations from chunk metadata]',
        '  REN --> V{Validator}',
        '  V -->|no surviving claim| NIC',
        '  V -->|pass| ANS[answer grouped by document]',
      ].join('\n'),
    );
    const laid = await layoutGraphvizOrthogonal(graph);
    const decision = laid.nodes.find((candidate) => candidate.id === 'H')!;
    for (const edge of laid.edges.filter((candidate) => graph.edges[candidate.index]!.to === 'H')) {
      const end = edge.points.at(-1)!;
      // On an upper face, well above the side corners, entered from above.
      expect(end.y, graph.edges[edge.index]!.from).toBeLessThan(decision.y + decision.height * 0.4);
      expect(edge.points.at(-2)!.y, graph.edges[edge.index]!.from).toBeLessThan(end.y);
    }
  });

  it('cuts a long sideways chain into rows of a README column, each read left to right (a CI pipeline’s eleven steps)', async () => {
    // In the shape of a dbt project’s CI/CD guide (public): one row 2,778 px wide, its text 5 px at a README’s 880.
    const graph = await mermaidNotation.toGraph(readFileSync(new URL('../../../test/fixtures/mermaid/ci-pipeline-chain-flowchart.mmd', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    expect(laid.width).toBeLessThan(1_120);
    const rows = rowCounts(laid.nodes);
    expect(rows.length).toBeGreaterThan(1);
    // Every step but a row's last leads right to the next; a row's last leads down to the next row's first, at the left.
    const node = (id: string) => laid.nodes.find((candidate) => candidate.id === id)!;
    for (const edge of graph.edges) {
      const [from, to] = [node(edge.from), node(edge.to)];
      if (Math.abs(from.y + from.height / 2 - (to.y + to.height / 2)) < 1) expect(to.x, edge.to).toBeGreaterThan(from.x + from.width);
      else expect(to.x, edge.to).toBe(Math.min(...laid.nodes.map((candidate) => candidate.x)));
    }
  });

  it('sets a container’s loose items in a grid, as ELK does, not one rank (Sentry chart’s twenty consumers)', async () => {
    // Graphviz ranks nodes joined to nothing side by side: the sentry and snuba containers were columns twenty high.
    const graph = await helmNotation.toGraph(readFileSync(new URL('../../../test/fixtures/helm/sentry.values.yaml', import.meta.url), 'utf8'));
    const laid = await layoutGraphvizOrthogonal(graph);
    expect(laid.groups.length).toBeGreaterThan(0);
    for (const group of laid.groups) expect(Math.max(group.width / group.height, group.height / group.width)).toBeLessThan(3);
  });

  it('keeps each end label of a flow to the right off the classes: the gap opens to its width (a health check’s checkers)', async () => {
    // Built by hand in the shape of java-design-patterns' health check: three indicators hold the checker and the
    // repository, each field an end label. Graphviz keeps no room for end labels, so the rank gap was 52 px and
    // "-asynchronousHealthChecker" lay over the members of both classes it ran between.
    const member = (name: string) => `  - ${name} : String`;
    const graph = await plantumlGraph([
      'left to right direction',
      'package com.example.health {',
      ...['MemoryHealthIndicator', 'DatabaseTransactionHealthIndicator', 'CustomHealthIndicator'].flatMap((name) => [`class ${name} {`, member('timeoutInSeconds'), member('retryTemplate'), '}']),
      'class AsynchronousHealthChecker {', member('healthCheckExecutor'), '}',
      'class HealthCheckRepository {', member('entityManager'), '}',
      '}',
      'MemoryHealthIndicator --> "-asynchronousHealthChecker" AsynchronousHealthChecker',
      'DatabaseTransactionHealthIndicator --> "-asynchronousHealthChecker" AsynchronousHealthChecker',
      'DatabaseTransactionHealthIndicator --> "-healthCheckRepository" HealthCheckRepository',
      'CustomHealthIndicator --> "-healthChecker" AsynchronousHealthChecker',
      'CustomHealthIndicator --> "-healthCheckRepository" HealthCheckRepository',
    ]);
    expect(graph.edges.filter((edge) => edge.endLabel)).toHaveLength(5);
    const laid = await layoutEngineFor(graph, 'plantuml')(graph);
    const ends = laid.edges.flatMap((edge) => edge.labels.filter((label) => label.placement !== 'center'));
    expect(ends).toHaveLength(5);
    for (const label of ends) {
      const over = laid.nodes.filter((node) => overlaps(label, node)).map((node) => node.id);
      expect(over, label.text).toEqual([]);
    }
    const scene = graphToScene(graph, laid);
    expect(checkScene(scene.elements, scene.parents).violations.filter((v) => v.startsWith('text'))).toEqual([]);
  });

  it('sets the end labels of a diagram Graphviz lays out itself beside their ends, off the classes (a dwelling’s windows)', async () => {
    // In the shape of PlantUML's documented relationships: its direction hints send it to Graphviz's own layout, which
    // was handed no `headlabel`, and every cardinality stood on its end point, over the class's name.
    const graph = await plantumlGraph([
      'class Dwelling {', '  +Int Windows', '  +void LockTheDoor()', '}',
      'class Apartment', 'class House', 'class Window', 'class Door',
      'Dwelling <|-down- Apartment: Inheritance',
      'Dwelling <|-down- House: Inheritance',
      'Dwelling "1" *-up- "many" Window: Composition',
      'Dwelling "1" *-up- "many" Door: Composition',
    ]);
    const laid = await layoutEngineFor(graph, 'plantuml')(graph);
    const box = (id: string) => laid.nodes.find((node) => node.id === id)!;
    const centre = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
    const distance = (a: Box, b: Box) => Math.hypot(centre(a).x - centre(b).x, centre(a).y - centre(b).y);
    for (const edge of laid.edges) {
      const { from, to } = graph.edges[edge.index]!;
      for (const label of edge.labels) {
        expect(laid.nodes.filter((node) => overlaps(label, node)).map((node) => node.id), label.text).toEqual([]);
        // Each beside its own end: "1" by the dwelling, "many" by the window or door.
        if (label.placement === 'start') expect(distance(label, box(from))).toBeLessThan(distance(label, box(to)));
        if (label.placement === 'end') expect(distance(label, box(to))).toBeLessThan(distance(label, box(from)));
      }
    }
    expect(laid.edges.flatMap((edge) => edge.labels.filter((label) => label.placement !== 'center'))).toHaveLength(4);
  });

  it('sets each cardinality clear of its end marker, not over the crow’s foot (petclinic)', async () => {
    // Beside the end leg at the 4 px of a middle label, "0..*" and "0..1" lay over the feet and circles, which spread
    // 9 px either side of the line (half an 18 px arrowhead) for 24 px back from the table.
    const code = readFileSync(new URL('../../../test/fixtures/sql/mysql-petclinic-schema.sql', import.meta.url), 'utf8');
    const graph = await sqlNotation.toGraph(code);
    const laid = await layoutEngineFor(graph, 'sql')(graph);
    let checked = 0;
    for (const edge of laid.edges) {
      for (const label of edge.labels.filter((one) => one.placement !== 'center')) {
        const [end, next] = label.placement === 'start' ? [edge.points[0]!, edge.points[1]!] : [edge.points.at(-1)!, edge.points.at(-2)!];
        const level = end.y === next.y;
        const back = Math.sign((level ? next.x - end.x : next.y - end.y) || 1);
        // The marker's extent: 24 px back along the end leg, 9 px either side.
        const marker = level
          ? { x: Math.min(end.x, end.x + back * 24), y: end.y - 9, width: 24, height: 18 }
          : { x: end.x - 9, y: Math.min(end.y, end.y + back * 24), width: 18, height: 24 };
        expect(overlaps(label, marker), `${label.text} of ${graph.edges[edge.index]!.id}`).toBe(false);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('keeps room beside a class for the end label of its lone self loop (a singleton’s -INSTANCE)', async () => {
    // Built by hand in the shape of java-design-patterns' singleton: the label of IvoryTower's loop to itself lay over
    // the class Graphviz set 65 px beside it, which knew of no label there.
    const graph = await plantumlGraph([
      'package com.example.singleton {',
      'class IvoryTower {', '  - static INSTANCE : IvoryTower', '  + static getInstance() : IvoryTower', '}',
      'class ThreadSafeDoubleCheckLocking {', '  - static instance : ThreadSafeDoubleCheckLocking', '  + static getInstance() : ThreadSafeDoubleCheckLocking', '}',
      '}',
      'IvoryTower -->  "-INSTANCE" IvoryTower',
      'ThreadSafeDoubleCheckLocking -->  "-instance" ThreadSafeDoubleCheckLocking',
    ]);
    const laid = await layoutEngineFor(graph, 'plantuml')(graph);
    const ends = laid.edges.flatMap((edge) => edge.labels);
    expect(ends.map((label) => label.text).sort()).toEqual(['-INSTANCE', '-instance']);
    for (const label of ends) expect(laid.nodes.filter((node) => overlaps(label, node)).map((node) => node.id), label.text).toEqual([]);
  });
});

/** How many nodes each row holds, top to bottom: nodes overlapping in height share a row. */
function rowCounts(nodes: readonly Box[]): number[] {
  const rows: { top: number; bottom: number; count: number }[] = [];
  for (const node of [...nodes].sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2))) {
    const row = rows.find((r) => node.y < r.bottom && node.y + node.height > r.top);
    if (row) Object.assign(row, { top: Math.min(row.top, node.y), bottom: Math.max(row.bottom, node.y + node.height), count: row.count + 1 });
    else rows.push({ top: node.y, bottom: node.y + node.height, count: 1 });
  }
  return rows.map((row) => row.count);
}

