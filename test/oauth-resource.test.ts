import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { extractWWWAuthenticateParams, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/infra/config.js';
import { useTestService } from './support/world.js';

const withOauth = useTestService({ listen: true, config: { oauth: true } });
const withoutOauth = useTestService({ listen: true });

const toolsList = (url: string, authorization?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe('/mcp as an OAuth protected resource (OAUTH=on)', () => {
  it('points a client without a token to the resource metadata, which names the resource, server and scopes', async () => {
    const res = await toolsList(withOauth.mcpUrl);
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toBe('Bearer realm="drawbridge", resource_metadata="http://drawbridge.test/.well-known/oauth-protected-resource/mcp"');

    // The SDK client reads the challenge and fetches the metadata the way a connector does (here from the listener).
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(res);
    expect(resourceMetadataUrl?.pathname).toBe('/.well-known/oauth-protected-resource/mcp');
    const metadata = await discoverOAuthProtectedResourceMetadata(withOauth.mcpUrl);
    expect(metadata).toEqual({
      resource: 'http://drawbridge.test/mcp',
      authorization_servers: ['http://drawbridge.test'],
      scopes_supported: ['diagrams:read', 'diagrams:write', 'export', 'ai:generate'],
      bearer_methods_supported: ['header'],
      resource_name: 'Drawbridge',
      resource_documentation: 'http://drawbridge.test/docs',
    });
    const bare = await fetch(new URL('/.well-known/oauth-protected-resource', withOauth.mcpUrl));
    expect(bare.status).toBe(200);
    expect(bare.headers.get('access-control-allow-origin')).toBe('*');
    expect(await bare.json()).toEqual(metadata);
  });

  it('says invalid_token beside the metadata URL when the token is wrong', async () => {
    const res = await toolsList(withOauth.mcpUrl, `Bearer drb_live_${'y'.repeat(43)}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="drawbridge", resource_metadata="http:\/\/drawbridge\.test\/\.well-known\/oauth-protected-resource\/mcp", error="invalid_token", error_description="the API token is not known here/,
    );
  });

  it('keeps API tokens working unchanged', async () => {
    const client = new Client({ name: 'drawbridge-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(withOauth.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${withOauth.world.tokens.annAll}` } } }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    await client.close();
  });

  it('names the metadata only on /mcp: REST 401s keep the plain challenge', async () => {
    const res = await fetch(new URL('/api-v1/workspaces', withOauth.mcpUrl));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="drawbridge"');
  });
});

describe('OAUTH=off', () => {
  it('serves no resource metadata and a plain challenge', async () => {
    const res = await toolsList(withoutOauth.mcpUrl);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="drawbridge"');
    expect((await fetch(new URL('/.well-known/oauth-protected-resource/mcp', withoutOauth.mcpUrl))).status).toBe(404);
  });
});

describe('the OAUTH setting', () => {
  it('is on unless set off, and refuses anything else by name', () => {
    expect(loadConfig({}).oauth).toBe(true);
    expect(loadConfig({ OAUTH: 'on' }).oauth).toBe(true);
    expect(loadConfig({ OAUTH: 'off' }).oauth).toBe(false);
    expect(() => loadConfig({ OAUTH: 'yes' })).toThrow('OAUTH must be on or off, got "yes"');
  });
});
