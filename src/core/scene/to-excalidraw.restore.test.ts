// @vitest-environment jsdom
import { readFileSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITY_EXAMPLES } from './capabilities.js';
import { intakeScene } from './intake.js';
import { toExcalidraw, type ExcalidrawElement, type ExcalidrawScene } from './to-excalidraw.js';

/**
 * The export checked by Excalidraw itself: its restore() (what excalidraw.com, Obsidian and the VS Code extension
 * run when opening a file) must keep every element as written, with nothing to repair. Needs
 * `server.deps.inline: ['@excalidraw/excalidraw']` in vitest.config.ts (its dist has ESM imports Node cannot resolve).
 */

type Restore = (data: unknown, localAppState: null, localElements: null) => { elements: ExcalidrawElement[] };
let restore: Restore;

beforeAll(async () => {
  // jsdom has no canvas; Excalidraw only measures text with it, which restore() does not need.
  const context = new Proxy({ filter: 'none', measureText: (t: string) => ({ width: t.length * 10 }) }, {
    get: (target, key) => (key in target ? target[key as keyof typeof target] : () => undefined),
  });
  const { HTMLCanvasElement } = globalThis as unknown as { HTMLCanvasElement: { prototype: { getContext: unknown } } };
  HTMLCanvasElement.prototype.getContext = () => context;
  ({ restore } = (await import('@excalidraw/excalidraw')) as unknown as { restore: Restore });
}, 60_000);

// Relative to the repository root (vitest's working directory): under jsdom, import.meta.url is not a file URL.
const FIXTURES = 'test/fixtures/excalidraw/';
const read = (name: string): unknown => JSON.parse(readFileSync(`${FIXTURES}${name}`, 'utf8'));
const scenes: Array<[string, ExcalidrawScene]> = [
  ['every native type', toExcalidraw(intakeScene(read('native-every-type.json')).elements).scene],
  ...CAPABILITY_EXAMPLES.map((e): [string, ExcalidrawScene] => [e.title, toExcalidraw(intakeScene(e.elements).elements).scene]),
  ...readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.excalidraw'))
    .map((f): [string, ExcalidrawScene] => [`${f} imported and exported`, toExcalidraw(intakeScene(read(f)).elements).scene]),
];

/** What restore() would change if the file were incomplete or inconsistent. */
const KEPT = [
  'id', 'type', 'x', 'y', 'width', 'height', 'angle', 'strokeColor', 'backgroundColor', 'fillStyle', 'strokeWidth', 'strokeStyle',
  'roughness', 'opacity', 'roundness', 'seed', 'groupIds', 'index', 'link', 'points', 'text', 'originalText', 'fontSize',
  'fontFamily', 'textAlign', 'verticalAlign', 'containerId', 'startArrowhead', 'endArrowhead', 'fileId', 'name',
] as const;

describe.each(scenes)('Excalidraw restore() of %s', (_, scene) => {
  it('keeps every element, field and link as written', () => {
    const restored = restore(JSON.parse(JSON.stringify(scene)), null, null).elements;
    expect(restored.map((e) => e.id)).toEqual(scene.elements.map((e) => e.id));
    restored.forEach((after, i) => {
      const before = scene.elements[i]!;
      for (const key of KEPT) if (key in before) expect(after[key], `${before.id}.${key}`).toEqual(before[key]);
      // repairBindings drops links whose other side is missing; none may be dropped.
      expect(after.boundElements ?? [], `${before.id}.boundElements`).toEqual(before.boundElements ?? []);
      for (const end of ['startBinding', 'endBinding'] as const) {
        if (before[end]) expect((after[end] as { elementId: string }).elementId, `${before.id}.${end}`).toBe((before[end] as { elementId: string }).elementId);
      }
    });
  });
});

it('would notice a file restore() has to repair (points not starting at the element origin)', () => {
  const scene = JSON.parse(JSON.stringify(scenes[0]![1])) as ExcalidrawScene;
  const arrow = scene.elements.find((e) => e.id === 'flow')!;
  arrow.points = (arrow.points as number[][]).map(([x, y]) => [x! + 5, y!]);
  expect(restore(scene, null, null).elements.find((e) => e.id === 'flow')!.points).not.toEqual(arrow.points);
});
