import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { SCOPES } from '../../../core/scopes.js';

/** The path of the MCP endpoint, the one resource this service protects with OAuth. */
export const MCP_PATH = '/mcp';

/**
 * RFC 9728 §3: the metadata sits at the well-known prefix plus the resource's path; the bare form serves clients
 * that probe the origin first (the MCP specification has clients try both, path-suffixed first).
 */
export const PROTECTED_RESOURCE_PATHS = ['/.well-known/oauth-protected-resource', `/.well-known/oauth-protected-resource${MCP_PATH}`] as const;

/** Where a 401 from `/mcp` points a client (RFC 9728 §5.1 `resource_metadata`). */
export const resourceMetadataUrl = (publicUrl: string): string => `${publicUrl}${PROTECTED_RESOURCE_PATHS[1]}`;

const protectedResourceMetadata = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
  resource_documentation: z.string(),
});

/**
 * Protected Resource Metadata for `/mcp`: tells an MCP client which authorization server signs users in and which
 * scopes exist. The resource is the canonical `/mcp` URL under PUBLIC_URL, the audience tokens must name (RFC 8707).
 */
export const protectedResourceRoutes: FastifyPluginAsync<{ publicUrl: string }> = async (app, { publicUrl }) => {
  const metadata = {
    resource: `${publicUrl}${MCP_PATH}`,
    authorization_servers: [publicUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Drawbridge',
    resource_documentation: `${publicUrl}/docs`,
  };
  for (const url of PROTECTED_RESOURCE_PATHS) {
    app.get(url, { config: { public: true }, schema: { hide: true, response: { 200: protectedResourceMetadata } } }, async (_request, reply) =>
      // Browser-based clients (the MCP Inspector, web connectors) read it cross-origin.
      reply.header('Access-Control-Allow-Origin', '*').header('Cache-Control', 'public, max-age=3600').send(metadata),
    );
  }
};
