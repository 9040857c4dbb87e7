import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { intakeScene, type Element } from './intake.js';
import { IMAGE_DATA_URL_MAX_CHARS } from './constants.js';
import type { ArrowElement } from './schema.js';

const FIXTURES = new URL('../../../test/fixtures/excalidraw/', import.meta.url);
const corpus = readdirSync(FIXTURES).filter((f) => f.endsWith('.excalidraw'));
const load = (name: string) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as { elements: Array<Record<string, any>> };

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const ex = (patch: Record<string, unknown>) => ({
  x: 0,
  y: 0,
  width: 100,
  height: 50,
  angle: 0,
  strokeColor: '#1e1e1e',
  backgroundColor: 'transparent',
  fillStyle: 'solid',
  strokeWidth: 2,
  strokeStyle: 'solid',
  roughness: 1,
  opacity: 100,
  groupIds: [],
  roundness: null,
  seed: 1,
  version: 1,
  versionNonce: 1,
  isDeleted: false,
  boundElements: null,
  ...patch,
});

/** One of each thing the import handles, as Excalidraw writes it. */
const SAMPLE = [
  ex({ id: 'box', type: 'rectangle', x: 0, y: 0, width: 200, height: 100, backgroundColor: '#a5d8ff', roundness: { type: 3 }, groupIds: ['g1'], boundElements: [{ type: 'text', id: 'box-label' }, { type: 'arrow', id: 'link' }] }),
  ex({ id: 'box-label', type: 'text', x: 70, y: 38, width: 60, height: 25, text: 'API\nv2', originalText: 'API v2', fontSize: 16, fontFamily: 3, textAlign: 'center', verticalAlign: 'middle', containerId: 'box', groupIds: ['g1'] }),
  ex({ id: 'round', type: 'ellipse', x: 400, y: 0, width: 120, height: 100, roughness: 0, boundElements: [{ type: 'arrow', id: 'link' }] }),
  ex({ id: 'choice', type: 'diamond', x: 0, y: 300, roughness: 2, fillStyle: 'zigzag' }),
  ex({ id: 'note', type: 'text', x: 600, y: 0, width: 80, height: 25, text: 'free', originalText: 'free', fontSize: 20, fontFamily: 6, textAlign: 'left', verticalAlign: 'top', containerId: null }),
  ex({ id: 'link', type: 'arrow', x: 210, y: 50, width: 180, height: 0, points: [[0, 0], [180, 0]], startArrowhead: 'dot', endArrowhead: 'triangle_outline', startBinding: { elementId: 'box', focus: 0, gap: 10 }, endBinding: { elementId: 'round', fixedPoint: [0.0001, 0.5001], mode: 'orbit' }, boundElements: [{ type: 'text', id: 'link-label' }] }),
  ex({ id: 'link-label', type: 'text', text: 'calls', originalText: 'calls', fontSize: 20, fontFamily: 5, textAlign: 'center', verticalAlign: 'middle', containerId: 'link' }),
  ex({ id: 'bent', type: 'arrow', x: 0, y: 500, points: [[0, 0], [100, 0], [100, 80]], startArrowhead: null, endArrowhead: 'arrow', startBinding: null, endBinding: null, elbowed: true }),
  ex({ id: 'curve', type: 'arrow', x: 0, y: 700, points: [[0, 0], [50, -40], [100, 0]], roundness: { type: 2 }, startArrowhead: null, endArrowhead: 'arrow' }),
  ex({ id: 'pic', type: 'image', x: 700, y: 300, fileId: 'f1', status: 'saved', scale: [1, 1] }),
  ex({ id: 'area', type: 'frame', x: -50, y: -50, width: 900, height: 900, name: 'Platform' }),
  ex({ id: 'yt', type: 'embeddable', x: 900, y: 0, link: 'https://www.youtube.com/watch?v=x' }),
  ex({ id: 'scribble', type: 'freedraw', x: 10, y: 10, points: [[0, 0], [5, 5], [9, 2]], pressures: [], simulatePressure: true }),
  ex({ id: 'old', type: 'draw', x: 10, y: 900, points: [[0, 0], [30, 30], [60, 0]] }),
  ex({ id: 'gone', type: 'rectangle', isDeleted: true }),
  ex({ id: 'sel', type: 'selection' }),
  ex({ id: 'frame-html', type: 'iframe' }),
];
const FILES = { f1: { id: 'f1', mimeType: 'image/png', dataURL: PNG, created: 1 } };

const byId = (elements: Element[]) => new Map(elements.map((e) => [e.id, e]));

describe('Excalidraw detection', () => {
  it.each([
    ['a .excalidraw file object', { type: 'excalidraw', version: 2, source: 'https://excalidraw.com', elements: SAMPLE, appState: {}, files: FILES }],
    ['its clipboard form', { type: 'excalidraw/clipboard', elements: SAMPLE, files: FILES }],
  ])('detects %s', (_, raw) => {
    const { format, elements } = intakeScene(raw);
    expect(format).toBe('excalidraw');
    expect(byId(elements).get('pic')).toMatchObject({ type: 'image', dataUrl: PNG });
  });

  it('detects a bare elements array by its Excalidraw fields (without files, images are dropped with a warning)', () => {
    const { format, warnings } = intakeScene(SAMPLE);
    expect(format).toBe('excalidraw');
    expect(warnings).toContain(`Excalidraw element "pic": image dropped, its file is not in the scene's files`);
  });

  it.each([
    ['numeric roughness', { type: 'rectangle', x: 0, y: 0, width: 1, height: 1, roughness: 1 }],
    ['backgroundColor', { type: 'rectangle', x: 0, y: 0, width: 1, height: 1, backgroundColor: '#fff' }],
    ['relative points', { type: 'line', x: 5, y: 5, points: [[0, 0], [10, 0]] }],
  ])('tells one marker apart: %s', (_, element) => {
    expect(intakeScene([element]).format).toBe('excalidraw');
  });

  it('reads a native array as native', () => {
    expect(intakeScene([{ type: 'rectangle', x: 0, y: 0, width: 10, height: 10, roughness: 'clean' }]).format).toBe('native');
  });

  /** A native scene a client wrote by hand: labels, fills, icons and a native-only shape. */
  const NATIVE = [
    { type: 'cylinder', id: 'db', x: 0, y: 0, width: 120, height: 80, text: 'Postgres', fillColor: '#b2f2bb' },
    { type: 'rectangle', id: 'api', x: 200, y: 0, width: 160, height: 80, text: 'API', iconRef: 'aws/AWS Lambda' },
  ];

  it('reads a native array with one stray Excalidraw-style value as native, naming the stray value', () => {
    const error = (() => {
      try {
        intakeScene([...NATIVE, { type: 'rectangle', id: 'r', x: 0, y: 200, width: 10, height: 10, roughness: 1 }]);
      } catch (e) {
        return e as AppError;
      }
      throw new Error('expected a validation error');
    })();
    expect(error).toMatchObject({ code: 'validation_failed', message: 'elements[2] (id "r"): roughness must be one of: clean, sketch, scribble' });

    const result = intakeScene([...NATIVE, { type: 'rectangle', id: 'r', x: 0, y: 200, width: 10, height: 10, backgroundColor: '#fff' }]);
    expect(result.format).toBe('native');
    expect(result.warnings).toEqual(['elements[2] (id "r"): unknown field "backgroundColor" dropped']);
    expect(byId(result.elements).get('db')).toMatchObject({ type: 'cylinder', text: 'Postgres', fillColor: '#b2f2bb' });
    expect(byId(result.elements).get('api')).toMatchObject({ text: 'API', iconRef: 'aws/AWS Lambda' });
  });

  it('refuses an array that mixes native elements with Excalidraw ones, naming one of each', () => {
    expect(() => intakeScene([...NATIVE, ex({ id: 'x', type: 'rectangle' })])).toThrowError(
      'elements mixes two formats: elements[0] (id "db") looks native (fillColor, type "cylinder", text on a cylinder) but ' +
        'elements[2] (id "x") looks like Excalidraw (versionNonce, version, boundElements, …); send each scene in one format',
    );
  });

  it('refuses an element that mixes native and Excalidraw fields', () => {
    expect(() => intakeScene([ex({ id: 'x', type: 'rectangle', fillColor: '#fff', iconRef: 'aws/Amazon S3' })])).toThrowError(
      'elements[0] (id "x") mixes native fields (fillColor, iconRef) with Excalidraw fields (versionNonce, version, boundElements, …); send each scene in one format',
    );
  });

  it('refuses an Excalidraw library with a clear error', () => {
    expect(() => intakeScene({ type: 'excalidrawlib', version: 2, libraryItems: [] })).toThrowError(
      new AppError('unsupported_format', 'Excalidraw libraries (type "excalidrawlib") are not scenes; send a .excalidraw file or its elements'),
    );
  });
});

describe('Excalidraw conversion', () => {
  const { elements, warnings } = intakeScene({ type: 'excalidraw', version: 2, elements: SAMPLE, files: FILES });
  const get = (id: string) => byId(elements).get(id)!;

  it('turns container-bound text into the container label, keeping font, size and alignment', () => {
    expect(get('box')).toMatchObject({ text: 'API v2', fontSize: 16, fontFamily: 'code', textAlign: 'center' });
    expect(get('link')).toMatchObject({ text: 'calls', fontFamily: 'hand' });
    expect(elements.some((e) => e.id === 'box-label' || e.id === 'link-label')).toBe(false);
  });

  it('maps colours, roundness, roughness, fonts and groups', () => {
    expect(get('box')).toMatchObject({ fillColor: '#a5d8ff', corner: 'rounded', roughness: 'sketch', groupIds: ['g1'] });
    expect(get('round')).toMatchObject({ roughness: 'clean', corner: 'sharp' });
    expect(get('choice')).toMatchObject({ roughness: 'scribble', fillStyle: 'zigzag' });
    expect(get('note')).toMatchObject({ type: 'text', text: 'free', fontFamily: 'normal', textAlign: 'left' });
  });

  it('makes points absolute, maps arrowheads and recomputes bindings as focus points', () => {
    const link = get('link') as ArrowElement;
    expect(link).toMatchObject({ startArrowhead: 'circle', endArrowhead: 'triangle-outline', arrowShape: 'straight' });
    expect(link.endBinding).toEqual({ elementId: 'round', focus: { x: 0.0001, y: 0.5 } });
    // v1 binding: the arrow's line continued into the box meets its right side at mid-height.
    expect(link.startBinding).toEqual({ elementId: 'box', focus: { x: 1, y: 0.5 } });
    expect(link.points[0]).toEqual({ x: 200, y: 50 });
    expect(link.points[1]!.x).toBeCloseTo(400, 1);
  });

  it('reads 3 points as an elbow and curved 3 points as a curve through the middle point', () => {
    expect(get('bent')).toMatchObject({ arrowShape: 'elbow', points: [{ x: 0, y: 500 }, { x: 100, y: 500 }, { x: 100, y: 580 }] });
    const curve = get('curve') as ArrowElement;
    expect(curve).toMatchObject({ arrowShape: 'curved', points: [{ x: 0, y: 700 }, { x: 100, y: 700 }] });
    // The quadratic at t=½ is the middle point Excalidraw drew through.
    expect(0.25 * 700 + 0.5 * curve.controlPoint!.y + 0.25 * 700).toBeCloseTo(660);
  });

  it('converts images, frames, embeddables, freedraw and the 2020 draw type', () => {
    expect(get('pic')).toMatchObject({ type: 'image', dataUrl: PNG, width: 100, height: 50 });
    expect(get('area')).toMatchObject({ type: 'frame', name: 'Platform', strokeStyle: 'dashed' });
    expect(get('yt')).toMatchObject({ type: 'embed', url: 'https://www.youtube.com/watch?v=x' });
    expect(get('scribble')).toMatchObject({ type: 'freedraw', points: [{ x: 10, y: 10 }, { x: 15, y: 15 }, { x: 19, y: 12 }] });
    expect(get('old')).toMatchObject({ type: 'line', lineShape: 'multipoint' });
  });

  it('drops deleted, selection and iframe elements, saying why when it matters', () => {
    expect(elements.map((e) => e.id)).not.toEqual(expect.arrayContaining(['gone']));
    expect(elements.map((e) => e.id)).not.toContain('sel');
    expect(warnings).toEqual(['Excalidraw element "frame-html": type "iframe" has no native counterpart and was dropped']);
  });

  it('drops unsafe links, non-raster images and dangling bindings with warnings instead of failing the import', () => {
    const result = intakeScene({
      type: 'excalidraw',
      elements: [
        ex({ id: 'r', type: 'rectangle', link: 'javascript:alert(1)' }),
        ex({ id: 'svg', type: 'image', fileId: 's' }),
        ex({ id: 'a', type: 'arrow', points: [[0, 0], [10, 0]], startBinding: { elementId: 'nowhere', focus: 0, gap: 1 } }),
        ex({ id: 'c', type: 'rectangle', strokeColor: 'red' }),
      ],
      files: { s: { id: 's', mimeType: 'image/svg+xml', dataURL: 'data:image/svg+xml;base64,PHN2Zy8+' } },
    });
    expect(result.warnings).toEqual([
      'Excalidraw element "r": link dropped, only http(s), mailto and relative links are kept',
      'Excalidraw element "svg": image dropped, image/svg+xml is not one of image/png, image/jpeg, image/gif, image/webp',
      'Excalidraw element "a": startBinding to "nowhere" dropped, no such shape in the scene',
      'Excalidraw element "c": strokeColor "red" is not a hex colour; the default was used',
    ]);
    expect(result.elements.map((e) => e.id)).toEqual(['r', 'a', 'c']);
  });

  it('drops an image over the size limit, or with a malformed data URL, instead of failing the import', () => {
    const huge = `data:image/png;base64,${'A'.repeat(IMAGE_DATA_URL_MAX_CHARS)}`;
    const result = intakeScene({
      type: 'excalidraw',
      elements: [
        ex({ id: 'big', type: 'image', fileId: 'huge' }),
        ex({ type: 'image', fileId: 'huge' }),
        ex({ id: 'bad', type: 'image', fileId: 'bad' }),
        ex({ id: 'ok', type: 'image', fileId: 'f1' }),
        ex({ id: 'r', type: 'rectangle' }),
      ],
      files: { ...FILES, huge: { id: 'huge', mimeType: 'image/png', dataURL: huge }, bad: { id: 'bad', mimeType: 'image/png', dataURL: 'data:image/png;base64,not base64!' } },
    });
    const over = `is ${huge.length} characters as a data URL, over the limit of ${IMAGE_DATA_URL_MAX_CHARS}`;
    expect(result.warnings).toEqual([
      `Excalidraw element "big": image dropped, its file "huge" ${over}`,
      `Excalidraw elements[1] (type "image"): image dropped, its file "huge" ${over}`,
      `Excalidraw element "bad": image dropped, its file's data URL must be a base64 data URL of type image/png, image/jpeg, image/gif, image/webp`,
    ]);
    expect(result.elements.map((e) => e.id)).toEqual(['ok', 'r']);
  });

  it('gives a repeated id a new one, as Excalidraw does, instead of refusing the file', () => {
    const result = intakeScene([ex({ id: 'twin', type: 'rectangle' }), ex({ id: 'twin', type: 'ellipse' })]);
    expect(result.elements.map((e) => e.id)).toEqual(['twin', 'ellipse-1']);
    expect(result.warnings).toEqual(['Excalidraw element "twin": id repeats an earlier element; a new id was given']);
  });
});

/** Distance of a point from an element's outline, in px (0 = on it). */
function offOutline(target: Element, p: { x: number; y: number }): number {
  const cx = target.x + target.width / 2;
  const cy = target.y + target.height / 2;
  const dx = (p.x - cx) / (target.width / 2);
  const dy = (p.y - cy) / (target.height / 2);
  const r = target.type === 'ellipse' ? Math.hypot(dx, dy) : target.type === 'diamond' ? Math.abs(dx) + Math.abs(dy) : Math.max(Math.abs(dx), Math.abs(dy));
  return Math.abs(r - 1) * Math.min(target.width, target.height) / 2;
}

describe.each(corpus)('real scene %s', (name) => {
  const raw = load(name);
  const live = raw.elements.filter((e) => !e.isDeleted);
  const liveIds = new Set(live.map((e) => e.id));
  const count = (types: string[]) => live.filter((e) => types.includes(e.type)).length;
  const byLiveId = new Map(live.map((e) => [e.id, e]));
  const bound = live.filter((e) => e.type === 'text' && liveIds.has(e.containerId));
  // A label in another colour than its shape's stroke stays a text of its own, grouped with its shape.
  const ownColour = bound.filter((e) => {
    const container = byLiveId.get(e.containerId)!;
    return !['arrow', 'line'].includes(container.type) && e.strokeColor.toLowerCase() !== container.strokeColor.toLowerCase();
  });
  const onShapes = bound.filter((e) => !ownColour.includes(e));
  const containers = new Set(onShapes.map((e) => e.containerId));
  const labels = onShapes.map((e) => (e.originalText || e.text) as string);
  const labelGroups = new Set(ownColour.flatMap((e) => [e.id, e.containerId]));
  const bindings = live.flatMap((e) => [e.startBinding, e.endBinding]).filter((b) => b && liveIds.has(b.elementId)).length;

  const { elements, warnings, format } = intakeScene(raw);
  const of = (types: string[]) => elements.filter((e) => types.includes(e.type));

  it('converts without warnings', () => {
    expect(format).toBe('excalidraw');
    expect(warnings).toEqual([]);
  });

  it('keeps every shape, line, arrow and free text', () => {
    for (const t of ['rectangle', 'ellipse', 'diamond', 'arrow']) expect(of([t]).length).toBe(count([t]));
    expect(of(['line']).length).toBe(count(['line', 'draw']));
    expect(of(['text']).length).toBe(count(['text']) - labels.length);
    const grouped = (list: readonly { id?: string; groupIds?: string[] }[]) => list.filter((e) => (e.groupIds?.length ?? 0) > 0 && !labelGroups.has(e.id!)).length;
    expect(grouped(elements)).toBe(grouped(live.filter((e) => !containers.has(e.containerId))));
    for (const label of ownColour) {
      const text = elements.find((e) => e.type === 'text' && e.text === (label.originalText || label.text))!;
      expect(text.strokeColor.toLowerCase()).toBe(label.strokeColor.toLowerCase());
      expect(text.groupIds).toContain(`${label.containerId}-label`);
      expect(elements.find((e) => e.id === label.containerId)?.groupIds).toContain(`${label.containerId}-label`);
    }
  });

  it('moves every bound label onto its container', () => {
    const texts = elements.filter((e) => e.type !== 'text' && e.text !== undefined).map((e) => e.text);
    expect(texts.sort()).toEqual([...labels].sort());
    expect(elements.filter((e) => containers.has(e.id)).every((e) => e.text !== undefined)).toBe(true);
  });

  it('keeps every binding, with bound ends on their shapes', () => {
    const arrows = of(['arrow']) as ArrowElement[];
    const kept = arrows.flatMap((a) => [a.startBinding, a.endBinding]).filter(Boolean);
    expect(kept.length).toBe(bindings);
    const index = byId(elements);
    for (const a of arrows) {
      if (a.startBinding) expect(offOutline(index.get(a.startBinding.elementId)!, a.points[0]!)).toBeLessThan(1);
      if (a.endBinding) expect(offOutline(index.get(a.endBinding.elementId)!, a.points.at(-1)!)).toBeLessThan(1);
    }
  });

  it('keeps geometry of unbound elements exactly', () => {
    const index = byId(elements);
    for (const e of live.filter((s) => ['rectangle', 'ellipse', 'diamond'].includes(s.type))) {
      expect(index.get(e.id)).toMatchObject({ x: e.x, y: e.y, width: e.width, height: e.height, angle: e.angle });
    }
  });
});

describe('Excalidraw element skeletons (convertToExcalidrawElements input)', () => {
  it('keeps labels, text on containers and start/end connections instead of dropping them', () => {
    const { elements, warnings, format } = intakeScene([
      { type: 'rectangle', id: 'client', x: 0, y: 0, width: 160, height: 80, label: { text: 'Client' } },
      { type: 'rectangle', id: 'api', x: 300, y: 0, width: 160, height: 80, label: { text: 'API' } },
      { type: 'arrow', x: 160, y: 40, start: { id: 'client' }, end: { id: 'api' }, label: { text: 'HTTPS' } },
      { type: 'arrow', x: 380, y: 80, width: 0, height: 120, start: { id: 'api' }, end: { type: 'ellipse', text: 'DB' } },
      { type: 'diamond', x: 0, y: 200, width: 120, height: 80, text: 'ok?' },
    ]);
    expect(format).toBe('excalidraw');
    expect(warnings).toEqual([]);
    const byText = (text: string) => elements.find((e) => 'text' in e && e.text === text) as any;
    expect(byText('Client')).toMatchObject({ id: 'client', type: 'rectangle' });
    expect(byText('ok?')).toMatchObject({ type: 'diamond' });
    expect(byText('HTTPS')).toMatchObject({ type: 'arrow', arrowShape: 'smart', startBinding: { elementId: 'client' }, endBinding: { elementId: 'api' } });
    const db = byText('DB');
    expect(db).toMatchObject({ type: 'ellipse' });
    const toDb = elements.find((e: any) => e.type === 'arrow' && e.endBinding?.elementId === db.id) as any;
    expect(toDb.startBinding.elementId).toBe('api');
    // Every arrow has length: the skeleton's missing points were filled in.
    for (const arrow of elements.filter((e: any) => e.type === 'arrow') as any[]) expect(arrow.width + arrow.height).toBeGreaterThan(0);
  });
});
