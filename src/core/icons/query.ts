import { z } from 'zod';
import { ICON_VENDORS, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from './limits.js';

/**
 * What an icon search takes, as one schema: the REST route and the MCP tool validate with it, and the drawing guide
 * names its parameters from it, so the guide cannot drift from the API.
 */
export const vendor = z
  .enum(ICON_VENDORS, { error: `vendor must be one of ${ICON_VENDORS.join(', ')}` })
  .describe('Scene-level hint: prefer this vendor\'s icon set for best-guess icons');

export const iconSearchQuery = z.object({
  query: z.string().min(1, 'query must not be empty').max(200, 'query must be at most 200 characters').describe('Words to look for: "postgres", "s3", "k8s pod", "load balancer"'),
  vendor: vendor.optional().describe('Rank this vendor\'s icons first (aws, azure, gcp, kubernetes)'),
  limit: z.coerce
    .number()
    .int(`limit must be an integer between 1 and ${SEARCH_LIMIT_MAX}`)
    .min(1, `limit must be an integer between 1 and ${SEARCH_LIMIT_MAX}`)
    .max(SEARCH_LIMIT_MAX, `limit must be an integer between 1 and ${SEARCH_LIMIT_MAX}`)
    .default(SEARCH_LIMIT_DEFAULT),
});
