import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isAppError } from '../src/core/errors.js';
import { exportScene, EXPORT_FORMATS } from '../src/core/export/index.js';
import { codeToScene, CONVERTERS, isD2Code } from '../src/core/notations/index.js';
import { intakeScene } from '../src/core/scene/intake.js';
import { PROTOTYPE_NAMES } from './support/prototype-names.js';
import { bearer, box, useTestService } from './support/world.js';

/**
 * Generated bad input: every parser and converter, every REST route of the OpenAPI document and every MCP tool is
 * fed what fast-check makes up, and must answer with one of our error codes (4xx), never an unexpected exception, a
 * 5xx or a change it did not report. FUZZ_RUNS=10000 is the nightly size; CI runs a few hundred cases each.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const CLIENT_CODES = new Set<string>(ERROR_CODES.filter((code) => code !== 'internal' && code !== 'busy'));

/** Runs `fn`; anything thrown must be an AppError with a client error code. */
async function refusesCleanly(fn: () => unknown): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch (error) {
    if (isAppError(error) && CLIENT_CODES.has(error.code)) return true;
    throw error;
  }
}

/** Code that looks like each notation: its keywords and punctuation, shuffled and cut anywhere. */
const TOKENS = [
  'services:', '  web:', '    image: nginx', '    depends_on: [db]', 'apiVersion: v1', 'kind: Service', 'metadata:', '  name: x', '---', '&a', '*a', '<<: *a',
  'digraph', 'graph', 'subgraph', 'cluster_x', '{', '}', '[', ']', '->', '--', ';', '=', 'label="a"', 'rank=same', '"', '\\', '/*', '*/', '#', '//',
  '@startuml', '@enduml', 'class A', 'package p {', 'A --> B', 'participant', 'alt', 'end', 'note left', ':action;', 'if (x) then', 'endif', 'state S {',
  'resource "aws_s3_bucket" "b" {', 'module "m" {', 'source = "x"', '${aws_s3_bucket.b.id}', 'depends_on = [', 'variable "v" {',
  'replicaCount: 1', 'image:', '  repository: x', 'ingress:', '  enabled: true', 'CREATE TABLE t (', 'id int primary key', 'REFERENCES t(id)', ')', ',',
  'ALTER TABLE t ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES u(b);', "'", '`', '\n', '\t', ' ', '\u0000', '\u202e', '😀', 'é',
  ...PROTOTYPE_NAMES,
];
/** Text as a user types it, JavaScript's own property names included (a plain object used as a table answers them). */
const text = (maxLength: number) => fc.oneof(fc.string({ maxLength }), fc.constantFrom(...PROTOTYPE_NAMES));
const notationCode = fc.array(fc.oneof(fc.constantFrom(...TOKENS), text(8)), { maxLength: 60 }).map((parts) => parts.join(' '));

describe('parsers and converters under generated input', () => {
  it.each(CONVERTERS.map((c) => [c.id]))('%s: any code parses or is refused with a client error', async (notation) => {
    await fc.assert(
      fc.asyncProperty(notationCode, (code) => refusesCleanly(() => codeToScene(code, { notation }))),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('detection: any code is read as some notation or refused', async () => {
    // Code detected as D2 is compiled by the service's D2 compiler (infra), not by codeToScene: the REST routes' fuzzing covers it.
    await fc.assert(fc.asyncProperty(notationCode, (code) => refusesCleanly(() => isD2Code(code, undefined) || codeToScene(code))), { numRuns: RUNS });
  }, 120_000);

  const value = fc.oneof(fc.double(), fc.integer(), text(6), fc.boolean(), fc.constant(null), fc.constant({ toString: 1 }), fc.array(fc.double(), { maxLength: 3 }));
  const elementLike = fc.record(
    {
      id: fc.oneof(text(4), value),
      type: fc.oneof(fc.constantFrom('rectangle', 'ellipse', 'diamond', 'text', 'arrow', 'line', 'freedraw', 'image', 'frame', 'selection', 'embeddable'), value),
      x: value, y: value, width: value, height: value, text: value, points: fc.oneof(value, fc.array(fc.oneof(fc.tuple(value, value), fc.record({ x: value, y: value })), { maxLength: 4 })),
      startBinding: fc.oneof(value, fc.record({ elementId: text(3), focus: value, gap: value })),
      containerId: value, boundElements: value, roundness: value, fontFamily: value, strokeWidth: value, angle: value, version: value,
    },
    { requiredKeys: [] },
  );

  it('scene intake: any elements (native or Excalidraw-shaped) are taken or refused with a client error', async () => {
    const scene = fc.oneof(
      fc.array(elementLike, { maxLength: 6 }),
      fc.record({ type: fc.constant('excalidraw'), version: fc.constant(2), elements: fc.array(elementLike, { maxLength: 6 }) }),
      fc.anything(),
    );
    await fc.assert(fc.asyncProperty(scene, (raw) => refusesCleanly(() => intakeScene(raw))), { numRuns: RUNS * 5 });
  }, 120_000);

  it('export: every scene the intake takes exports to every format', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(elementLike, { maxLength: 6 }), async (raw) => {
        let elements;
        try {
          elements = intakeScene(raw).elements;
        } catch {
          return true;
        }
        for (const format of EXPORT_FORMATS) await refusesCleanly(() => exportScene(format, elements));
        return true;
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

describe('every route and tool under generated input', () => {
  const service = useTestService();
  const json = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ workspaceId: text(20), name: text(20), elements: fc.jsonValue({ maxDepth: 2 }), code: text(20), query: text(20), notation: text(12) }, { requiredKeys: [] }));
  const pathValue = fc.oneof(text(120), fc.constantFrom('doc_x', 'ws_x', 'fld_x', '..', '%00', '%ZZ'));

  async function documentCount(): Promise<number> {
    const response = await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents?workspace=${service.world.annWorkspace}&limit=100`, headers: bearer(service.world.tokens.annAll) });
    return response.json().items.length;
  }

  it('REST: no route answers 5xx or anything but our error form, and refused writes store nothing', async () => {
    const { paths } = (await service.runtime.app.inject({ method: 'GET', url: '/api-v1/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ path, method: method.toUpperCase() })));
    let created = 0;
    const before = await documentCount();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations), pathValue, fc.dictionary(fc.oneof(text(6), fc.constantFrom('query', 'library', 'workspace', 'folder')), text(12), { maxKeys: 3 }), json, async (operation, param, query, body) => {
        const url = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(param)) + '?' + new URLSearchParams(query).toString();
        const withBody = ['POST', 'PATCH', 'PUT'].includes(operation.method);
        const response = await service.runtime.app.inject({
          method: operation.method as 'GET',
          url,
          headers: bearer(service.world.tokens.annAll),
          ...(withBody ? { payload: JSON.stringify(body), headers: { ...bearer(service.world.tokens.annAll), 'content-type': 'application/json' } } : {}),
        });
        expect(response.statusCode, `${operation.method} ${url}`).toBeLessThan(500);
        if (response.statusCode >= 400) expect(CLIENT_CODES.has(response.json().error.code), response.body).toBe(true);
        if (operation.method === 'POST' && response.statusCode === 201 && operation.path.startsWith('/api-v1/documents')) created++;
      }),
      { numRuns: RUNS * 3 },
    );
    expect(await documentCount()).toBe(before + created);
  }, 300_000);

  it('MCP: no tool answers with an internal error, whatever its arguments', async () => {
    const mcp = async (message: object) =>
      (
        await service.runtime.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: { ...bearer(service.world.tokens.annAll), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          payload: message,
        })
      ).json();
    const tools = ((await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).result.tools as { name: string }[]).map((t) => t.name);
    const args = fc.oneof(fc.dictionary(fc.constantFrom('id', 'workspaceId', 'elements', 'code', 'name', 'format', 'query', 'limit', 'preview', 'notation'), fc.oneof(text(20), fc.jsonValue({ maxDepth: 2 }))), fc.jsonValue({ maxDepth: 2 }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tools), args, async (name, argumentsValue) => {
        const reply = await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: argumentsValue } });
        const text = JSON.stringify(reply);
        expect(text, text.slice(0, 300)).not.toContain('"internal"');
        expect(text).not.toMatch(/at .+\.(ts|js):\d+/); // no stack trace
      }),
      { numRuns: RUNS * 2 },
    );
  }, 300_000);

  it('keeps a seeded document readable after all of it', async () => {
    const created = await service.runtime.app.inject({ method: 'POST', url: '/api-v1/documents', headers: bearer(service.world.tokens.annAll), payload: { workspaceId: service.world.annWorkspace, name: 'after', elements: [box('a')] } });
    expect(created.statusCode).toBe(201);
  });
});
