import type { NodeKind } from '../../graph/types.js';
import { dictionary } from '../../dictionary.js';

/** Icons of the icon catalog (`aws/Amazon RDS`; every ref must resolve, see the test) for the resource types seen most; others get the type as icon hint. */
export const TERRAFORM_ICONS: Readonly<Record<string, string>> = dictionary({
  aws_db_instance: 'aws/Amazon RDS',
  aws_rds_cluster: 'aws/Amazon Aurora',
  aws_instance: 'aws/Amazon EC2',
  aws_autoscaling_group: 'aws/Amazon EC2 Auto Scaling',
  aws_lb: 'aws/Elastic Load Balancing',
  aws_alb: 'aws/Elastic Load Balancing',
  aws_s3_bucket: 'aws/Amazon S3',
  aws_lambda_function: 'aws/AWS Lambda',
  aws_dynamodb_table: 'aws/Amazon DynamoDB',
  aws_sqs_queue: 'aws/Amazon SQS',
  aws_sns_topic: 'aws/Amazon SNS',
  aws_elasticache_cluster: 'aws/Amazon ElastiCache',
  aws_ecs_service: 'aws/Amazon ECS',
  aws_eks_cluster: 'aws/Amazon EKS',
  // The AWS icon set has no VPC, subnet, gateway or route table icons: the generic ones say what they are.
  aws_vpc: 'generic/Network',
  aws_subnet: 'generic/Network',
  aws_internet_gateway: 'generic/Internet',
  aws_nat_gateway: 'generic/Router',
  aws_route_table: 'generic/Router',
  aws_route: 'generic/Router',
  aws_vpn_gateway: 'aws/AWS Site to Site VPN',
  aws_customer_gateway: 'aws/AWS Site to Site VPN',
  aws_cloudfront_distribution: 'aws/Amazon CloudFront',
  aws_api_gateway_rest_api: 'aws/Amazon API Gateway',
  aws_iam_role: 'aws/AWS IAM',
  google_container_cluster: 'gcp/Google Kubernetes Engine',
  google_redis_instance: 'gcp/Memorystore',
  google_sql_database_instance: 'gcp/Cloud SQL',
  google_storage_bucket: 'gcp/Cloud Storage',
  google_compute_instance: 'gcp/Compute Engine',
  google_compute_network: 'gcp/Virtual Private Cloud',
  google_pubsub_topic: 'gcp/Pub/Sub',
  google_cloud_run_service: 'gcp/Cloud Run',
  azurerm_kubernetes_cluster: 'azure/Kubernetes Services',
  azurerm_container_registry: 'azure/Container Registries',
  azurerm_resource_group: 'azure/Resource Groups',
  azurerm_virtual_network: 'azure/Virtual Networks',
  azurerm_storage_account: 'azure/Storage Accounts',
  azurerm_mssql_server: 'azure/SQL Server',
  azurerm_postgresql_flexible_server: 'azure/Database for PostgreSQL',
  azurerm_log_analytics_workspace: 'azure/Log Analytics Workspaces',
  azurerm_role_assignment: 'generic/Identity',
});

/** Role from the resource type's words (`aws_db_instance` → database); checked in order, first match wins. */
const KIND_BY_WORD: [RegExp, NodeKind][] = [
  // A database's settings and placement are not databases of their own (`aws_db_parameter_group`,
  // `aws_db_subnet_group`, `azurerm_postgresql_flexible_server_configuration`): one cylinder per database.
  [/_(parameter_group|option_group|configuration)$/, 'config'],
  [/_(subnet_group|firewall_rule)$/, 'network'],
  [/_(db|rds|sql|postgres|postgresql|mysql|dynamodb|cosmosdb|spanner|bigtable|firestore|database)(_|$)/, 'database'],
  [/_(redis|elasticache|memcache|cache)(_|$)/, 'cache'],
  [/_(sqs|sns|pubsub|queue|topic|kinesis|eventhub|servicebus)(_|$)/, 'queue'],
  [/_(s3|bucket|storage|disk|volume|ebs|efs|blob)(_|$)/, 'storage'],
  [/_(vpc|subnet|subnetwork|network|route|nat|gateway|internet|vpn|dhcp|acl|firewall|security_group|peering|eip)(_|$)/, 'network'],
  [/_(lb|alb|elb|load_balancer|api_gateway|apigateway|cloudfront|cdn|ingress)(_|$)/, 'gateway'],
  [/_(iam|role|policy|key|kms|secret|certificate|acm|identity)(_|$)/, 'secret'],
  [/_(instance|cluster|function|service|app|container|vm|virtual_machine|node_pool|autoscaling)(_|$)/, 'workload'],
];

export function kindOfType(type: string): NodeKind {
  return KIND_BY_WORD.find(([pattern]) => pattern.test(type))?.[1] ?? 'generic';
}

/**
 * Containment: the attribute that places a resource inside another, and the resource types that attribute points
 * at. A resource that anything is placed in becomes a container (GraphGroup) instead of a node.
 */
export const CONTAINER_ATTRIBUTES: readonly { attribute: string; types: readonly string[] }[] = [
  { attribute: 'subnet_id', types: ['aws_subnet', 'azurerm_subnet'] },
  { attribute: 'subnetwork', types: ['google_compute_subnetwork'] },
  { attribute: 'virtual_network_name', types: ['azurerm_virtual_network'] },
  { attribute: 'vpc_id', types: ['aws_vpc'] },
  { attribute: 'network', types: ['google_compute_network'] },
  { attribute: 'resource_group_name', types: ['azurerm_resource_group'] },
];
