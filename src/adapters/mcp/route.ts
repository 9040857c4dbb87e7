import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsync } from 'fastify';
import { ownValue } from '../../core/dictionary.js';
import type { Scope } from '../../core/scopes.js';
import { mcpMessagesCost } from '../../service/costs.js';
import type { Services } from '../../service/index.js';
import type { Principal } from '../../service/principal.js';
import { bearerChallenge, setRateHeaders } from '../http/errors.js';
import { RawJsonSplice } from './results.js';
import { createMcpServer, TOOL_SCOPES } from './server.js';

const looksLikeJsonRpc = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0' && ('method' in value || 'id' in value);

/** The request headers the transport reads; copying only these keeps the web Request cheap. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'] as const;

const jsonRpcError = (code: number, message: string, id: unknown = null, data?: object) => ({ jsonrpc: '2.0', error: { code, message, ...(data && { data }) }, id });

/** The first tool call among `messages` that needs a scope the principal lacks, with the scopes it lacks. */
function callLackingScope(principal: Principal, messages: readonly unknown[]): { id: unknown; tool: string; lacking: Scope[] } | undefined {
  for (const message of messages) {
    const { method, params, id } = message as { method?: unknown; params?: { name?: unknown }; id?: unknown };
    const tool = params?.name;
    if (method !== 'tools/call' || typeof tool !== 'string') continue;
    const lacking = (ownValue(TOOL_SCOPES, tool) ?? []).filter((scope) => !principal.scopes.includes(scope));
    if (lacking.length > 0) return { id: id ?? null, tool, lacking };
  }
  return undefined;
}

/**
 * `/mcp`: streamable HTTP, stateless, JSON responses. Authentication, the rate limit and request ids come from the
 * app's onRequest hook, exactly as for REST; this plugin only hands the JSON-RPC message to a fresh server.
 */
export const mcpRoutes: FastifyPluginAsync<{ services: Services; resourceMetadata?: string }> = async (app, { services, resourceMetadata }) => {
  // The body is parsed here rather than by Fastify so that malformed JSON gets JSON-RPC's parse error (-32700).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/mcp', { config: { chargedByHandler: true, door: 'mcp' }, schema: { hide: true } }, async (request, reply) => {
    let message: unknown;
    try {
      message = JSON.parse(request.body as string);
    } catch {
      setRateHeaders(reply, await services.charge(request.principal, 1));
      return reply.code(400).send(jsonRpcError(-32700, 'Parse error: the body is not valid JSON'));
    }
    // Valid JSON that is no JSON-RPC message is an Invalid Request (-32600); the SDK would call it a parse error.
    // The shape test is cheap on purpose: the SDK validates each message fully right after.
    const messages = Array.isArray(message) ? message : [message];
    const valid = messages.length > 0 && messages.every(looksLikeJsonRpc);
    // Scope step-up (MCP authorization 2025-11-25, RFC 6750 §3.1): a call the token has not the scope for is refused
    // before it runs, with 403 and a challenge naming the scopes to sign in again with. They are the token's scopes plus
    // the missing ones, as the specification recommends, so that an OAuth client does not lose what it had. Like
    // every refusal, it costs nothing.
    const refused = valid ? callLackingScope(request.principal, messages) : undefined;
    if (refused) {
      const message = `this token lacks the scope${refused.lacking.length > 1 ? 's' : ''} ${refused.lacking.map((s) => `"${s}"`).join(' and ')}, which ${refused.tool} needs`;
      const scope = [...new Set([...request.principal.scopes, ...refused.lacking])].join(' ');
      reply.header('WWW-Authenticate', bearerChallenge(resourceMetadata, { error: 'insufficient_scope', scope, error_description: message }));
      return reply.code(403).send(jsonRpcError(-32003, message, refused.id, { code: 'insufficient_scope', required: refused.lacking }));
    }
    // Each message of a batch is charged, tool calls at their operation's cost: a batch is no way around the limit.
    setRateHeaders(reply, await services.charge(request.principal, valid ? mcpMessagesCost(messages) : 1));
    if (!valid) return reply.code(400).send(jsonRpcError(-32600, 'Invalid Request: expected a JSON-RPC 2.0 message (jsonrpc, method, id)'));
    const splice = new RawJsonSplice();
    const server = createMcpServer(services, request.principal, request.log, splice);
    // The web-standard transport answers with a Response that Fastify sends like any other reply, keeping the
    // headers set earlier (request id, rate limit). The SDK's Node wrapper waits a timer tick per response.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    const headers = new Headers();
    for (const name of TRANSPORT_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    // Every answer here is JSON, never a stream: a client that accepts JSON (or anything) is served rather than
    // refused with 406 for not also listing text/event-stream, which it would never receive.
    const accept = headers.get('accept') ?? '*/*';
    if (/application\/json|\*\/\*|application\/\*/i.test(accept) && !/text\/event-stream/i.test(accept)) headers.set('accept', `${accept}, text/event-stream`);
    const response = await transport.handleRequest(new Request(`http://mcp.local${request.url}`, { method: 'POST', headers }), { parsedBody: message });
    // Not closed: in JSON mode every response is out once handleRequest resolves, nothing is pending, and both
    // objects are garbage; closing only built a "connection closed" error (with its stack) per request.
    reply.code(response.status);
    response.headers.forEach((value, name) => void reply.header(name, value));
    return reply.send(splice.apply(await response.text()));
  });

  // Stateless: no server-initiated stream to GET and no session to DELETE; nothing else is MCP at all.
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: '/mcp',
    config: { public: true },
    schema: { hide: true },
    handler: async (_request, reply) =>
      reply.code(405).header('Allow', 'POST').send(jsonRpcError(-32000, 'Method not allowed: this stateless MCP endpoint takes POST only')),
  });
};
