import { describe, expect, it } from 'vitest';
import { LIMITS } from '../src/core/limits.js';
import { CONVERTERS, detectNotation } from '../src/core/notations/index.js';
import { availableBackends } from './support/backends.js';
import { NOTATION_SAMPLES, PROTOTYPE_NAMES, withName } from './support/prototype-names.js';
import { bearer, box, useTestService } from './support/world.js';

/** A YAML "billion laughs": seven levels of nine aliases each would expand to 9^7 strings. */
const ALIAS_BOMB = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  .concat(['b', 'c', 'd', 'e', 'f', 'g'].map((key, i) => `${key}: &${key} [${Array(9).fill(`*${'abcdef'[i]}`).join(',')}]`))
  .join('\n');

/**
 * Inputs that once answered 500 (or crashed, or were silently changed): each must now be a 4xx JSON error naming
 * what is wrong, and change nothing.
 */
describe.each(await availableBackends())('bad input on %s', (backend) => {
  const service = useTestService({ backend });
  const headers = () => bearer(service.world.tokens.annAll);
  const post = (url: string, payload: object) => service.runtime.app.inject({ method: 'POST', url, headers: headers(), payload });
  const documentCount = async () =>
    (await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents?workspace=${service.world.annWorkspace}&limit=100`, headers: headers() })).json().items.length;

  /** The request is refused with this status and code, its message contains `message`, and no document appeared. */
  async function refused(request: Promise<{ statusCode: number; json(): any }>, status: number, code: string, message: string | RegExp) {
    const before = await documentCount();
    const response = await request;
    expect(response.statusCode).toBe(status);
    expect(response.json().error.code).toBe(code);
    expect(response.json().error.message).toMatch(message);
    expect(await documentCount()).toBe(before);
  }
  const create = (elements: unknown, name = 'bad') => post('/api-v1/documents', { workspaceId: service.world.annWorkspace, name, elements: elements as object });
  const fromCode = (notation: string, code: string) => post('/api-v1/documents/from-code', { workspaceId: service.world.annWorkspace, notation, code });

  it('names an element type that is not a string instead of failing on it', async () => {
    await refused(create([{ id: 'a', type: { toString: 1 }, x: 0, y: 0 }]), 400, 'validation_failed', 'elements[0] (id "a"): type an object is not a type');
  });

  it(`refuses a line of more than ${LIMITS.pointsPerElement} points, and more than ${LIMITS.pointsPerDocument} in a document`, async () => {
    const points = (n: number) => Array.from({ length: n }, (_, i) => ({ x: i % 100, y: i % 1000 }));
    await refused(create([{ id: 'l', type: 'line', points: points(130_000) }]), 400, 'validation_failed', `points must have at most ${LIMITS.pointsPerElement} points`);
    const strokes = Array.from({ length: LIMITS.pointsPerDocument / LIMITS.pointsPerElement + 1 }, (_, i) => ({ id: `s${i}`, type: 'freedraw', points: points(LIMITS.pointsPerElement) }));
    await refused(create(strokes), 400, 'validation_failed', `at most ${LIMITS.pointsPerDocument} points per document in all`);
  });

  it('refuses coordinates and sizes that are not finite or out of bounds, in both scene formats', async () => {
    // Sent as text: JSON.stringify would turn the Infinity that 1e999 parses to into null.
    const excalidraw = '{"type":"excalidraw","version":2,"elements":[{"id":"r","type":"rectangle","x":1e999,"y":0,"width":10,"height":10}]}';
    const raw = service.runtime.app.inject({
      method: 'POST',
      url: '/api-v1/documents',
      headers: { ...headers(), 'content-type': 'application/json' },
      payload: `{"workspaceId":"${service.world.annWorkspace}","name":"huge","elements":${excalidraw}}`,
    });
    await refused(raw, 400, 'validation_failed', 'elements[0] (id "r"): x must be a finite number');
    await refused(create([{ ...box('big'), width: 1e308, height: 1e308 }]), 400, 'validation_failed', `width must be at most ${LIMITS.sizeMax}`);
    await refused(create([box('far', 2e6)]), 400, 'validation_failed', `x must be between -${LIMITS.coordinateMax} and ${LIMITS.coordinateMax}`);
  });

  it.each([
    ['compose', `services:\n  web:\n    image: nginx\n${ALIAS_BOMB.replace(/^(\w)/gm, 'x-$1')}`],
    ['helm', ALIAS_BOMB],
    ['kubernetes', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n${ALIAS_BOMB.replace(/^/gm, '  ')}`],
  ])('refuses a YAML alias bomb in %s as a parse error', async (notation, code) => {
    await refused(fromCode(notation, code), 400, 'parse_error', 'aliases expand more than');
  });

  it('refuses deep nesting and very large schemas as too complex, naming the figure', async () => {
    const depth = 5000;
    const plantuml = `@startuml\n${'rectangle r {\n'.repeat(depth)}component c\n${'}\n'.repeat(depth)}@enduml\n`;
    await refused(fromCode('plantuml', plantuml), 422, 'too_complex', `levels of nesting; at most ${LIMITS.nestingDepth}`);
    let sql = '';
    for (let i = 0; sql.length < 1_000_000; i++) sql += `CREATE TABLE t${i} (id int primary key, p int references t${Math.max(0, i - 1)}(id));\n`;
    await refused(fromCode('sql', sql), 422, 'too_complex', `nodes; at most ${LIMITS.graphNodes} can be laid out`);
  }, 60_000);

  it('refuses control characters in names, on every backend', async () => {
    await refused(create([], 'a\u0000b'), 400, 'validation_failed', 'body.name: must not contain control characters');
    const folder = await post('/api-v1/folders', { workspaceId: service.world.annWorkspace, name: 'tab\there' });
    expect(folder.statusCode).toBe(400);
  });

  it.each(PROTOTYPE_NAMES)('takes %s as a label, a name, a kind, a shape, a colour or an icon query in every door, never a 500', async (name) => {
    const workspaceId = service.world.annWorkspace;
    const answers: Array<[string, number]> = [];
    const send = async (what: string, request: Promise<{ statusCode: number; body: string }>) => answers.push([what, (await request).statusCode]);
    await send('a box', create([{ ...box('a'), text: name }, { ...box(name, 300), text: name }], name));
    await send('a box with auto icons', post('/api-v1/documents', { workspaceId, name, autoIcons: true, vendor: 'aws', elements: [{ ...box('a'), text: name }] }));
    await send('fields', create([{ ...box('a'), type: name, fontFamily: name, fillStyle: name, strokeStyle: name, roundness: { type: name } }]));
    await send('an iconRef', create([{ ...box('a'), iconRef: `${name}/${name}` }]));
    await send('an Excalidraw arrowhead', create({ type: 'excalidraw', version: 2, elements: [{ id: 'x', type: 'arrow', x: 0, y: 0, points: [[0, 0], [9, 9]], endArrowhead: name, fontFamily: name }] }));
    for (const query of [{ query: name }, { library: name, query: name }] as Record<string, string>[]) {
      await send(`icons ${JSON.stringify(query)}`, service.runtime.app.inject({ method: 'GET', url: `/api-v1/icons?${new URLSearchParams(query)}`, headers: headers() }));
    }
    // Parsing and layout do not depend on the store, so the notation sweep (the slow part) runs on one backend;
    // detection is pure, so only each notation's first sample goes through the undeclared door.
    if (backend === 'sqlite') {
      for (const [notation, samples] of Object.entries(NOTATION_SAMPLES)) {
        for (const [i, sample] of samples.entries()) {
          await send(`${notation} #${i + 1}`, fromCode(notation, withName(sample, name)));
          if (i === 0) await send(`${notation} detected`, post('/api-v1/documents/from-code', { workspaceId, code: withName(sample, name), vendor: 'aws' }));
          else expect(() => detectNotation(withName(sample, name))).not.toThrow();
        }
      }
    }
    const mcp = await service.runtime.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...headers(), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_diagram', arguments: { workspaceId, name, elements: [{ ...box(name), text: name }] } } },
    });
    expect(mcp.json().result.isError, mcp.body.slice(0, 300)).not.toBe(true);
    expect(answers.filter(([, status]) => status >= 500)).toEqual([]);
  }, 180_000);

  it('answers an over-long id with our JSON error, not the router’s', async () => {
    const response = await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/doc_${'x'.repeat(200)}`, headers: headers() });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'bad_request', message: 'a path parameter is longer than 100 characters: no id is that long' } });
  });

  it('refuses a PNG larger than the canvas limit, whatever the scale', async () => {
    const wide = await create([box('a'), box('b', 20_000)], 'wide');
    expect(wide.statusCode).toBe(201);
    const png = (scale: number) =>
      service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${wide.json().id}/render?format=png&scale=${scale}`, headers: headers() });
    const refusedPng = await png(1);
    expect(refusedPng.statusCode).toBe(422);
    expect(refusedPng.json().error).toMatchObject({ code: 'too_complex', details: { limit: 'render pixels' } });
    expect(refusedPng.json().error.message).toMatch(/ask for scale 0\.\d+ or less, or export SVG/);
    const fits = await png(0.5);
    expect(fits.statusCode).toBe(200);
    expect(fits.headers['content-type']).toBe('image/png');
  });
});

describe('notation detection', () => {
  // Each input once kept a detector's regular expression busy for tens of seconds to minutes (quadratic scans).
  const adversarial = {
    'ALTER TABLE lines': 'ALTER TABLE x\n'.repeat(49_000),
    'blank lines': '\n'.repeat(LIMITS.codeLines - 1),
    'unclosed Terraform labels': 'resource "a\n'.repeat(40_000),
    'digraph words': 'digraph '.repeat(120_000),
    'indented blank lines': 'x\n' + ' \n'.repeat(49_000),
  };

  it('reads 1 MiB of adversarial text in linear time', () => {
    const started = performance.now();
    for (const code of Object.values(adversarial)) for (const converter of CONVERTERS) converter.detect(code);
    // Linear scans take milliseconds here; the quadratic ones took 3 s to 45 s each. The bound only catches those.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('very long texts', () => {
  const service = useTestService();
  it('stores and renders a text and an arrow label of 300,000 lines instead of overflowing the stack', async () => {
    const many = 'a\n'.repeat(300_000);
    const created = await service.runtime.app.inject({
      method: 'POST',
      url: '/api-v1/documents',
      headers: bearer(service.world.tokens.annAll),
      payload: { workspaceId: service.world.annWorkspace, name: 'tall', elements: [{ type: 'text', x: 0, y: 0, text: many }, box('a'), box('b', 400), { type: 'arrow', startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' }, text: many }] },
    });
    expect(created.statusCode, created.body.slice(0, 200)).toBe(201);
    const svg = await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${created.json().id}/render?format=svg`, headers: bearer(service.world.tokens.annAll) });
    expect(svg.statusCode).toBeLessThan(500);
  }, 120_000);
});
