import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { foldForReading } from '../../graph/fold.js';
import type { GraphIR } from '../../graph/types.js';
import { resolveIconRef } from '../../icons/index.js';
import { FONT } from '../../layout/drawing-rules.js';
import { wrapText } from '../../layout/node-size.js';
import { codeToScene } from '../index.js';
import { terraformNotation } from './index.js';
import { TERRAFORM_ICONS } from './providers.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/terraform/${name}`, import.meta.url), 'utf8');
const arrows = (graph: GraphIR): string[] => graph.edges.map((e) => `${e.from} -> ${e.to}${e.label ? ` [${e.label}]` : ''}`);

describe('terraformNotation on real modules', () => {
  it('draws a random suffix as a row on what it names, not a box with an edge from each user (learn-terraform-provision-eks-cluster)', () => {
    const graph = terraformNotation.toGraph(fixture('learn-provision-eks-cluster.main.tf'));
    expect(graph.nodes.map((node) => node.id)).not.toContain('random_string.suffix');
    expect(graph.edges.filter((edge) => edge.to.startsWith('random_'))).toEqual([]);
    expect(graph.nodes.find((node) => node.id === 'module.eks')!.rows).toEqual(['module eks/aws', 'cluster_addons: aws-ebs-csi-driver', 'eks_managed_node_groups: one, two', 'uses random_string.suffix']);
    expect(graph.warnings).toContain('random_string.suffix: drawn as a row on each resource that uses them ("uses …"), not as boxes');
  });

  it('leaves out a data source only a provider block reads, saying so (terraform-google-kubernetes-engine examples)', () => {
    // examples/safer_cluster/main.tf, abridged (Apache-2.0): the client config the kubernetes provider signs in with
    // stood as a box with no line beside the cluster.
    const graph = terraformNotation.toGraph(`data "google_client_config" "default" {}
provider "kubernetes" {
  host                   = "https://\${module.gke.endpoint}"
  token                  = data.google_client_config.default.access_token
  cluster_ca_certificate = base64decode(module.gke.ca_certificate)
}
module "gke" {
  source     = "terraform-google-modules/kubernetes-engine/google//modules/safer-cluster"
  project_id = var.project_id
}
resource "google_pubsub_topic" "updates" {
  name = "cluster-updates"
}
`);
    expect(graph.nodes.map((node) => node.id)).toEqual(['google_pubsub_topic.updates', 'module.gke']);
    expect(graph.warnings).toContain('data.google_client_config.default: read only by provider "kubernetes" (providers are not drawn); not drawn');
  });

  it('draws a null resource that runs nothing as a row on what it triggers, and one with a provisioner as the step it is (terraform-azurerm-aks)', () => {
    // terraform-azurerm-aks main.tf, abridged: its keepers are values whose change replaces the cluster.
    const graph = terraformNotation.toGraph(`resource "null_resource" "kubernetes_cluster_name_keeper" {
  triggers = { name = var.cluster_name }
}
resource "azurerm_kubernetes_cluster" "main" {
  name = var.cluster_name
  lifecycle {
    replace_triggered_by = [null_resource.kubernetes_cluster_name_keeper.id]
  }
}
resource "null_resource" "apply_deployment" {
  provisioner "local-exec" {
    command = "kubectl apply -k ."
  }
  depends_on = [azurerm_kubernetes_cluster.main]
}
`);
    expect(graph.nodes.map((node) => node.id)).toEqual(['azurerm_kubernetes_cluster.main', 'null_resource.apply_deployment']);
    expect(graph.nodes[0]!.rows).toContain('uses null_resource.kubernetes_cluster_name_keeper');
    expect(arrows(graph)).toEqual(['null_resource.apply_deployment -> azurerm_kubernetes_cluster.main [depends on]']);
  });

  it('says what a registry module call builds several of, and its source without the namespace (Cloud SQL HA: one module call)', () => {
    // The whole example is one call: a box that said only its 75-character source showed nothing of the three replicas.
    const graph = terraformNotation.toGraph(fixture('gcp-sql-mysql-ha.main.tf'));
    expect(graph.nodes.map((node) => [node.label, node.rows])).toEqual([['mysql', ['module sql-db/google//mysql', 'additional_users × 2', 'read_replicas × 3']]]);
  });

  it('leaves out a module called with create = false, which creates nothing, and says so (terraform-aws-ecs express-service example)', () => {
    const graph = terraformNotation.toGraph(fixture('tf-aws-ecs-express-service.main.tf'));
    // The example calls the module a second time only to test its switch: that box stood beside the service it builds.
    expect(graph.nodes.map((node) => node.id)).not.toContain('module.ecs_express_service_disabled');
    expect(graph.nodes.map((node) => node.id)).toContain('module.ecs_express_service');
    expect(graph.warnings).toContain('module.ecs_express_service_disabled (create = false): creates nothing; not drawn');
    // A count of zero is the same switch written on a resource.
    const counted = terraformNotation.toGraph('resource "aws_s3_bucket" "logs" {\n  count = 0\n}\nresource "aws_s3_bucket" "data" {\n  bucket = "data"\n}\n');
    expect(counted.nodes.map((node) => node.id)).toEqual(['aws_s3_bucket.data']);
  });

  it('titles the boxes that share a name by their address, so each says which it is (terraform-aws-lambda iam.tf: vpc and tracing twice each)', () => {
    const graph = terraformNotation.toGraph(fixture('tf-aws-lambda.iam.tf'));
    const drawn = foldForReading(graph, 'terraform');
    // Each role policy and the managed policy it reads were two boxes titled alike, "vpc" and "vpc".
    expect(drawn.nodes.map((node) => node.label)).toEqual(['lambda', 'aws_iam_role_policy.tracing', 'aws_iam_role_policy.vpc', 'log_group_arn', 'data.aws_iam_policy.tracing', 'data.aws_iam_policy.vpc']);
    // The address says the type, so no row repeats it.
    expect(drawn.nodes.find((node) => node.id === 'data.aws_iam_policy.vpc')!.rows).toEqual(['if local.create_role &&…']);
    // Names among what is drawn: folded, the `logs` policy's name is a row on the role, not a rival title.
    expect(drawn.nodes[0]!.rows).toContain('policy logs (policy document logs) → data.aws_arn.log_group_arn');
    // Drawn in full, the six other role policies keep their own names; the two pairs are titled as folded.
    const full = foldForReading(graph, 'terraform', 'full');
    expect(full.nodes.find((node) => node.id === 'aws_iam_role_policy.logs')!.label).toBe('logs');
    expect(full.nodes.find((node) => node.id === 'aws_iam_role_policy.vpc')!.label).toBe('aws_iam_role_policy.vpc');
  });

  it('puts the terraform-aws-vpc subnets in the VPC, reaching it through local.vpc_id', () => {
    const graph = terraformNotation.toGraph(fixture('tf-aws-vpc-root.main.tf'));
    expect(graph.groups.find((g) => g.id === 'aws_vpc.this')).toEqual({ id: 'aws_vpc.this', label: 'this (aws_vpc)', kind: 'aws_vpc' });
    expect(graph.groups.find((g) => g.id === 'aws_subnet.private')!.parent).toBe('aws_vpc.this');
    expect(graph.nodes.find((n) => n.id === 'aws_route_table_association.private')!.parent).toBe('aws_subnet.private');
    expect(graph.nodes.find((n) => n.id === 'aws_nat_gateway.this')).toMatchObject({ kind: 'network', iconRef: 'generic/Router', rows: ['aws_nat_gateway', '× local.nat_gateway_count if…'] });
    expect(graph.edges.length).toBeGreaterThan(50);
  });

  it('draws a reference to a container the block is not inside as an arrow to it: the two-tier ELB and route', () => {
    const graph = terraformNotation.toGraph(fixture('tf-provider-aws-two-tier.main.tf'));
    expect(graph.nodes.find((n) => n.id === 'aws_instance.web')!.parent).toBe('aws_subnet.default');
    // subnets = [aws_subnet.default.id] and route_table_id = aws_vpc.default.main_route_table_id were dropped before.
    expect(arrows(graph)).toEqual(expect.arrayContaining(['aws_elb.web -> aws_subnet.default', 'aws_route.internet_access -> aws_vpc.default']));
    // The subnet's own vpc_id and the instance's subnet_id are drawn by nesting, not repeated as arrows.
    expect(arrows(graph).filter((a) => a.startsWith('aws_instance.web') && a.endsWith('aws_subnet.default'))).toEqual([]);
    expect(arrows(graph)).toHaveLength(7);
  });

  it('wraps a registry submodule source after its //, never between the two slashes (Bank of Anthos GKE)', () => {
    const graph = terraformNotation.toGraph(fixture('bank-of-anthos-gke.main.tf'));
    const apis = graph.nodes.find((n) => n.id === 'module.enabled_google_apis')!;
    // Whatever width the box gets (an icon node draws its rows as label lines, wrapped to the box).
    const source = apis.rows![0]!;
    const split = [];
    for (let width = 120; width <= 560; width += 10) if (wrapText(source, width, FONT.label).some((line, i) => i > 0 && line.startsWith('/'))) split.push(width);
    expect(split).toEqual([]);
  });

  it('draws two modules reading each other (EKS and its IRSA role) as one line with two heads', () => {
    const graph = terraformNotation.toGraph(fixture('learn-provision-eks-cluster.main.tf'));
    const between = graph.edges.filter((e) => [e.from, e.to].includes('module.eks') && [e.from, e.to].includes('module.irsa-ebs-csi'));
    expect(between).toHaveLength(1);
    expect(between[0]).toMatchObject({ startArrowhead: 'arrow', endArrowhead: 'arrow' });
    expect(arrows(graph)).toContain('module.eks -> module.vpc');
  });

  it('reads two files of one module as one input: depends_on across files becomes a dashed arrow', () => {
    const graph = terraformNotation.toGraph(`${fixture('gcp-microservices-demo.main.tf')}\n${fixture('gcp-microservices-demo.memorystore.tf')}`);
    expect(arrows(graph)).toContain('google_redis_instance.redis-cart -> module.enable_google_apis [depends on]');
    expect(arrows(graph)).toContain('null_resource.kustomization-update -> google_redis_instance.redis-cart');
    expect(graph.edges.find((e) => e.label === 'depends on')!.style).toEqual({ strokeStyle: 'dashed' });
    expect(graph.warnings).toEqual([]);
  });

  it('warns about blocks declared in files that were not given', () => {
    const graph = terraformNotation.toGraph(fixture('gcp-microservices-demo.memorystore.tf'));
    expect(graph.warnings).toEqual(['module.enable_google_apis is referenced but not declared in the input (add the file that declares it)']);
    const azure = terraformNotation.toGraph(fixture('azure-aks-store-demo.kubernetes.tf'));
    expect(arrows(azure)).toEqual(['azurerm_role_assignment.acr_pull -> module.aks', 'azurerm_role_assignment.acr_pull -> module.acr']);
  });

  it('draws modules with their source and data sources', () => {
    const graph = terraformNotation.toGraph(fixture('tf-aws-vpc-example-simple.main.tf'));
    expect(graph.nodes.map((n) => [n.id, n.kind, n.rows])).toEqual([
      ['data.aws_availability_zones.available', 'generic', ['data aws_availability_zones']],
      ['module.vpc', 'component', ['module ../../']],
    ]);
    expect(arrows(graph)).toEqual(['module.vpc -> data.aws_availability_zones.available']);
  });
});

describe('terraformNotation references and errors', () => {
  it('finds references in any expression: interpolations, lists, indexes, nested blocks', () => {
    const graph = terraformNotation.toGraph(`
resource "aws_db_instance" "db" {
  db_subnet_group_name = aws_db_subnet_group.g.name
  tags = { Name = "db-\${aws_security_group.sg[0].id}" }
  dynamic "x" {
    for_each = var.list
    content { value = aws_kms_key.k.arn }
  }
}
resource "aws_db_subnet_group" "g" {}
resource "aws_security_group" "sg" {}
resource "aws_kms_key" "k" {}
`);
    expect(arrows(graph).sort()).toEqual(['aws_db_instance.db -> aws_db_subnet_group.g', 'aws_db_instance.db -> aws_kms_key.k', 'aws_db_instance.db -> aws_security_group.sg']);
    expect(graph.nodes[0]).toMatchObject({ kind: 'database', iconRef: 'aws/Amazon RDS' });
  });

  it('names the block that does not parse', () => {
    try {
      terraformNotation.toGraph('resource "a_b" "c" {\n  x = 1\n}\n\n# note\nresource "a_b" "d" {\n  y = \n}\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).message).toBe('line 6, column 1: invalid HCL in the block `resource "a_b" "d"`');
      expect((error as AppError).details).toEqual({ line: 6, column: 1 });
    }
  });

  it('points at an unclosed block', () => {
    expect(() => terraformNotation.toGraph('resource "a_b" "c" {\n  x = 1\n')).toThrow('line 1, column 20: unclosed block or bracket');
  });

  // What a user gets (codeToScene): HCL's own position and words, from the WebAssembly build of HashiCorp's parser.
  it.each([
    ['a string missing its closing quote, mid-block', 'resource "aws_s3_bucket" "logs" {\n  bucket = "logs-archive\n  acl    = "private"\n}\n', 2, 25, 'invalid multi-line string: Quoted strings may not be split'],
    ['a stray character on line 7 of a block from line 3', '# storage\n\nresource "aws_instance" "web" {\n  ami = "ami-123"\n  type = "t3.micro"\n  tags = {\n    Name = "web" @\n  }\n}\n', 7, 18, 'invalid character'],
    ['a second value where a separator belongs', 'resource "aws_instance" "web" {\n  tags = {\n    Name = "web" "db"\n  }\n}\n', 3, 18, 'missing attribute separator'],
    ['a missing value, in the second block', 'resource "a_b" "c" {\n  x = 1\n}\n\n# note\nresource "a_b" "d" {\n  y = \n}\n', 7, 7, 'invalid expression'],
    ['a block never closed: its opening brace', 'resource "a_b" "c" {\n  x = 1\n  lifecycle {\n    create_before_destroy = true\n  }\n', 1, 20, 'unclosed configuration block'],
    ['an unbalanced %{ endif } in a heredoc', 'resource "a_b" "c" {\n  user_data = <<-EOT\n    %{ for s in var.s }${s}%{ endif }\n  EOT\n}\n', 3, 28, 'unexpected endif directive'],
  ])('reports %s where HCL does', async (_case, code, line, column, reason) => {
    const error = await codeToScene(code, { notation: 'terraform' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).details).toEqual({ line, column });
    expect((error as AppError).message).toContain(`line ${line}, column ${column}: ${reason}`);
  });

  it('claims HCL and not YAML', () => {
    expect(terraformNotation.detect(fixture('tf-aws-vpc-example-simple.main.tf'))).toBeGreaterThan(0.8);
    expect(terraformNotation.detect('apiVersion: v1\nkind: Pod\n')).toBe(0);
  });
});

describe('TERRAFORM_ICONS', () => {
  it('names only icons that exist in the catalog', () => {
    const unresolved = Object.entries(TERRAFORM_ICONS).filter(([, ref]) => resolveIconRef(ref) === undefined);
    expect(unresolved).toEqual([]);
  });

  it('says what a count or for_each repeats over, and that a data source reads what a resource of its name made', () => {
    // terraform-google-modules/terraform-google-kubernetes-engine examples/island_cluster_anywhere_in_gcp_design (bb176b2) and
    // Azure/terraform-azurerm-aks examples/application_gateway_ingress, abridged.
    const graph = terraformNotation.toGraph(`resource "google_service_account" "gke-sa" {
  for_each = { for k, v in var.gke_spokes : k => v }
  account_id = "gke-sa"
}
module "net" {
  source   = "terraform-google-modules/network/google"
  for_each = var.gke_spokes
  project_id = each.value["project_id"]
}
resource "azurerm_public_ip" "pip" {
  count = var.use_brown_field_application_gateway && var.bring_your_own_vnet ? 1 : 0
  name  = "appgw-pip"
}
resource "aws_nat_gateway" "this" {
  count = local.create_vpc && var.enable_nat_gateway ? local.nat_gateway_count : 0
}
resource "aws_instance" "web" {
  count = 3
}
resource "kubernetes_ingress_v1" "ing" {
  metadata { name = "ing" }
}
data "kubernetes_ingress_v1" "ing" {
  metadata { name = kubernetes_ingress_v1.ing.metadata[0].name }
}
`);
    expect(Object.fromEntries(graph.nodes.map((n) => [n.id, n.rows]))).toEqual({
      'google_service_account.gke-sa': ['google_service_account', 'one per var.gke_spokes'],
      'module.net': ['module network/google', 'one per var.gke_spokes'],
      'azurerm_public_ip.pip': ['azurerm_public_ip', 'if var.use_brown_field_application_…'],
      'aws_nat_gateway.this': ['aws_nat_gateway', '× local.nat_gateway_count if…'],
      'aws_instance.web': ['aws_instance', '× 3'],
      'kubernetes_ingress_v1.ing': ['kubernetes_ingress_v1'],
      'data.kubernetes_ingress_v1.ing': ['data kubernetes_ingress_v1'],
    });
  });

  it('draws one database for an RDS instance, its parameter and subnet groups as its settings and placement', () => {
    // hashicorp/learn-terraform-rds main.tf, abridged: three cylinders once read as three databases.
    const graph = terraformNotation.toGraph(`resource "aws_db_subnet_group" "education" {
  name       = "education"
  subnet_ids = module.vpc.public_subnets
}
resource "aws_db_parameter_group" "education" {
  name   = "education"
  family = "postgres14"
}
resource "aws_db_instance" "education" {
  identifier             = "education"
  db_subnet_group_name   = aws_db_subnet_group.education.name
  parameter_group_name   = aws_db_parameter_group.education.name
}
`);
    expect(Object.fromEntries(graph.nodes.map((n) => [n.id, n.kind]))).toEqual({
      'aws_db_subnet_group.education': 'network',
      'aws_db_parameter_group.education': 'config',
      'aws_db_instance.education': 'database',
    });
  });
});

describe('resources without an icon of their own (AKS Store demo)', () => {
  it('draws a data source the catalog has no icon for as a box like its iconned neighbours, not as a table among them', async () => {
    const { elements } = await codeToScene(fixture('aks-store-demo.main.tf'), { notation: 'terraform' });
    const box = (label: string) => elements.find((e) => typeof e.text === 'string' && e.text.startsWith(label));
    // data.azurerm_subscription and data.http were a header and a rule over one row, beside the client config's icon box.
    // Two data sources are called `current` (the subscription and the client config): each is titled by its address.
    expect(box('data.azurerm_subscription.current')).toBeDefined();
    expect(box('current_ip\ndata http')).toBeDefined();
    expect(elements.filter((e) => e.id.endsWith('-header'))).toEqual([]);
  });
});
