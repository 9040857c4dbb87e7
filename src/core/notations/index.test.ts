import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { intakeScene } from '../scene/intake.js';
import { codeToScene, detectNotation, isD2Code, supportedNotations } from './index.js';

const fixtures = new URL('../../../test/fixtures/', import.meta.url);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a rejection');
}

describe('detectNotation', () => {
  // D2 too, which has no converter here (D2's compiler runs in infra) but is detected like the others.
  for (const notation of supportedNotations()) {
    it(`recognises every ${notation} corpus input as ${notation}`, () => {
      const folder = new URL(`${notation}/`, fixtures);
      for (const file of readdirSync(folder).filter((name) => name !== 'NOTICE.md')) {
        expect([file, detectNotation(readFileSync(new URL(file, folder), 'utf8'))]).toEqual([file, notation]);
      }
    });
  }

  it('recognises nothing in prose or an empty input', () => {
    expect(detectNotation('Hello, this is a shopping list: eggs, milk.')).toBeUndefined();
    expect(detectNotation('')).toBeUndefined();
  });

  it('tells D2 by its connections, shapes and keys', () => {
    expect(detectNotation('web -> api: calls\napi -> db')).toBe('d2');
    expect(detectNotation('direction: right\nx: {shape: cylinder}')).toBe('d2');
    expect(detectNotation('db: Postgres {\n  shape: cylinder\n}\napi <-> db')).toBe('d2');
    expect(detectNotation('vpc: {\n  a -- b\n}')).toBe('d2');
  });

  it('leaves Mermaid, PlantUML, DOT and YAML with arrows in them to their own readers', () => {
    expect(detectNotation('flowchart LR\n  a --> b\n  b -> c')).toBe('mermaid');
    expect(detectNotation('sequenceDiagram\n  Alice->>Bob: hi')).toBe('mermaid');
    expect(detectNotation('@startuml\nAlice -> Bob: hi\n@enduml')).toBe('plantuml');
    expect(detectNotation('digraph G {\n  a -> b\n}')).toBe('dot');
    expect(detectNotation('graph {\n  a -- b\n}')).toBe('dot');
    expect(detectNotation('services:\n  web:\n    image: nginx\n    command: ["a -> b"]')).toBe('compose');
    expect(detectNotation('apiVersion: v1\nkind: ConfigMap\ndata:\n  flow: a -> b')).toBe('kubernetes');
  });

  it('reads YAML that starts on its document marker (`--- services:`) as YAML, never as D2, and draws it', async () => {
    const compose = '--- services:\n  web:\n    image: nginx\n    depends_on: [db]\n  db:\n    image: postgres\n';
    expect(detectNotation(compose)).toBe('compose');
    expect(isD2Code(compose, undefined)).toBe(false);
    expect(detectNotation(`---\n${compose.slice(4)}`)).toBe('compose');
    const drawn = await codeToScene(compose);
    expect(drawn.graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['service:web->service:db']);
    expect(detectNotation('--- apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n')).toBe('kubernetes');
    expect(detectNotation('---\nimage:\n  repository: nginx\nreplicaCount: 2\nservice:\n  type: ClusterIP\n')).toBe('helm');
  });

  it('sends D2 to D2\'s compiler, asked for or detected, and other code to the converters', () => {
    expect(isD2Code('a -> b', undefined)).toBe(true);
    expect(isD2Code('a -> b', 'd2')).toBe(true);
    expect(isD2Code('digraph { a -> b }', undefined)).toBe(false);
    expect(isD2Code('a -> b', 'dot')).toBe(false);
    expect(() => isD2Code('a -> b\n'.repeat(LIMITS.codeLines), 'd2')).toThrow(/at most 50000 lines/);
  });
});

describe('codeToScene', () => {
  it('detects, parses, lays out and draws, returning what it read and what it approximated', async () => {
    const result = await codeToScene('digraph { rankdir=LR; a -> b:p1 [label="calls"] }');
    expect(result.notation).toBe('dot');
    expect(result.warnings).toEqual(['edges to ports no record field or table cell names attach to the whole node (b:p1)']);
    expect(result.elements.map((element) => element.type).sort()).toEqual(['arrow', 'ellipse', 'ellipse', 'text']);
    expect(intakeScene(result.elements).elements).toHaveLength(4);
    const a = result.elements.find((element) => element.id === result.elementIds.nodes.get('a'))!;
    const b = result.elements.find((element) => element.id === result.elementIds.nodes.get('b'))!;
    expect(Number(b.x)).toBeGreaterThan(Number(a.x) + Number(a.width));
  });

  it('uses the notation asked for instead of detecting', async () => {
    const error = await failure(codeToScene('digraph { a -> b }', { notation: 'compose' }));
    expect(error.code).toBe('parse_error');
  });

  it('answers unsupported_notation listing the supported notations', async () => {
    const error = await failure(codeToScene('just some words'));
    expect(error.code).toBe('unsupported_notation');
    expect(error.details).toEqual({ supported: supportedNotations() });
    expect(error.message).toContain(`supported notations: ${supportedNotations().join(', ')}`);
    expect((await failure(codeToScene('a -> b', { notation: 'visio' }))).code).toBe('unsupported_notation');
  });

  it('refuses code over 1 MiB', async () => {
    const error = await failure(codeToScene(`digraph { ${'a -> b; '.repeat(LIMITS.codeBytes / 8 + 1)} }`));
    expect(error.code).toBe('payload_too_large');
  });

  it(`refuses code over ${LIMITS.codeLines} lines, counting them in linear time`, async () => {
    const error = await failure(codeToScene('\n'.repeat(LIMITS.codeLines)));
    expect(error).toMatchObject({ code: 'payload_too_large', message: `code: at most ${LIMITS.codeLines} lines, got ${LIMITS.codeLines + 1}` });
  });

  it('refuses a graph over the node limit or nested too deep before laying it out, naming the figure', async () => {
    const nodes = Array.from({ length: LIMITS.graphNodes + 1 }, (_, i) => `n${i};`).join(' ');
    expect(await failure(codeToScene(`digraph { ${nodes} }`))).toMatchObject({
      code: 'too_complex',
      message: `the diagram has ${LIMITS.graphNodes + 1} nodes; at most ${LIMITS.graphNodes} can be laid out`,
    });
    const depth = LIMITS.nestingDepth + 1;
    const nested = Array.from({ length: depth }, (_, i) => `subgraph cluster_${i} {`).join('\n') + '\na -> b\n' + '}\n'.repeat(depth);
    expect(await failure(codeToScene(`digraph {\n${nested}}`))).toMatchObject({ code: 'too_complex', details: { limit: 'levels of nesting', got: depth } });
  });

  it('passes a syntax error through with its line and column', async () => {
    const error = await failure(codeToScene('digraph {\n a -> -> b\n}'));
    expect(error).toMatchObject({ code: 'parse_error', details: { line: 2, column: 7 } });
  });
});
