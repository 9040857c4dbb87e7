import gcpModule from '@isoflow/isopacks/dist/gcp.js';
import type { IconLibraryDefinition } from '../types.js';
import { isopackItems, unwrapIsopack, type IsopackNaming } from './isopacks.js';
import { titleFromSlug } from './words.js';
import { dictionary } from '../../dictionary.js';

/**
 * Google Cloud product icons, from `@isoflow/isopacks` (collection `gcp`).
 * Licence: Google provides these icons for architecture diagrams of Google Cloud
 * (https://cloud.google.com/icons); the isopacks package is published as "Varies" per collection.
 */

const SHORT_NAMES: Record<string, IsopackNaming> = dictionary({
  _gcp_: { label: 'Google Cloud', aliases: ['GCP', 'Google Cloud Platform'] },
  bigtable: { label: 'Bigtable', aliases: ['Cloud Bigtable'] },
  pubsub: { label: 'Pub/Sub', aliases: ['PubSub', 'Cloud Pub/Sub', 'topic', 'message queue'] },
  'google-kubernetes-engine': { label: 'Google Kubernetes Engine', aliases: ['GKE'] },
  'gke-on-prem': { label: 'GKE On-Prem' },
  'cloud-storage': { label: 'Cloud Storage', aliases: ['GCS', 'bucket', 'object storage'] },
  'cloud-sql': { label: 'Cloud SQL', aliases: ['PostgreSQL', 'MySQL'] },
  'cloud-load-balancing': { label: 'Cloud Load Balancing', aliases: ['load balancer', 'LB'] },
  'compute-engine': { label: 'Compute Engine', aliases: ['GCE', 'virtual machine', 'VM'] },
  'cloud-functions': { label: 'Cloud Functions', aliases: ['function', 'serverless function'] },
  memorystore: { label: 'Memorystore', aliases: ['Redis', 'cache'] },
  vertexai: { label: 'Vertex AI' },
  'cloud-optimization-ai---fleet-routing-api': { label: 'Cloud Optimization AI - Fleet Routing API' },
  'identity-and-access-management': { label: 'Identity and Access Management', aliases: ['IAM'] },
  'virtual-private-cloud': { label: 'Virtual Private Cloud', aliases: ['VPC'] },
  'data-qna': { label: 'Data QnA' },
});

const collection = unwrapIsopack(gcpModule);

export const gcpLibrary: IconLibraryDefinition = {
  id: 'gcp',
  name: 'Google Cloud',
  vendor: 'gcp',
  vendorWords: ['gcp', 'google'],
  items: () =>
    isopackItems(collection, (id) => {
      const slug = id.replace(/^gcp-/, '');
      return SHORT_NAMES[id] ?? SHORT_NAMES[slug] ?? { label: titleFromSlug(slug) };
    }),
};
