import awsModule from '@isoflow/isopacks/dist/aws.js';
import type { IconLibraryDefinition } from '../types.js';
import { isopackItems, unwrapIsopack, type IsopackNaming } from './isopacks.js';
import { titleFromSlug } from './words.js';
import { dictionary } from '../../dictionary.js';

/**
 * AWS Architecture Icons, from `@isoflow/isopacks` (collection `aws`).
 * Licence: the AWS Architecture Icons may be used in architecture diagrams under AWS's icon terms
 * (https://aws.amazon.com/architecture/icons/); the isopacks package is published as "Varies" per collection.
 * `aws-icons` (MIT, fresher) ships loose SVG files only, which the pure core cannot read without fs.
 */

/** Services AWS names "Amazon …"; the rest are "AWS …" (slug stems as the package spells them). */
const AMAZON = new Set(
  (
    'api-gateway appflow appstream athena augmented-ai-a2i aurora braket chime chime-sdk chime-voice-connector ' +
    'cloud-directory cloudfront cloudsearch cloudwatch codeguru codewhisperer cognito comprehend comprehend-medical ' +
    'connect corretto detective devops-guru documentdb dynamodb ec2 ec2-auto-scaling ec2-image-builder ec2-m5n ' +
    'ec2-r5n ecs-anywhere efs eks-anywhere eks-cloud eks-distro elastic-block-store elastic-container-kubernetes ' +
    'elastic-container-registry elastic-container-service elastic-inference elastic-kubernetes-service ' +
    'elastic-transcoder elasticache emr eventbridge finspace forecast fraud-detector freertos gamelift gamesparks ' +
    'guardduty healthlake honeycode inspector interactive-video-service kendra keyspaces kinesis ' +
    'kinesis-data-analytics kinesis-data-streams kinesis-firehose kinesis-video-streams lex lightsail ' +
    'location-service lookout-for-equipment lookout-for-metrics lookout-for-vision macie managed-blockchain ' +
    'managed-grafana managed-service-for-prometheus managed-streaming-for-apache-kafka ' +
    'managed-workflows-for-apache-airflow memorydb-for-redis monitron mq neptune nimble-studio opensearch-service ' +
    'personalize pinpoint pinpoint-apis polly quantum-ledger-database quicksight rds rds-on-vmware redshift ' +
    'rekognition route-53 s3-on-outposts sagemaker sagemaker-ground-truth sagemaker-studio-lab ' +
    'simple-email-service simple-notification-service simple-queue-service simple-storage-service ' +
    'simple-storage-service-glacier sumerian textract timestream transcribe translate workdocs workdocs-sdk worklink ' +
    'workmail workspaces workspaces-web'
  ).split(' '),
);

/** Where AWS's everyday short name differs from the slug; the long name stays searchable as an alias. */
const SHORT_NAMES: Record<string, IsopackNaming> = dictionary({
  _aws_: { label: 'AWS', aliases: ['Amazon Web Services'] },
  'simple-storage-service': { label: 'Amazon S3', aliases: ['S3', 'Simple Storage Service', 'bucket', 'object storage'] },
  'simple-storage-service-glacier': { label: 'Amazon S3 Glacier', aliases: ['Glacier', 'archive storage'] },
  'simple-queue-service': { label: 'Amazon SQS', aliases: ['SQS', 'Simple Queue Service', 'queue'] },
  'simple-notification-service': { label: 'Amazon SNS', aliases: ['SNS', 'Simple Notification Service', 'pub sub', 'topic'] },
  'simple-email-service': { label: 'Amazon SES', aliases: ['SES', 'Simple Email Service', 'email'] },
  ec2: { label: 'Amazon EC2', aliases: ['EC2', 'Elastic Compute Cloud', 'virtual machine', 'instance'] },
  rds: { label: 'Amazon RDS', aliases: ['RDS', 'Relational Database Service'] },
  'elastic-block-store': { label: 'Amazon EBS', aliases: ['EBS', 'Elastic Block Store', 'volume'] },
  efs: { label: 'Amazon EFS', aliases: ['Elastic File System', 'file system'] },
  'elastic-container-registry': { label: 'Amazon ECR', aliases: ['ECR', 'Elastic Container Registry', 'container registry'] },
  'elastic-container-service': { label: 'Amazon ECS', aliases: ['ECS', 'Elastic Container Service'] },
  'elastic-kubernetes-service': { label: 'Amazon EKS', aliases: ['EKS', 'Elastic Kubernetes Service'] },
  'elastic-load-balancing': { label: 'Elastic Load Balancing', aliases: ['ELB', 'ALB', 'NLB', 'load balancer'] },
  'managed-streaming-for-apache-kafka': { label: 'Amazon MSK', aliases: ['MSK', 'Managed Streaming for Apache Kafka', 'Kafka'] },
  'managed-workflows-for-apache-airflow': { label: 'Amazon MWAA', aliases: ['MWAA', 'Managed Workflows for Apache Airflow', 'Airflow'] },
  'identity-and-access-management': { label: 'AWS IAM', aliases: ['IAM', 'Identity and Access Management'] },
  'key-management-service': { label: 'AWS KMS', aliases: ['KMS', 'Key Management Service'] },
  'x-ray': { label: 'AWS X-Ray', aliases: ['XRay', 'tracing'] },
  'route-53': { label: 'Amazon Route 53', aliases: ['Route53', 'DNS'] },
  lambda: { label: 'AWS Lambda', aliases: ['Lambda', 'function', 'serverless function'] },
  dynamodb: { label: 'Amazon DynamoDB', aliases: ['DynamoDB', 'Dynamo'] },
  elasticache: { label: 'Amazon ElastiCache', aliases: ['ElastiCache', 'cache'] },
  cloudfront: { label: 'Amazon CloudFront', aliases: ['CloudFront', 'CDN'] },
  'api-gateway': { label: 'Amazon API Gateway', aliases: ['API Gateway'] },
  'opensearch-service': { label: 'Amazon OpenSearch Service', aliases: ['OpenSearch', 'Elasticsearch'] },
  'memorydb-for-redis': { label: 'Amazon MemoryDB for Redis', aliases: ['MemoryDB'] },
  waf: { label: 'AWS WAF', aliases: ['web application firewall'] },
});

const collection = unwrapIsopack(awsModule);

export const awsLibrary: IconLibraryDefinition = {
  id: 'aws',
  name: 'AWS',
  vendor: 'aws',
  vendorWords: ['aws', 'amazon'],
  items: () =>
    isopackItems(collection, (id) => {
      const slug = id.replace(/^aws-/, '');
      const short = SHORT_NAMES[id] ?? SHORT_NAMES[slug];
      if (short) return short;
      const name = titleFromSlug(slug.replace(/&/g, 'and'));
      return { label: `${AMAZON.has(slug) ? 'Amazon' : 'AWS'} ${name}`, aliases: [name] };
    }),
};
