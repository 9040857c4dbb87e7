import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { recoverGraph } from '../src/core/export/graph-recovery.js';
import { intakeScene } from '../src/core/scene/intake.js';
import { structureOf } from './support/structure.js';
import { bearer, useTestService } from './support/world.js';

const fixture = (name: string) => readFileSync(`test/fixtures/d2/${name}`, 'utf8');
const json = (res: LightMyRequestResponse) => res.json() as any;
/** What a stored drawing shows, recovered from its elements as export does. */
const drawn = (elements: unknown[]) => recoverGraph(intakeScene(elements).elements);
// The first D2 compile in a process starts D2's Go runtime: seconds.
const SLOW = 120_000;

describe('D2 from code', () => {
  const service = useTestService();
  const fromCode = (payload: object, token = service.world.tokens.annAll) =>
    service.runtime.app.inject({ method: 'POST', url: '/api-v1/documents/from-code', headers: bearer(token), payload: { workspaceId: service.world.annWorkspace, ...payload } });
  const documentCount = async () =>
    json(await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents?workspace=${service.world.annWorkspace}&limit=100`, headers: bearer(service.world.tokens.annAll) })).items.length;

  it('answers /healthz at once all the while D2 starts and compiles a large diagram', async () => {
    // 1,200 connections: D2 takes seconds over them (with WebAssembly on the baseline compiler,
    // 300 took under 2 s, too short to count on), on top of its start when it is not running yet.
    const big = Array.from({ length: 1200 }, (_, i) => `n${i} -> n${(i * 7 + 3) % 1200}`).join('\n');
    let done = false;
    const compiling = service.runtime.d2.compile(big).finally(() => (done = true));
    const slowest: number[] = [];
    while (!done) {
      const startedAt = performance.now();
      const health = await service.runtime.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      slowest.push(performance.now() - startedAt);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await compiling;
    // Answered many times while D2 worked, each in well under a second: its thread leaves the event loop free.
    expect(slowest.length).toBeGreaterThan(20);
    expect(Math.max(...slowest)).toBeLessThan(500);
  }, SLOW);

  // Hand counts from the fixtures: shapes inside others are containers; `a -> b` is one connection.
  it.each([
    ['d2-docs-containers-2.d2', { nodes: 5, edges: 4, groups: 3 }],
    ['d2-docs-icons-1.d2', { nodes: 2, edges: 1, groups: 0 }],
    ['d2-docs-connections-reference.d2', { nodes: 2, edges: 2, groups: 0 }],
  ])('detects %s as D2, lays it out with our engine and stores it', async (name, counts) => {
    const res = await fromCode({ code: fixture(name) });
    expect(res.statusCode, res.body).toBe(201);
    const body = json(res);
    expect(body.notation).toBe('d2');
    expect(body.name).toBe('D2 diagram');
    const graph = drawn(body.elements);
    expect({ nodes: graph.nodes.length, edges: graph.edges.length, groups: graph.groups.length }).toEqual(counts);
  }, SLOW);

  it('keeps D2\'s containers and icons: AWS icons on the icon example, each shape in its cloud', async () => {
    const icons = json(await fromCode({ code: fixture('d2-docs-icons-1.d2') }));
    expect(icons.elements.map((e: any) => e.icon?.ref).filter(Boolean).sort()).toEqual(['aws/AWS Backup', 'aws/AWS CodeDeploy']);
    expect(icons.warnings).toContain('1 connection icon left out (icons are drawn on shapes)');
    const clouds = drawn(json(await fromCode({ code: fixture('d2-docs-containers-2.d2'), notation: 'd2' })).elements);
    expect(structureOf(clouds).groups).toEqual(['aws|clouds', 'clouds|', 'gcloud|clouds']);
    expect(structureOf(clouds).nodes.filter((n) => n.endsWith('|gcloud'))).toHaveLength(2);
  }, SLOW);

  it('refuses a D2 syntax error as 400 parse_error with D2\'s line and column, storing nothing', async () => {
    const before = await documentCount();
    const res = await fromCode({ code: 'web -> api\napi -> {\n', notation: 'd2' });
    expect(res.statusCode).toBe(400);
    const { error } = json(res);
    expect(error.code).toBe('parse_error');
    expect(error.details).toMatchObject({ line: 2 });
    expect(error.message).toMatch(/^line 2, column \d+: D2: /);
    expect(await documentCount()).toBe(before);
  }, SLOW);

  it('refuses a D2 graph over the node limit as 422 too_complex before laying it out', async () => {
    const res = await fromCode({ code: Array.from({ length: 1001 }, (_, i) => `n${i}`).join('\n'), notation: 'd2' });
    expect(res.statusCode).toBe(422);
    expect(json(res).error).toMatchObject({ code: 'too_complex', details: { limit: 'nodes', max: 1000, got: 1001 } });
  }, SLOW);

  it('asks the same scopes and roles as other code: a read token and a viewer are refused', async () => {
    expect(json(await fromCode({ code: 'a -> b' }, service.world.tokens.annRead)).error.code).toBe('insufficient_scope');
    const viewer = await service.runtime.app.inject({
      method: 'POST',
      url: '/api-v1/documents/from-code',
      headers: bearer(service.world.tokens.annAll),
      payload: { workspaceId: service.world.bobWorkspace, code: 'a -> b' },
    });
    expect(json(viewer).error.code).toBe('forbidden');
  }, SLOW);

  it('round-trips: D2 → diagram → D2 export → from-code draws the same structure', async () => {
    const first = json(await fromCode({ code: fixture('d2-docs-containers-2.d2') }));
    const exported = json(await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${first.id}/export?format=d2`, headers: bearer(service.world.tokens.annAll) }));
    expect(exported.format).toBe('d2');
    const second = await fromCode({ code: exported.code });
    expect(second.statusCode, second.body).toBe(201);
    expect(json(second).notation).toBe('d2');
    expect(structureOf(drawn(json(second).elements))).toEqual(structureOf(drawn(first.elements)));
  }, SLOW);

  it('draws D2 through MCP diagram_from_code, and reports its syntax error as a tool error with the position', async () => {
    const url = `${await service.runtime.app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
    const client = new Client({ name: 'from-code-d2', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${service.world.tokens.annAll}` } } }));
    const result = (await client.callTool({ name: 'diagram_from_code', arguments: { workspaceId: service.world.annWorkspace, code: fixture('d2-docs-containers-2.d2') } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as any;
    expect(content.notation).toBe('d2');
    const stored = json(await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${content.id}`, headers: bearer(service.world.tokens.annAll) }));
    expect(drawn(stored.elements).groups).toHaveLength(3);
    const failed = (await client.callTool({ name: 'diagram_from_code', arguments: { workspaceId: service.world.annWorkspace, code: 'a -> {', notation: 'd2' } })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect((failed.content[0] as { text: string }).text).toMatch(/parse_error[\s\S]*line 1, column \d+: D2: /);
    await client.close();
  }, SLOW);
});
