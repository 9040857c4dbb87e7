import type { IconLibraryDefinition } from '../types.js';
import { awsLibrary } from './aws.js';
import { azureLibrary } from './azure.js';
import { brandsLibrary } from './brands.js';
import { databasesLibrary } from './databases.js';
import { gcpLibrary } from './gcp.js';
import { genericLibrary } from './generic.js';
import { kubernetesLibrary } from './kubernetes.js';

/** Every icon library, in catalog order. Licences: see each definition and ../NOTICE.md. */
export const ICON_LIBRARIES: readonly IconLibraryDefinition[] = [
  awsLibrary,
  azureLibrary,
  gcpLibrary,
  kubernetesLibrary,
  databasesLibrary,
  brandsLibrary,
  genericLibrary,
];
