import azureModule from '@isoflow/isopacks/dist/azure.js';
import type { IconLibraryDefinition } from '../types.js';
import { isopackItems, unwrapIsopack, type IsopackNaming } from './isopacks.js';
import { titleFromSlug } from './words.js';
import { dictionary } from '../../dictionary.js';

/**
 * Azure Architecture Icons, from `@isoflow/isopacks` (collection `azure`).
 * Licence: Microsoft permits these icons in architecture diagrams, training and documentation
 * (https://learn.microsoft.com/azure/architecture/icons/); not to represent another product.
 * Labels follow Azure's icon names without the "Azure" prefix, which the library already says.
 */

const SHORT_NAMES: Record<string, IsopackNaming> = dictionary({
  _azure_: { label: 'Microsoft Azure', aliases: ['Azure'] },
  'cosmos-db': { label: 'Cosmos DB', aliases: ['CosmosDB', 'Azure Cosmos DB'] },
  'cache-redis': { label: 'Cache for Redis', aliases: ['Azure Cache for Redis', 'Redis', 'cache'] },
  'database-postgresql-server': { label: 'Database for PostgreSQL', aliases: ['PostgreSQL', 'Postgres'] },
  'database-postgresql-server-group': { label: 'Database for PostgreSQL Server Group', aliases: ['Citus'] },
  'database-mysql-server': { label: 'Database for MySQL', aliases: ['MySQL'] },
  'database-mariadb-server': { label: 'Database for MariaDB', aliases: ['MariaDB'] },
  'sql-database': { label: 'SQL Database', aliases: ['Azure SQL'] },
  'kubernetes-services': { label: 'Kubernetes Services', aliases: ['AKS', 'Azure Kubernetes Service'] },
  'function-apps': { label: 'Function Apps', aliases: ['Azure Functions', 'function', 'serverless function'] },
  'storage-accounts': { label: 'Storage Accounts', aliases: ['Blob Storage', 'storage'] },
  'service-bus': { label: 'Service Bus', aliases: ['queue', 'message queue'] },
  'storage-queue': { label: 'Storage Queue', aliases: ['queue'] },
  'virtual-machine': { label: 'Virtual Machine', aliases: ['VM'] },
  'vm-scale-sets': { label: 'VM Scale Sets', aliases: ['VMSS'] },
  'load-balancers': { label: 'Load Balancers', aliases: ['load balancer', 'LB'] },
  'application-gateways': { label: 'Application Gateways', aliases: ['App Gateway'] },
  // Azure's API gateway product: what "api gateway azure" means.
  'api-management-services': { label: 'API Management Services', aliases: ['API Management', 'APIM', 'API Gateway'] },
  'active-directory': { label: 'Active Directory', aliases: ['AAD', 'Entra ID'] },
  'key-vaults': { label: 'Key Vaults', aliases: ['Key Vault', 'secrets'] },
  'container-registries': { label: 'Container Registries', aliases: ['ACR', 'container registry'] },
  'hd-insight-clusters': { label: 'HDInsight Clusters', aliases: ['HDInsight'] },
  'web-application-firewall-policieswaf': { label: 'Web Application Firewall Policies (WAF)', aliases: ['WAF'] },
  machinesazurearc: { label: 'Machines - Azure Arc', aliases: ['Arc machines'] },
  azureattestation: { label: 'Attestation', aliases: ['Azure Attestation'] },
  extendedsecurityupdates: { label: 'Extended Security Updates' },
  'support-center-blue': { label: 'Support Center' },
});

const collection = unwrapIsopack(azureModule);

export const azureLibrary: IconLibraryDefinition = {
  id: 'azure',
  name: 'Azure',
  vendor: 'azure',
  vendorWords: ['azure', 'microsoft'],
  items: () =>
    isopackItems(collection, (id) => {
      const slug = id.replace(/^azure-/, '');
      return SHORT_NAMES[id] ?? SHORT_NAMES[slug] ?? { label: titleFromSlug(slug) };
    }),
};
