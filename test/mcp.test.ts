import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/adapters/http/server.js';
import { TOOL_SCOPES } from '../src/adapters/mcp/server.js';
import { createBackend, testConfig } from './support/backends.js';
import { box, buildWorld, useTestService } from './support/world.js';

const service = useTestService({ listen: true });

async function connect(token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'drawbridge-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(service.mcpUrl), { requestInit: { headers } }));
  return client;
}

const structured = (result: unknown) => (result as CallToolResult).structuredContent as any;
const errorOf = (result: unknown) => {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  return JSON.parse((r.content[0] as { text: string }).text).error as { code: string; message: string };
};

describe('MCP over streamable HTTP with the SDK client', () => {
  it('initialises statelessly and lists the tools', async () => {
    const client = await connect(service.world.tokens.annAll);
    expect(client.getServerVersion()?.name).toBe('drawbridge');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['create_diagram', 'delete_diagram', 'diagram_from_code', 'export_to_code', 'generate_from_prompt', 'get_diagram', 'get_version', 'list_diagrams', 'list_shape_libraries', 'list_versions', 'list_workspaces', 'restore_version', 'search_icons', 'share_diagram', 'unshare_diagram', 'update_diagram'],
    );
    for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(40);
    // The scopes /mcp checks before a call are the ones each description tells the model about.
    for (const tool of tools) expect(/Needs scopes? ([^.]*)/.exec(tool.description!)?.[1]!.split(/ and | /).filter((word) => TOOL_SCOPES[tool.name]!.includes(word as never) || word.includes(':')) ?? []).toEqual(TOOL_SCOPES[tool.name]);
    await client.close();
  });

  it('creates, lists, reads, updates and deletes a diagram', async () => {
    const client = await connect(service.world.tokens.annAll);
    const workspaces = structured(await client.callTool({ name: 'list_workspaces', arguments: {} }));
    expect(workspaces.items.map((w: any) => w.id)).toContain(service.world.annWorkspace);

    const created = structured(await client.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: 'From MCP', elements: [box('api'), box('db', 300)] } }));
    expect(created).toMatchObject({ name: 'From MCP', version: 1, format: 'native' });

    const listed = structured(await client.callTool({ name: 'list_diagrams', arguments: { workspaceId: service.world.annWorkspace, limit: 100 } }));
    expect(listed.items.map((d: any) => d.id)).toContain(created.id);

    const read = structured(await client.callTool({ name: 'get_diagram', arguments: { id: created.id } }));
    expect(read.elements.map((e: any) => e.id)).toEqual(['api', 'db']);

    const updated = structured(await client.callTool({ name: 'update_diagram', arguments: { id: created.id, name: 'Renamed', expectedVersion: 1 } }));
    expect(updated).toMatchObject({ name: 'Renamed', version: 2 });
    const stale = errorOf(await client.callTool({ name: 'update_diagram', arguments: { id: created.id, name: 'Again', expectedVersion: 1 } }));
    expect(stale.code).toBe('version_mismatch');

    expect(structured(await client.callTool({ name: 'delete_diagram', arguments: { id: created.id } }))).toEqual({ deleted: created.id });
    expect(errorOf(await client.callTool({ name: 'get_diagram', arguments: { id: created.id } })).code).toBe('not_found');
    await client.close();
  });

  it('returns the stored document exactly as REST does, in both the structured and the text block', async () => {
    const owner = await connect(service.world.tokens.annAll);
    // Text that looks like the server's own splice placeholders, JSON specials and Unicode must come back verbatim.
    const tricky = ['"drawbridge-raw-000000000000000000000000-0"', 'quote " backslash \\ tab \t', 'naïve → 日本 🚀'];
    const elements = tricky.map((text, i) => ({ ...box(`t${i}`, i * 200), text }));
    const created = structured(await owner.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: 'Exact', elements } }));
    const rest = await service.runtime.app.inject({ url: `/api-v1/documents/${created.id}`, headers: { authorization: `Bearer ${service.world.tokens.annAll}` } });
    const read = (await owner.callTool({ name: 'get_diagram', arguments: { id: created.id } })) as CallToolResult;
    expect(read.structuredContent).toEqual(rest.json());
    expect(JSON.parse((read.content[0] as { text: string }).text)).toEqual(rest.json());
    expect((read.structuredContent as any).elements.map((e: any) => e.text)).toEqual(tricky);
    await owner.close();
  });

  it('returns a PNG preview with get_diagram when asked, so a model can look at its drawing', async () => {
    const client = await connect(service.world.tokens.annRead);
    const owner = await connect(service.world.tokens.annAll);
    const created = structured(await owner.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: 'Look', elements: [box('api'), box('db', 300)] } }));
    const plain = (await client.callTool({ name: 'get_diagram', arguments: { id: created.id } })) as CallToolResult;
    expect(plain.content.map((c) => c.type)).toEqual(['text']);
    const withPreview = (await client.callTool({ name: 'get_diagram', arguments: { id: created.id, preview: true } })) as CallToolResult;
    expect(withPreview.content.map((c) => c.type)).toEqual(['text', 'image']);
    const image = withPreview.content[1] as { data: string; mimeType: string };
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect((withPreview.structuredContent as any).id).toBe(created.id);
    await client.close();
    await owner.close();
  });

  it('answers bad input with the same precise message as REST, and writes nothing', async () => {
    const client = await connect(service.world.tokens.annAll);
    const error = errorOf(await client.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: 'Bad', elements: [box('a'), { id: 'b' }] } }));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('elements[1]');
    const rest = await service.runtime.app.inject({
      method: 'POST',
      url: '/api-v1/documents',
      headers: { authorization: `Bearer ${service.world.tokens.annAll}` },
      payload: { workspaceId: service.world.annWorkspace, name: 'Bad', elements: [box('a'), { id: 'b' }] },
    });
    expect(rest.json().error.message).toBe(error.message);
    const listed = structured(await client.callTool({ name: 'list_diagrams', arguments: { workspaceId: service.world.annWorkspace, limit: 100 } }));
    expect(listed.items.map((d: any) => d.name)).not.toContain('Bad');
    await client.close();
  });

  it('answers arguments that fail their schema with the validation error REST gives, field by field', async () => {
    const client = await connect(service.world.tokens.annAll);
    const long = 'x'.repeat(201);
    const error = errorOf(await client.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: long } }));
    const rest = await service.runtime.app.inject({
      method: 'POST',
      url: '/api-v1/documents',
      headers: { authorization: `Bearer ${service.world.tokens.annAll}` },
      payload: { workspaceId: service.world.annWorkspace, name: long },
    });
    expect(error.code).toBe('validation_failed');
    // The same words as REST, with the tool's arguments where REST has the request body.
    expect(error.message).toBe(rest.json().error.message.replace(/^body\./, 'arguments.'));
    expect(error.message).toMatch(/^arguments\.name: /);
    expect(errorOf(await client.callTool({ name: 'get_diagram', arguments: { id: 42 } })).message).toMatch(/^arguments\.id: /);
    expect(errorOf(await client.callTool({ name: 'list_diagrams', arguments: { workspaceId: service.world.annWorkspace, limit: 0 } })).message).toMatch(/^arguments\.limit: /);
    // A misspelt argument is named, not dropped (an update would otherwise store nothing and say it worked).
    const misspelt = errorOf(await client.callTool({ name: 'update_diagram', arguments: { id: 'doc_x', elemnts: [] } }));
    expect(misspelt.message).toBe('arguments: unknown field "elemnts"; the fields are id, name, elements, operations, code, notation, detail, layout, vendor, autoIcons, expectedVersion, answer');
    await client.close();
  });

  it('answers an unknown tool with the JSON-RPC invalid-params error', async () => {
    const client = await connect(service.world.tokens.annAll);
    await expect(client.callTool({ name: 'draw_everything', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('draw_everything') });
    await client.close();
  });

  it('refuses a tool call the token has not the scope for with 403 and the scope to ask for, before it runs', async () => {
    const client = await connect(service.world.tokens.annRead);
    await expect(client.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: 'x' } })).rejects.toMatchObject({ code: 403 });
    const raw = (token: string, name: string) =>
      fetch(service.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
      });
    const writer = await raw(service.world.tokens.annWriteOnly, 'list_workspaces');
    expect(writer.status).toBe(403);
    // OAuth is off here: the challenge names no metadata, only what is missing.
    expect(writer.headers.get('www-authenticate')).toBe(`Bearer realm="drawbridge", error="insufficient_scope", scope="diagrams:write diagrams:read", error_description="this token lacks the scope 'diagrams:read', which list_workspaces needs"`);
    expect(((await writer.json()) as any).error).toMatchObject({ data: { code: 'insufficient_scope', required: ['diagrams:read'] } });
    // Nothing was written.
    const listed = structured(await (await connect(service.world.tokens.annAll)).callTool({ name: 'list_diagrams', arguments: { workspaceId: service.world.annWorkspace, limit: 100 } }));
    expect(listed.items.map((d: any) => d.name)).not.toContain('x');
    // Tools that need no scope (icons) stay open to any token.
    expect((await raw(service.world.tokens.annWriteOnly, 'list_shape_libraries')).status).toBe(200);
    await client.close();
  });

  it('hides other workspaces from a pinned token and from non-members', async () => {
    const bobDoc = await service.runtime.services.diagrams.createDocument(await service.runtime.services.tokens.authenticate(`Bearer ${service.world.tokens.bobAll}`, 'rest'), {
      workspaceId: service.world.bobWorkspace,
      name: 'Bob only',
    });
    const pinned = await connect(service.world.tokens.annPinned);
    expect(errorOf(await pinned.callTool({ name: 'get_diagram', arguments: { id: bobDoc.document.summary.id } })).code).toBe('not_found');
    expect(errorOf(await pinned.callTool({ name: 'list_diagrams', arguments: { workspaceId: service.world.annSecond } })).code).toBe('not_found');
    const workspaces = structured(await pinned.callTool({ name: 'list_workspaces', arguments: {} }));
    expect(workspaces.items.map((w: any) => w.id)).toEqual([service.world.annWorkspace]);
    await pinned.close();
  });

  it('serves the drawing guide and the libraries as resources, the same documents as REST', async () => {
    const client = await connect(service.world.tokens.annRead);
    const { resources } = await client.listResources();
    // The whole guide, the libraries, and each section of the guide on its own.
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['drawbridge://capabilities', 'drawbridge://libraries', 'drawbridge://capabilities/elementTypes', 'drawbridge://capabilities/examples']));
    expect(uris.filter((uri) => uri.startsWith('drawbridge://capabilities/'))).toHaveLength(Object.keys(service.runtime.services.catalog.capabilities()).length);
    const read = async (uri: string) => JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text);
    const rest = (url: string) => service.runtime.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${service.world.tokens.annRead}` } }).then((r) => r.json());
    expect(await read('drawbridge://capabilities')).toEqual(await rest('/api-v1/capabilities'));
    expect(await read('drawbridge://libraries')).toEqual(await rest('/api-v1/libraries?items=1'));
    await client.close();
  });

  it('searches icons and lists libraries', async () => {
    const client = await connect(service.world.tokens.annRead);
    const found = structured(await client.callTool({ name: 'search_icons', arguments: { query: 's3', vendor: 'aws' } }));
    expect(found.items[0].ref).toMatch(/^aws\/.*S3/);
    const libraries = structured(await client.callTool({ name: 'list_shape_libraries', arguments: {} }));
    expect(libraries.libraries.map((l: any) => l.id)).toEqual(expect.arrayContaining(['aws', 'kubernetes', 'databases']));
    const bad = (await client.callTool({ name: 'search_icons', arguments: { query: 'x', vendor: 'oracle' } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it('exports a diagram, with the export scope only, and not from another workspace', async () => {
    const owner = await connect(service.world.tokens.annAll);
    const created = structured(await owner.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annSecond, name: 'To export', elements: [box('a')] } }));
    const exported = structured(await owner.callTool({ name: 'export_to_code', arguments: { id: created.id, format: 'excalidraw' } }));
    expect(exported.scene.type).toBe('excalidraw');
    const reader = await connect(service.world.tokens.annRead);
    await expect(reader.callTool({ name: 'export_to_code', arguments: { id: created.id, format: 'excalidraw' } })).rejects.toMatchObject({ code: 403, message: expect.stringContaining('"export"') });
    const pinned = await connect(service.world.tokens.annPinned);
    expect(errorOf(await pinned.callTool({ name: 'export_to_code', arguments: { id: created.id, format: 'excalidraw' } })).code).toBe('not_found');
    for (const client of [owner, reader, pinned]) await client.close();
  });

  it('refuses a missing or unknown token with HTTP 401 and WWW-Authenticate', async () => {
    await expect(connect(undefined)).rejects.toThrow(/unauthorized/);
    const res = await fetch(service.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer drb_live_${'y'.repeat(43)}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="drawbridge", error="invalid_token", error_description="the API token is not known here/);
    expect(((await res.json()) as any).error.details).toEqual({ reason: 'unknown' });
  });

  it('is true to its behaviour: no list_changed promise, strict arguments everywhere, honest annotations, one error prefix', async () => {
    const rpc = async (method: string, params?: object) =>
      (await (
        await fetch(service.mcpUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${service.world.tokens.annAll}` },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
        })
      ).json()) as any;
    const init = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.result.capabilities.tools).toEqual({ listChanged: false });
    const tools = (await rpc('tools/list')).result.tools as any[];
    const annotations = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(annotations.delete_diagram).toMatchObject({ destructiveHint: true, idempotentHint: false, openWorldHint: false });
    expect(annotations.share_diagram).toMatchObject({ destructiveHint: true, openWorldHint: true });
    expect(annotations.generate_from_prompt).toMatchObject({ openWorldHint: true });
    expect(tools.every((t) => t.inputSchema.additionalProperties === false), 'every tool refuses unknown arguments').toBe(true);
    expect(tools.filter((t) => t.outputSchema?.type !== 'object').map((t) => t.name), 'every tool says what it answers').toEqual([]);
    for (const [name, args] of [['list_workspaces', { workspace: 'x' }], ['list_shape_libraries', { items: true }], ['search_icons', { query: 'db', vender: 'aws' }]] as const) {
      const result = (await rpc('tools/call', { name, arguments: args })).result;
      expect(result.isError, name).toBe(true);
      const { error } = JSON.parse(result.content[0].text);
      expect(error.code).toBe('validation_failed');
      expect(error.message).toMatch(name === 'search_icons' ? /unknown field "vender"; the fields are query, vendor, limit/ : /unknown field "\w+"; it takes none/);
    }
    const unknown = await rpc('tools/call', { name: 'draw_everything', arguments: {} });
    expect(unknown.error).toEqual({ code: -32602, message: 'Unknown tool draw_everything: tools/list names the tools' });
  });

  it('answers writes with a summary, and reads as lean as asked, with a preview that fits what models accept', async () => {
    const client = await connect(service.world.tokens.annAll);
    const elements = Array.from({ length: 12 }, (_, i) => box(`svc${i}`, (i % 4) * 220, Math.floor(i / 4) * 140));
    const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
    const lean = await client.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: 'Twelve', elements } });
    const full = await client.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: 'Twelve', elements, answer: 'full' } });
    const summary = structured(lean).summary;
    expect(summary.shapes).toHaveLength(12);
    expect(summary.shapes[0]).toMatchObject({ id: 'svc0', type: 'rectangle', text: 'svc0', box: [0, 0, 120, 60] });
    expect(structured(lean)).toMatchObject({ name: 'Twelve', version: 1, warnings: expect.any(Array) });
    expect(structured(full).elements).toHaveLength(12);
    // About four characters a token: the figures the issue asked for.
    const tokens = (s: string) => Math.round(s.length / 4);
    console.log(`create_diagram answer, 12 boxes: full ${tokens(text(full))} tokens, summary ${tokens(text(lean))} tokens`);
    expect(text(lean).length).toBeLessThan(text(full).length / 3);

    const id = structured(lean).id;
    const none = await client.callTool({ name: 'get_diagram', arguments: { id, scene: 'none', preview: true, previewMaxSide: 400 } });
    expect(structured(none)).toMatchObject({ id, version: 1 });
    expect(structured(none).elements).toBeUndefined();
    const image = (none as CallToolResult).content.find((c) => c.type === 'image') as { data: string };
    const png = Buffer.from(image.data, 'base64');
    expect(Math.max(png.readUInt32BE(16), png.readUInt32BE(20))).toBeLessThanOrEqual(400);
    const refused = await client.callTool({ name: 'get_diagram', arguments: { id, preview: true, previewMaxSide: 9000 } });
    expect(refused.isError).toBe(true);
    await client.close();
  });

  it('tells a bridge and its user that a token was revoked, not that a sign-in is needed', async () => {
    const { token, id } = await service.runtime.services.tokens.create({ userId: service.world.annUserId, name: 'laptop', scopes: ['diagrams:read'] });
    await service.runtime.services.tokens.revoke(id);
    const res = await fetch(service.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="the API token 'laptop' was revoked on \d{4}-\d{2}-\d{2}: create a new one"/);
    expect(((await res.json()) as any).error).toMatchObject({ code: 'unauthorized', details: { reason: 'revoked' } });
    const bare = await fetch(service.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(bare.headers.get('www-authenticate')).toBe('Bearer realm="drawbridge"');
  });

  it('answers every method but POST with 405, and malformed JSON-RPC with the standard codes', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const res = await fetch(service.mcpUrl, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as any).jsonrpc).toBe('2.0');
    }
    const post = (body: string) =>
      fetch(service.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${service.world.tokens.annAll}` },
        body,
      });
    const parse = await post('{"jsonrpc": "2.0", ');
    expect(((await parse.json()) as any).error.code).toBe(-32700);
    const invalid = await post(JSON.stringify({ hello: 'service.world' }));
    expect(((await invalid.json()) as any).error.code).toBe(-32600);
    const unknownMethod = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such/method' }));
    expect(((await unknownMethod.json()) as any).error.code).toBe(-32601);
  });

  it('is stateless: a tool call needs no initialize and no session is handed out', async () => {
    const res = await fetch(service.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${service.world.tokens.annAll}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_workspaces', arguments: {} } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as any;
    expect(body.id).toBe(3);
    expect(body.result.structuredContent.items.map((w: any) => w.id)).toContain(service.world.annWorkspace);
  });
});

describe('MCP rate limit', () => {
  it('shares the per-token budget with REST and answers 429 past it', async () => {
    const limitedBackend = await createBackend('sqlite');
    const limited = await createRuntime(testConfig({ databaseUrl: limitedBackend.databaseUrl, rateLimitPerMinute: 5 }));
    try {
      const w = await buildWorld(limited);
      const mcpUrl = `${await limited.app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
      const client = new Client({ name: 'rate', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${w.tokens.annAll}` } } }));
      // initialize + initialized notification spent 2; two REST calls spend 2 more.
      for (let i = 0; i < 2; i++) await limited.app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: { authorization: `Bearer ${w.tokens.annAll}` } });
      await client.callTool({ name: 'list_workspaces', arguments: {} });
      await expect(client.callTool({ name: 'list_workspaces', arguments: {} })).rejects.toThrow(/rate_limited/);
      const raw = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${w.tokens.annAll}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(raw.status).toBe(429);
      expect(raw.headers.get('retry-after')).toMatch(/^\d+$/);
      await client.close();
    } finally {
      await limited.close();
      await limitedBackend.dispose();
    }
  });
});
