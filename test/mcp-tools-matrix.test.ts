import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/core/scopes.js';
import { box, useTestService } from './support/world.js';

/**
 * Every tool through the SDK client, each in the four ways a model meets it: the happy path, bad input, a token
 * without the tool's scope, and a diagram in a workspace the token may not see.
 */
const service = useTestService({ listen: true });
let otherDoc: string;
let ownDoc: string;

beforeAll(async () => {
  const ann = await service.runtime.services.tokens.authenticate(`Bearer ${service.world.tokens.annAll}`, 'rest');
  ownDoc = (await service.runtime.services.diagrams.createDocument(ann, { workspaceId: service.world.annWorkspace, name: 'Own', elements: [box('a')] })).document.summary.id;
  otherDoc = (await service.runtime.services.diagrams.createDocument(ann, { workspaceId: service.world.annSecond, name: 'Other', elements: [box('a')] })).document.summary.id;
});

async function call(token: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const client = new Client({ name: 'matrix', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(service.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}
const errorText = (result: CallToolResult) => (result.content[0] as { text: string }).text;

interface ToolCase {
  name: string;
  scope: Scope | null;
  ok: () => Record<string, unknown>;
  /** Arguments the tool must refuse, and the error it must give (none for tools that take no input). */
  bad?: () => Record<string, unknown>;
  refusal?: { code: string; message: RegExp };
  /** Arguments aimed at the workspace the pinned token may not see (none for catalog tools). */
  hidden?: () => Record<string, unknown>;
}

const cases: ToolCase[] = [
  { name: 'list_workspaces', scope: 'diagrams:read', ok: () => ({}) },
  { name: 'list_diagrams', scope: 'diagrams:read', ok: () => ({ workspaceId: service.world.annWorkspace }), bad: () => ({ workspaceId: 'nope' }), refusal: { code: 'validation_failed', message: /^arguments\.workspaceId: must be a workspace id/ }, hidden: () => ({ workspaceId: service.world.annSecond }) },
  { name: 'get_diagram', scope: 'diagrams:read', ok: () => ({ id: ownDoc }), bad: () => ({ id: 7 }), refusal: { code: 'validation_failed', message: /^arguments\.id: .*expected string/ }, hidden: () => ({ id: otherDoc }) },
  {
    name: 'create_diagram',
    scope: 'diagrams:write',
    ok: () => ({ workspaceId: service.world.annWorkspace, name: 'New', elements: [box('n')] }),
    bad: () => ({ workspaceId: service.world.annWorkspace, name: 'Bad', elements: [{ type: 'rectangle', x: 0, y: 0, width: 10, height: 10, strokeWidth: 99 }] }),
    refusal: { code: 'validation_failed', message: /^elements\[0\]: strokeWidth must be between 1 and 8/ },
    hidden: () => ({ workspaceId: service.world.annSecond, name: 'x' }),
  },
  { name: 'update_diagram', scope: 'diagrams:write', ok: () => ({ id: ownDoc, name: 'Renamed' }), bad: () => ({ id: ownDoc }), refusal: { code: 'validation_failed', message: /at least one of name, elements, operations or code/ }, hidden: () => ({ id: otherDoc, name: 'x' }) },
  { name: 'list_shape_libraries', scope: null, ok: () => ({}) },
  { name: 'search_icons', scope: null, ok: () => ({ query: 'postgres' }), bad: () => ({ query: '' }), refusal: { code: 'validation_failed', message: /^arguments\.query: / } },
  {
    name: 'diagram_from_code',
    scope: 'diagrams:write',
    ok: () => ({ workspaceId: service.world.annWorkspace, code: 'digraph { web -> api -> db }' }),
    bad: () => ({ workspaceId: service.world.annWorkspace, code: 'digraph { a -> }', notation: 'dot' }),
    refusal: { code: 'parse_error', message: /^line 1, column 16: / },
    hidden: () => ({ workspaceId: service.world.annSecond, code: 'digraph { a -> b }' }),
  },
  { name: 'export_to_code', scope: 'export', ok: () => ({ id: ownDoc, format: 'excalidraw' }), bad: () => ({ id: ownDoc, format: 'visio' }), refusal: { code: 'validation_failed', message: /^arguments\.format: .*mermaid/ }, hidden: () => ({ id: otherDoc, format: 'excalidraw' }) },
  { name: 'share_diagram', scope: 'diagrams:write', ok: () => ({ id: ownDoc }), bad: () => ({ id: 'doc' }), refusal: { code: 'validation_failed', message: /^arguments\.id: must be a document id/ }, hidden: () => ({ id: otherDoc }) },
  { name: 'unshare_diagram', scope: 'diagrams:write', ok: () => ({ id: ownDoc }), bad: () => ({ id: '' }), refusal: { code: 'validation_failed', message: /^arguments\.id: / }, hidden: () => ({ id: otherDoc }) },
  { name: 'list_versions', scope: 'diagrams:read', ok: () => ({ id: ownDoc }), bad: () => ({ id: ownDoc, limit: 0 }), refusal: { code: 'validation_failed', message: /^arguments\.limit: / }, hidden: () => ({ id: otherDoc }) },
  { name: 'get_version', scope: 'diagrams:read', ok: () => ({ id: ownDoc, version: 1 }), bad: () => ({ id: ownDoc, version: 0 }), refusal: { code: 'validation_failed', message: /^arguments\.version: / }, hidden: () => ({ id: otherDoc, version: 1 }) },
  { name: 'restore_version', scope: 'diagrams:write', ok: () => ({ id: ownDoc, version: 1 }), bad: () => ({ id: ownDoc, version: 99 }), refusal: { code: 'not_found', message: /no version 99/ }, hidden: () => ({ id: otherDoc, version: 1 }) },
  // Last: it deletes the diagram the others use.
  { name: 'delete_diagram', scope: 'diagrams:write', ok: () => ({ id: ownDoc }), bad: () => ({ id: null }), refusal: { code: 'validation_failed', message: /^arguments\.id: / }, hidden: () => ({ id: otherDoc }) },
];

// Only the checks that apply to a tool are registered: catalog tools take no scope, and some tools no input.
describe.each(cases)('MCP tool $name', (tool) => {
  if (tool.bad && tool.refusal) {
    const { bad, refusal } = { bad: tool.bad, refusal: tool.refusal };
    it('answers bad input with a tool error naming what to fix', async () => {
      const result = await call(service.world.tokens.annAll, tool.name, bad());
      expect(result.isError).toBe(true);
      const { error } = JSON.parse(errorText(result)) as { error: { code: string; message: string } };
      expect(error.code).toBe(refusal.code);
      expect(error.message).toMatch(refusal.message);
    });
  } else {
    it('refuses arguments it does not take, naming them', async () => {
      const result = await call(service.world.tokens.annAll, tool.name, { unexpected: { deeply: 'nested' } });
      expect(result.isError).toBe(true);
      expect(errorText(result)).toContain('unknown field \\"unexpected\\"; it takes none');
    });
  }

  // Refused before the tool runs, as the MCP authorization spec says, so a client can ask the user for the scope.
  if (tool.scope !== null) it('refuses a missing scope with a 403 insufficient_scope challenge naming it', async () => {
    const token = (await service.runtime.services.tokens.create({ userId: service.world.annUserId, name: `no ${tool.scope}`, scopes: (['diagrams:read', 'diagrams:write', 'export', 'ai:generate'] as Scope[]).filter((s) => s !== tool.scope) })).token;
    const response = await fetch(service.mcpUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: tool.ok() } }),
    });
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toMatch(new RegExp(`scope="[^"]*${tool.scope}`));
    expect(((await response.json()) as { error: { data: { required: string[] } } }).error.data.required).toContain(tool.scope);
  });

  if (tool.hidden) it('does not reach a workspace the token may not see', async () => {
    const result = await call(service.world.tokens.annPinned, tool.name, tool.hidden!());
    expect(result.isError).toBe(true);
    expect(errorText(result)).toContain('not_found');
  });

  it('works on the happy path', async () => {
    const result = await call(service.world.tokens.annAll, tool.name, tool.ok());
    expect(result.isError, errorText(result)).toBeFalsy();
    expect(result.structuredContent).toBeDefined();
    expect(JSON.parse(errorText(result))).toEqual(result.structuredContent);
  });
});
