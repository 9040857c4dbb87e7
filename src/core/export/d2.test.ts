import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { intakeScene } from '../scene/intake.js';
import type { Element, ElementInput } from '../scene/schema.js';
import { d2String, toD2 } from './d2.js';
import { recoverGraph } from './graph-recovery.js';
import { d2Count } from '../../../test/support/real-tools.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
const load = (path: string): Element[] => intakeScene(JSON.parse(readFileSync(join(fixtures, path), 'utf8'))).elements;
const scene = (elements: ElementInput[]) => intakeScene(elements).elements;
const box = (id: string, x: number, y: number, extra: Partial<ElementInput> = {}) =>
  ({ id, type: 'rectangle', x, y, width: 160, height: 80, roughness: 'clean', ...extra }) as ElementInput;
const arrow = (id: string, from: string, to: string, extra: Partial<ElementInput> = {}) =>
  ({ id, type: 'arrow', startBinding: { elementId: from }, endBinding: { elementId: to }, roughness: 'clean', ...extra }) as ElementInput;
const ICONS = { iconBaseUrl: 'https://draw.example.com/' };

/** Goldens change only on purpose: `UPDATE_GOLDENS=1 npx vitest run src/core/export` rewrites them. */
function expectGolden(file: string, code: string) {
  const path = join(fixtures, 'export', file);
  if (process.env.UPDATE_GOLDENS === '1' || !existsSync(path)) writeFileSync(path, code);
  expect(code).toBe(readFileSync(path, 'utf8'));
}

describe('toD2 goldens, compiled by D2', () => {
  it.each([
    ['excalidraw/native-every-type.json', 'native-every-type.d2'],
    ['export/er-scene.json', 'er-scene.d2'],
    ['export/class-scene.json', 'class-scene.d2'],
  ])('%s → %s', async (input, golden) => {
    const graph = recoverGraph(load(input));
    const { code } = toD2(graph, ICONS);
    expectGolden(golden, code);
    expect(await d2Count(code)).toMatchObject({ nodes: graph.nodes.length, edges: graph.edges.length, groups: graph.groups.length });
  });
});

describe('toD2', () => {
  it('maps both arrowheads, end labels and the connection style', () => {
    const { code, warnings } = toD2(
      recoverGraph(
        scene([
          box('orders', 0, 0),
          box('lines', 400, 0),
          arrow('has', 'orders', 'lines', { startArrowhead: 'double-bar', endArrowhead: 'circle-crows-foot', strokeStyle: 'dashed', text: 'has', strokeWidth: 3 }),
          arrow('uses', 'lines', 'orders', { startArrowhead: 'diamond-outline', endArrowhead: 'none' }),
          arrow('tee', 'orders', 'lines', { endArrowhead: 'bar' }),
        ]),
      ),
    );
    expect(code).toContain('orders <-> lines: "has" {\n  source-arrowhead: {shape: cf-one-required}\n  target-arrowhead: {shape: cf-many}\n  class: s1\n}');
    expect(code).toContain('lines <- orders {\n  source-arrowhead: {shape: diamond; style.filled: false}\n');
    expect(code).toContain('s1: {style: {stroke: "#1e1e1e"; stroke-width: 3; stroke-dash: 5; font-size: 20}}');
    expect(code).toMatch(/^direction: right\n/);
    expect(warnings).toEqual(['edge "tee": D2 has no bar arrowhead; drawn as cf-one-required']);
  });

  it('links stamped icons to the service’s public icon URLs, and says so when there is no URL', () => {
    const graph = recoverGraph(scene([box('bucket', 0, 0, { iconRef: 'aws/Amazon S3 (Glacier)', text: 'Archive' })]));
    expect(toD2(graph, ICONS).code).toContain('icon: "https://draw.example.com/icons/aws/Amazon%20S3%20(Glacier).svg"');
    expect(toD2(graph).warnings).toEqual(['node "bucket": icon aws/Amazon S3 (Glacier) left out (no public URL to link it from)']);
  });

  it('writes sketchy scenes in sketch mode and switches to ELK when an edge joins a container to its content', async () => {
    const { code } = toD2(
      recoverGraph(
        scene([
          { id: 'vpc', type: 'frame', x: 0, y: 0, width: 600, height: 300, name: 'VPC' },
          box('api', 40, 60, { roughness: 'sketch' }),
          { ...arrow('into', 'vpc', 'api'), roughness: 'sketch' } as ElementInput,
        ]),
      ),
    );
    expect(code).toContain('vars: {d2-config: {sketch: true; layout-engine: elk}}');
    expect(code).toContain('vpc -> vpc.api {\n  target-arrowhead: {shape: arrow}\n  class: s2\n}');
    expect(await d2Count(code)).toMatchObject({ nodes: 1, edges: 1, groups: 1 });
  });

  it('drops colour alpha with a warning, since D2 colours are opaque', () => {
    const { code, warnings } = toD2(recoverGraph(scene([box('a', 0, 0, { fillColor: '#a5d8ff80' })])));
    expect(code).toContain('fill: "#a5d8ff"');
    expect(warnings).toEqual(['node "a": fill #a5d8ff80 drawn without its alpha (D2 colours are opaque)']);
  });

  it('quotes labels so quotes, $ substitutions, backslashes and line breaks survive D2', async () => {
    const label = 'cost ${x} "quoted" \\ {a; b} # not a comment\nline 2 → 日本';
    expect(d2String(label)).toBe('"cost \\${x} \\"quoted\\" \\\\ {a; b} # not a comment\\nline 2 → 日本"');
    const { code } = toD2(recoverGraph(scene([box('shape', 0, 0, { text: label })])));
    expect((await d2Count(code)).labels.get('n_shape')).toBe(label);
  });
});
