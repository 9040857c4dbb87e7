import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { availableBackends } from './support/backends.js';
import { bearer, useTestService } from './support/world.js';

const fixture = (path: string) => readFileSync(`test/fixtures/${path}`, 'utf8');
const json = (res: LightMyRequestResponse) => res.json() as any;

describe.each(await availableBackends())('from code on %s', (backend) => {
  const service = useTestService({ backend });
  const fromCode = (token: string, payload: object) => service.runtime.app.inject({ method: 'POST', url: '/api-v1/documents/from-code', headers: bearer(token), payload });
  const documentCount = async (workspace: string) =>
    json(await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents?workspace=${workspace}&limit=100`, headers: bearer(service.world.tokens.annAll) })).items.length;

  describe('POST /api-v1/documents/from-code', () => {
    const samples: [string, string][] = [
      ['compose', 'compose/awesome-react-express-mysql.compose.yaml'],
      ['kubernetes', 'kubernetes/microservices-demo-cartservice.yaml'],
      ['dot', 'dot/gallery-cluster.gv'],
      ['plantuml', 'plantuml/mojaloop-position-prepare-sequence.plantuml'],
      ['terraform', 'terraform/gcp-microservices-demo.main.tf'],
      ['helm', 'helm/bitnami-wordpress.values.yaml'],
      ['sql', 'sql/postgres-tpcc-ddl.sql'],
      ['mermaid', 'mermaid/k8s-ingress-flowchart.mmd'],
    ];

    it.each(samples)('detects %s, lays it out and stores it', async (notation, path) => {
      const res = await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: fixture(path) });
      expect(res.statusCode, res.body).toBe(201);
      const body = json(res);
      expect(body.notation).toBe(notation);
      expect(body.version).toBe(1);
      expect(body.elements.length).toBeGreaterThan(3);
      expect(Array.isArray(body.warnings)).toBe(true);
      const arrows = body.elements.filter((e: any) => e.type === 'arrow');
      expect(arrows.length).toBeGreaterThan(0);
      const stored = json(await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${body.id}`, headers: bearer(service.world.tokens.annAll) }));
      expect(stored.elements).toHaveLength(body.elements.length);
    });

    it('draws the compose services with the icons of their images (mariadb, nginx)', async () => {
      const body = json(await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: fixture('compose/awesome-nginx-golang-mysql.compose.yaml'), name: 'Stack' }));
      expect(body.name).toBe('Stack');
      const refs = body.elements.map((e: any) => e.icon?.ref).filter(Boolean);
      expect(refs).toEqual(expect.arrayContaining(['databases/MariaDB', 'brands/NGINX']));
    });

    it('honours an explicit notation, and reports a syntax error with line and column without storing anything', async () => {
      const before = await documentCount(service.world.annWorkspace);
      const res = await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: 'digraph G {\n  a -> b;\n  c -> ;\n}', notation: 'dot' });
      expect(res.statusCode).toBe(400);
      const { error } = json(res);
      expect(error.code).toBe('parse_error');
      expect(error.details).toMatchObject({ line: 3 });
      expect(error.message).toMatch(/line 3, column \d+/);
      expect(await documentCount(service.world.annWorkspace)).toBe(before);
    });

    it('rejects text that is no supported notation, listing the supported ones', async () => {
      const res = await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: 'Dear team, here is the plan for Monday.' });
      expect(res.statusCode).toBe(400);
      expect(json(res).error.code).toBe('unsupported_notation');
      for (const notation of ['compose', 'kubernetes', 'dot', 'plantuml', 'terraform', 'helm', 'sql', 'mermaid']) expect(json(res).error.message).toContain(notation);
      const unknown = await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: 'a -> b', notation: 'visio' });
      expect(unknown.statusCode).toBe(400);
    });

    /** 41 workers alike (one image, the shared volume, the database) beside it: 43 nodes, past the fold at 40. */
    const workers = `services:\n  db:\n    image: postgres\n${Array.from({ length: 41 }, (_, i) => `  worker-${i}:\n    image: busybox\n    depends_on: [db]\n    volumes: [data:/data]\n`).join('')}volumes:\n  data: {}\n`;

    it('folds a large compose file for reading, says so, and draws everything with detail "full"', async () => {
      const folded = json(await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: workers }));
      expect(folded.warnings).toContain('43 nodes drawn as 2 to stay readable: folded 1 volume into the nodes that use them, as rows, and 41 nodes wired exactly alike into 1, each listing their names (their edges merged, as each meant the same); detail: "full" draws everything');
      const texts = (body: any) => body.elements.map((e: any) => e.text).filter(Boolean).join('\n');
      expect(texts(folded)).toContain('worker-* (41)');
      expect(texts(folded)).toContain('volume data (/data)');
      const full = json(await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: workers, detail: 'full' }));
      expect(full.warnings.filter((w: string) => w.includes('stay readable'))).toEqual([]);
      expect(full.elements.filter((e: any) => e.type === 'arrow').length).toBe(82);
      const wrong = await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: workers, detail: 'some' });
      expect(wrong.statusCode).toBe(400);
      expect(json(wrong).error.message).toContain('detail');
    }, 120_000);

    it('refuses code over 1 MiB, a missing scope, a viewer and another workspace', async () => {
      const huge = await fromCode(service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, code: `digraph { ${'a -> b; '.repeat(200_000)} }` });
      expect(huge.statusCode).toBe(413);
      const code = fixture('dot/gallery-cluster.gv');
      expect(json(await fromCode(service.world.tokens.annRead, { workspaceId: service.world.annWorkspace, code })).error.code).toBe('insufficient_scope');
      expect(json(await fromCode(service.world.tokens.annAll, { workspaceId: service.world.bobWorkspace, code })).error.code).toBe('forbidden');
      expect((await fromCode(service.world.tokens.annPinned, { workspaceId: service.world.annSecond, code })).statusCode).toBe(404);
    });
  });

  describe('MCP diagram_from_code', () => {
    it('draws from code and reports errors as tool errors', async () => {
      const url = `${await service.runtime.app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
      const client = new Client({ name: 'from-code', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${service.world.tokens.annAll}` } } }));
      const result = (await client.callTool({ name: 'diagram_from_code', arguments: { workspaceId: service.world.annWorkspace, code: fixture('kubernetes/guestbook-all-in-one.yaml') } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as any).notation).toBe('kubernetes');
      const wrong = (await client.callTool({ name: 'diagram_from_code', arguments: { workspaceId: service.world.annWorkspace, code: 'a -> b', notation: 'dot', detail: 'most' } })) as CallToolResult;
      expect(wrong.isError).toBe(true);
      expect((wrong.content[0] as { text: string }).text).toContain('detail');
      const failed = (await client.callTool({ name: 'diagram_from_code', arguments: { workspaceId: service.world.annWorkspace, code: 'just words' } })) as CallToolResult;
      expect(failed.isError).toBe(true);
      expect((failed.content[0] as { text: string }).text).toContain('unsupported_notation');
      await client.close();
    });
  });
});
