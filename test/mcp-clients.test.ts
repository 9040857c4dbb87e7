import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { box, useTestService } from './support/world.js';

/** Clients nobody here wrote, run as a user would run them: the MCP Inspector's CLI and the mcp-remote bridge. */
const run = promisify(execFile);
const service = useTestService({ listen: true });

const inspector = async (token: string, ...args: string[]) => {
  const { stdout } = await run('node_modules/.bin/mcp-inspector', ['--cli', service.mcpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, ...args], {
    timeout: 60_000,
  });
  return JSON.parse(stdout) as any;
};

describe('MCP Inspector CLI', () => {
  it('lists the tools', async () => {
    const { tools } = await inspector(service.world.tokens.annAll, '--method', 'tools/list');
    expect(tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(['create_diagram', 'get_diagram', 'list_workspaces']));
  });

  it('calls a tool', async () => {
    const result = await inspector(service.world.tokens.annAll, '--method', 'tools/call', '--tool-name', 'list_workspaces');
    expect(result.structuredContent.items.map((w: any) => w.name)).toContain('Ann main');
  });

  it('shows a missing scope as the server\'s insufficient_scope refusal, naming it', async () => {
    const failure = await inspector(service.world.tokens.annWriteOnly, '--method', 'tools/call', '--tool-name', 'list_workspaces').catch((error) => error);
    expect(failure.code).not.toBe(0);
    // The server refuses before the tool runs (403 insufficient_scope); the Inspector reads the challenge and names the scope.
    expect(failure.stderr).toMatch(/Insufficient scope: required \\?"[^"\\]*diagrams:read/);
  });
});

describe('mcp-remote bridge for local-only clients', () => {
  it('lists tools and creates a diagram through the stdio bridge', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['node_modules/mcp-remote/dist/proxy.js', service.mcpUrl, '--transport', 'http-only', '--header', `Authorization:Bearer ${service.world.tokens.annAll}`],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bridge-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('create_diagram');
      const result = (await client.callTool({
        name: 'create_diagram',
        arguments: { workspaceId: service.world.annWorkspace, name: 'Via bridge', elements: [box('api')] },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const created = result.structuredContent as { id: string };
      const principal = await service.runtime.services.tokens.authenticate(`Bearer ${service.world.tokens.annAll}`, 'rest');
      expect((await service.runtime.services.diagrams.getDocument(principal, created.id)).summary.name).toBe('Via bridge');
    } finally {
      await client.close();
    }
  });
});
