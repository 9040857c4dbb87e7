import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { ELEMENT_TYPES, IMAGE_DATA_URL_MAX_CHARS, type ElementType } from './constants.js';
import { intakeScene, type Element } from './intake.js';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const box = { x: 10, y: 20, width: 100, height: 60 };
const line2 = [
  { x: 0, y: 0 },
  { x: 100, y: 50 },
];

/** The smallest element a client may send, per type. */
const MINIMAL: Record<ElementType, Record<string, unknown>> = {
  ...(Object.fromEntries(ELEMENT_TYPES.map((type) => [type, { type, ...box }])) as unknown as Record<ElementType, Record<string, unknown>>),
  text: { type: 'text', x: 0, y: 0, text: 'Hello\nworld' },
  image: { type: 'image', ...box, dataUrl: PNG },
  frame: { type: 'frame', ...box, name: 'VPC' },
  embed: { type: 'embed', ...box, url: 'https://example.com/dashboard' },
  math: { type: 'math', x: 0, y: 0, text: 'e^{i\\pi} + 1 = 0' },
  code: { type: 'code', x: 0, y: 0, text: 'print("hi")', language: 'python' },
  arrow: { type: 'arrow', points: line2 },
  line: { type: 'line', points: line2 },
  freedraw: { type: 'freedraw', points: line2 },
  highlight: { type: 'highlight', points: line2 },
};

function errorOf(raw: unknown): AppError {
  try {
    intakeScene(raw);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the intake to reject the scene');
}
const one = (element: Record<string, unknown>) => intakeScene([element]).elements[0]!;

describe('native schema: every type, defaults filled', () => {
  it.each(ELEMENT_TYPES)('accepts a minimal %s and returns it complete', (type) => {
    const { elements, warnings, format } = intakeScene([MINIMAL[type]]);
    const [element] = elements as [Element];
    expect(format).toBe('native');
    expect(warnings).toEqual([]);
    expect(element).toMatchObject({
      type,
      id: `${type}-1`,
      strokeWidth: expect.any(Number),
      strokeStyle: expect.any(String),
      roughness: 'sketch',
      bowing: 'curved',
      opacity: expect.any(Number),
      angle: 0,
      groupIds: [],
      shadow: 'none',
      seed: expect.any(Number),
    });
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(Number.isFinite(element[key])).toBe(true);
  });

  it('fills the documented defaults for a shape with a label', () => {
    expect(one({ type: 'rectangle', x: 0, y: 0, width: 120, height: 60, text: 'API' })).toEqual({
      type: 'rectangle',
      id: 'rectangle-1',
      x: 0,
      y: 0,
      width: 120,
      height: 60,
      text: 'API',
      fontSize: 20,
      fontFamily: 'hand',
      textAlign: 'center',
      strokeColor: '#1e1e1e',
      fillColor: 'transparent',
      fillStyle: 'solid',
      strokeWidth: 2,
      strokeStyle: 'solid',
      roughness: 'sketch',
      bowing: 'curved',
      corner: 'sharp',
      opacity: 100,
      groupIds: [],
      angle: 0,
      shadow: 'none',
      seed: expect.any(Number),
    });
  });

  it('gives frames a dashed outline, highlights a translucent marker and text an estimated size', () => {
    expect(one(MINIMAL.frame)).toMatchObject({ strokeStyle: 'dashed', name: 'VPC' });
    expect(one(MINIMAL.highlight)).toMatchObject({ opacity: 50, strokeWidth: 8 });
    const text = one(MINIMAL.text);
    expect(text).toMatchObject({ fontSize: 20, fontFamily: 'hand', textAlign: 'left', height: 50 });
    expect(text.width).toBeGreaterThan(0);
    expect(one(MINIMAL.code)).toMatchObject({ fontFamily: 'code', language: 'python' });
  });

  it('keeps given ids, generates unique ones for the rest, and derives a stable seed from the id', () => {
    const { elements } = intakeScene([
      { type: 'rectangle', id: 'rectangle-1', ...box },
      { type: 'rectangle', ...box },
      { type: 'rectangle', id: 'db', ...box, seed: 7 },
    ]);
    expect(elements.map((e) => e.id)).toEqual(['rectangle-1', 'rectangle-2', 'db']);
    expect(elements[2]!.seed).toBe(7);
    expect(one({ type: 'ellipse', id: 'same', ...box }).seed).toBe(one({ type: 'ellipse', id: 'same', ...box }).seed);
  });

  it('normalises an iconRef object to "library/Label"', () => {
    expect(one({ type: 'rectangle', ...box, iconRef: { library: 'aws', label: 'Amazon S3' } }).iconRef).toBe('aws/Amazon S3');
    expect(one({ type: 'rectangle', ...box, iconRef: 'k8s/Pod' }).iconRef).toBe('k8s/Pod');
  });
});

describe('native schema: errors name the element, the field and what was expected', () => {
  const db = { type: 'rectangle', id: 'db', ...box };
  const at3 = (patch: Record<string, unknown>) => [MINIMAL.rectangle, MINIMAL.ellipse, MINIMAL.text, { ...db, ...patch }];

  it.each([
    [{ strokeWidth: 9 }, 'strokeWidth must be between 1 and 8'],
    [{ strokeWidth: 0.5 }, 'strokeWidth must be between 1 and 8'],
    [{ opacity: 101 }, 'opacity must be between 0 and 100'],
    [{ strokeColor: 'red' }, 'strokeColor must be a hex colour like #1e1e1e'],
    [{ fillColor: 'blue' }, 'fillColor must be a hex colour like #a5d8ff or "transparent"'],
    [{ fillStyle: 'wavy' }, 'fillStyle must be one of: hachure, cross-hatch, solid, dots, zigzag, dashed, zigzag-line'],
    [{ strokeStyle: 'dashdot' }, 'strokeStyle must be one of: solid, dashed, dotted'],
    [{ roughness: 'rough' }, 'roughness must be one of: clean, sketch, scribble'],
    [{ corner: 'round' }, 'corner must be one of: sharp, rounded, beveled'],
    [{ fontFamily: 'Comic Sans' }, 'fontFamily must be one of: hand, normal, code'],
    [{ shadow: 'big' }, 'shadow must be one of: none, soft, hard'],
    [{ x: undefined }, 'x is required (a number)'],
    [{ width: '100' }, 'width must be a number'],
    [{ width: -1 }, 'width must be 0 or more'],
    [{ seed: 1.5 }, 'seed must be an integer'],
    [{ groupIds: ['a', ''] }, 'groupIds[1] must not be empty'],
    [{ iconRef: 'Amazon S3' }, 'iconRef must be "<library>/<Item Label>", e.g. "aws/Amazon S3"'],
    [{ iconRef: { library: 'aws' } }, 'iconRef must be "<library>/<Item Label>" or {library, label}'],
  ])('rejects %j', (patch, message) => {
    const error = errorOf(at3(patch));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe(`elements[3] (id "db"): ${message}`);
  });

  it('names unknown and missing types, and non-objects', () => {
    expect(errorOf([{ type: 'blob', ...box }]).message).toMatch(/^elements\[0\]: type "blob" is not a type; expected one of: rectangle, ellipse, /);
    expect(errorOf([{ id: 'x', ...box }]).message).toMatch(/^elements\[0\] \(id "x"\): type is required; expected one of: /);
    expect(errorOf([MINIMAL.rectangle, 'rectangle']).message).toBe('elements[1]: must be an object');
    expect(errorOf({ elements: [] }).message).toBe('elements must be an array of elements, or an Excalidraw scene (type "excalidraw")');
  });

  it('names fields inside points and bindings', () => {
    expect(errorOf([{ type: 'arrow', id: 'a', points: [{ x: 0, y: 0 }] }]).message).toBe('elements[0] (id "a"): points must have at least 2 points');
    expect(errorOf([{ type: 'line', id: 'l', points: [{ x: 0, y: 0 }, { x: 'far', y: 1 }] }]).message).toBe(
      'elements[0] (id "l"): points[1].x must be a number',
    );
    const focus = { type: 'arrow', id: 'a', points: line2, startBinding: { elementId: 'r', focus: { x: 2, y: 0 } } };
    expect(errorOf([{ ...db, id: 'r' }, focus]).message).toBe('elements[1] (id "a"): startBinding.focus.x must be between 0 and 1');
  });

  it('lists every problem in details and says how many more there are', () => {
    const error = errorOf([{ ...db, strokeWidth: 0 }, { type: 'ellipse', id: 'e', ...box, opacity: -1 }]);
    expect(error.message).toBe('elements[0] (id "db"): strokeWidth must be between 1 and 8 (and 1 more)');
    expect(error.details).toEqual({
      errors: ['elements[0] (id "db"): strokeWidth must be between 1 and 8', 'elements[1] (id "e"): opacity must be between 0 and 100'],
    });
  });

  it('rejects a duplicate id, naming both elements', () => {
    expect(errorOf([db, MINIMAL.ellipse, db]).message).toBe('elements[2] (id "db"): id "db" is already used by elements[0]');
  });

  it(`rejects more than ${LIMITS.elementsPerDocument} elements`, () => {
    const many = Array.from({ length: LIMITS.elementsPerDocument + 1 }, () => MINIMAL.rectangle);
    expect(errorOf(many).message).toBe(`elements: at most ${LIMITS.elementsPerDocument} elements per document, got ${many.length}`);
  });
});

describe('unknown fields are dropped and reported', () => {
  it('warns once per dropped field and does not store it', () => {
    const { elements, warnings } = intakeScene([{ ...MINIMAL.rectangle, id: 'r', colour: 'red', label: 'API' }]);
    expect(warnings).toEqual(['elements[0] (id "r"): unknown field "colour" dropped', 'elements[0] (id "r"): unknown field "label" dropped']);
    expect(elements[0]).not.toHaveProperty('colour');
    expect(elements[0]).not.toHaveProperty('label');
  });

  it('reports unknown nested fields by path, once per element, in the order they were sent', () => {
    const shapes = [
      { type: 'rectangle', id: 'a', x: 0, y: 0, width: 100, height: 60 },
      { type: 'rectangle', id: 'b', x: 300, y: 0, width: 100, height: 60 },
    ];
    const arrow = {
      type: 'arrow',
      id: 'ab',
      points: [
        { x: 100, y: 30, z: 1 },
        { x: 300, y: 30, z: 2 },
      ],
      startBinding: { elementId: 'a', gap: 4, focus: { x: 1, y: 0.5, z: 0 } },
      colour: 'red',
      endBinding: { elementId: 'b', gap: 4 },
    };
    const { elements, warnings } = intakeScene([...shapes, arrow]);
    expect(warnings).toEqual([
      'elements[2] (id "ab"): unknown field "points[].z" dropped',
      'elements[2] (id "ab"): unknown field "startBinding.gap" dropped',
      'elements[2] (id "ab"): unknown field "startBinding.focus.z" dropped',
      'elements[2] (id "ab"): unknown field "colour" dropped',
      'elements[2] (id "ab"): unknown field "endBinding.gap" dropped',
    ]);
    const stored = elements[2] as Extract<Element, { type: 'arrow' }>;
    expect(stored.startBinding).toEqual({ elementId: 'a', focus: { x: 1, y: 0.5 } });
    expect(stored.points.every((p) => !('z' in p))).toBe(true);
  });

  it('reports unknown fields inside an iconRef given as {library, label}, which is stored as a string', () => {
    const { elements, warnings } = intakeScene([{ ...MINIMAL.rectangle, id: 'r', iconRef: { library: 'aws', label: 'Amazon S3', colour: 'red' } }]);
    expect(warnings).toEqual(['elements[0] (id "r"): unknown field "iconRef.colour" dropped']);
    expect(elements[0]!.iconRef).toBe('aws/Amazon S3');
  });

  it('reports an unknown field in a freehand stroke once, not once per point', () => {
    const points = Array.from({ length: 50 }, (_, i) => ({ x: i, y: i, pressure: 0.5 }));
    expect(intakeScene([{ type: 'freedraw', id: 'f', points }]).warnings).toEqual(['elements[0] (id "f"): unknown field "points[].pressure" dropped']);
  });

  it('does not report transformed or server-computed fields', () => {
    const stamped = {
      ...MINIMAL.rectangle,
      iconRef: 'aws/Amazon S3',
      // A stored scene sent back as read: the icon box is recomputed whatever it holds.
      icon: { ref: 'aws/Amazon S3', x: 1, y: 2, width: 3, height: 4, auto: true, stale: 1 },
      labelPlacement: 'below-icon',
    };
    expect(intakeScene([stamped, { ...MINIMAL.rectangle, icon: 'nonsense', labelPlacement: 'above' }]).warnings).toEqual([]);
  });

  it('treats keys named like Object.prototype members as unknown', () => {
    const element = JSON.parse('{"type":"rectangle","id":"r","x":0,"y":0,"width":10,"height":10,"constructor":1,"__proto__":{"x":1},"startBinding":{"toString":1}}');
    expect(intakeScene([element]).warnings).toEqual([
      'elements[0] (id "r"): unknown field "constructor" dropped',
      'elements[0] (id "r"): unknown field "__proto__" dropped',
      'elements[0] (id "r"): unknown field "startBinding" dropped',
    ]);
  });

  it('treats arrowheads on a line as unknown', () => {
    expect(intakeScene([{ ...MINIMAL.line, endArrowhead: 'arrow' }]).warnings).toEqual(['elements[0]: unknown field "endArrowhead" dropped']);
  });
});

describe('security rules', () => {
  it.each([
    'https://example.com/a?b=c',
    'http://x.org',
    'mailto:ops@example.com',
    '/docs/runbook',
    './notes.md',
    '#section',
    '?page=2&sort=name',
    'docs/a:b',
    '#step:2',
    'https://example.com/?a=1&amp;b=2',
  ])('keeps link %s', (link) => {
    expect(one({ ...MINIMAL.rectangle, link }).link).toBe(link);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>',
    'file:///etc/passwd',
    'vbscript:x',
    ' https://x.org',
    '/\\evil.com',
    // Protocol-relative: another site, not a relative link.
    '//evil.example',
    '//evil.example/login',
    // HTML character references that decode into a scheme.
    'javascript&colon;alert(1)',
    'javascript&#58;alert(1)',
    'javascript&#x3A;alert(1)',
    'JAVASCRIPT&COLON;alert(1)',
    // Whitespace, control and invisible characters before a colon.
    'javascript :alert(1)',
    'java\u00a0script:alert(1)',
    'java\tscript:alert(1)',
    'java\u0085script:alert(1)',
    'java\u200bscript:alert(1)',
    '\u202ejavascript:alert(1)',
    'x:y',
  ])(
    'rejects link %j',
    (link) => {
      expect(errorOf([{ ...MINIMAL.rectangle, id: 'r', link }]).message).toBe('elements[0] (id "r"): link must be an http(s), mailto or relative URL');
    },
  );

  it.each([
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    'https://example.com/cat.png',
    'data:image/png,notbase64!',
  ])('rejects image data %j', (dataUrl) => {
    expect(errorOf([{ ...MINIMAL.image, id: 'i', dataUrl }]).message).toBe(
      'elements[0] (id "i"): dataUrl must be a base64 data URL of type image/png, image/jpeg, image/gif, image/webp',
    );
  });

  it(`rejects image data URLs longer than ${IMAGE_DATA_URL_MAX_CHARS} characters`, () => {
    const dataUrl = `data:image/png;base64,${'A'.repeat(IMAGE_DATA_URL_MAX_CHARS)}`;
    expect(errorOf([{ ...MINIMAL.image, id: 'i', dataUrl }]).message).toMatch(
      new RegExp(`^elements\\[0\\] \\(id "i"\\): dataUrl must be at most ${IMAGE_DATA_URL_MAX_CHARS} characters`),
    );
  });

  it.each(['javascript:alert(1)', 'ftp://files.example.com', '/relative', 'mailto:a@b.c'])('rejects embed url %j', (url) => {
    expect(errorOf([{ ...MINIMAL.embed, id: 'e', url }]).message).toBe('elements[0] (id "e"): url must be an http(s) URL');
  });
});

describe('arrow and line rules', () => {
  const pts = (...xy: number[]) => Array.from({ length: xy.length / 2 }, (_, i) => ({ x: xy[2 * i]!, y: xy[2 * i + 1]! }));

  it('takes the shape from the number of points: 2 straight, 3 elbow, 4+ multipoint', () => {
    expect(one({ type: 'arrow', points: pts(0, 0, 10, 0) })).toMatchObject({ arrowShape: 'straight' });
    expect(one({ type: 'arrow', points: pts(0, 0, 10, 0, 10, 10) })).toMatchObject({ arrowShape: 'elbow' });
    expect(one({ type: 'arrow', points: pts(0, 0, 10, 0, 10, 10, 20, 10) })).toMatchObject({ arrowShape: 'multipoint' });
    expect(one({ type: 'line', points: pts(0, 0, 10, 0, 10, 10) })).toMatchObject({ lineShape: 'multipoint' });
  });

  it('turns a 2-point elbow into the right-angle connection (x1,y1),(x2,y1),(x2,y2)', () => {
    expect(one({ type: 'arrow', arrowShape: 'elbow', points: pts(0, 0, 100, 50) })).toMatchObject({ points: pts(0, 0, 100, 0, 100, 50) });
  });

  it('derives x, y, width and height from the points, replacing what was sent', () => {
    expect(one({ type: 'line', x: 999, y: 999, width: 1, height: 1, points: pts(30, 40, -10, 90, 50, 60) })).toMatchObject({
      x: -10,
      y: 40,
      width: 60,
      height: 50,
    });
  });

  it('rejects point counts that contradict the shape', () => {
    expect(errorOf([{ type: 'arrow', id: 'a', arrowShape: 'straight', points: pts(0, 0, 1, 1, 2, 2) }]).message).toBe(
      'elements[0] (id "a"): points: a straight arrow has exactly 2 points, got 3 (3 = elbow, 4+ = multipoint)',
    );
    expect(errorOf([{ type: 'arrow', id: 'a', arrowShape: 'elbow', points: pts(0, 0, 1, 1, 2, 2, 3, 3) }]).message).toBe(
      'elements[0] (id "a"): points: an elbow arrow has 2 or 3 points (one bend), got 4 (use arrowShape "multipoint")',
    );
    expect(errorOf([{ type: 'line', id: 'l', lineShape: 'straight', points: pts(0, 0, 1, 1, 2, 2) }]).message).toBe(
      'elements[0] (id "l"): points: a straight line has exactly 2 points, got 3 (use lineShape "multipoint")',
    );
    expect(errorOf([{ type: 'arrow', id: 'a', startBinding: { elementId: 'x' } }]).message).toBe(
      'elements[0] (id "a"): points is required (at least 2 {x, y} points) unless both startBinding and endBinding are given',
    );
  });
});

describe('bindings', () => {
  const a = { type: 'rectangle', id: 'a', x: 0, y: 0, width: 100, height: 60 };
  const b = { type: 'rectangle', id: 'b', x: 300, y: 0, width: 100, height: 60 };
  const arrow = { type: 'arrow', id: 'ab', startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' } };
  const arrowOf = (elements: Element[]) => elements.find((e) => e.type === 'arrow') as Extract<Element, { type: 'arrow' }>;

  it('rejects a binding to an element that is not in the scene', () => {
    expect(errorOf([a, { ...arrow, endBinding: { elementId: 'gone' } }]).message).toBe(
      'elements[1] (id "ab"): endBinding.elementId "gone" is not an element of this scene',
    );
  });

  it('rejects a binding to another arrow or line', () => {
    const other = { type: 'line', id: 'l', points: line2 };
    expect(errorOf([a, other, { ...arrow, endBinding: { elementId: 'l' } }]).message).toBe(
      'elements[2] (id "ab"): endBinding.elementId "l" is a line; arrows bind to shapes, text, images, frames and embeds',
    );
  });

  it('names an arrow target with the right article', () => {
    const other = { type: 'arrow', id: 'x', points: line2 };
    expect(errorOf([a, other, { ...arrow, endBinding: { elementId: 'x' } }]).message).toBe(
      'elements[2] (id "ab"): endBinding.elementId "x" is an arrow; arrows bind to shapes, text, images, frames and embeds',
    );
  });

  it('joins two bound shapes when no points are sent, ending on their outlines', () => {
    const result = arrowOf(intakeScene([a, b, arrow]).elements);
    expect(result.points).toEqual(pts(100, 30, 300, 30));
    expect(result.startBinding).toEqual({ elementId: 'a', focus: { x: 0.5, y: 0.5 } });
    expect(result).toMatchObject({ arrowShape: 'straight', x: 100, y: 30, width: 200, height: 0 });
  });

  it('moves bound ends when a shape moves or is resized', () => {
    const first = intakeScene([a, b, arrow]).elements;
    const moved = first.map((e) => (e.id === 'b' ? { ...e, x: 500, y: 200, width: 200, height: 100 } : e));
    const result = arrowOf(intakeScene(moved, { previous: first }).elements);
    // Centre to centre, (50,30) → (600,250), cut at both boxes.
    expect(result.points).toEqual(pts(100, 50, 500, 210));
    expect(result).toMatchObject({ x: 100, y: 50, width: 400, height: 160 });
  });

  it('derives the focus from where an end was drawn and keeps it on the outline', () => {
    const drawn = { type: 'arrow', id: 'ab', points: pts(150, 10, 290, 10), startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' } };
    const result = arrowOf(intakeScene([a, b, drawn]).elements);
    expect(result.endBinding!.focus).toEqual({ x: 0, y: 10 / 60 });
    expect(result.points).toEqual(pts(100, 10, 300, 10));
  });

  it('keeps an elbow square when its shapes move', () => {
    const elbow = {
      type: 'arrow',
      id: 'ab',
      arrowShape: 'elbow',
      points: pts(100, 30, 350, 30, 350, 200),
      startBinding: { elementId: 'a', focus: { x: 1, y: 0.5 } },
      endBinding: { elementId: 'b', focus: { x: 0.5, y: 0 } },
    };
    const result = arrowOf(intakeScene([a, { ...b, y: 200 }, elbow]).elements);
    expect(result.points).toEqual(pts(100, 30, 350, 30, 350, 200));
    const after = arrowOf(intakeScene([{ ...a, y: 50 }, { ...b, x: 400, y: 300 }, elbow]).elements);
    expect(after.points).toEqual(pts(100, 80, 450, 80, 450, 300));
  });

  it('keeps an elbow drawn straight down straight', () => {
    const below = { ...b, x: 0, y: 200 };
    const down = { type: 'arrow', id: 'ab', arrowShape: 'elbow', points: pts(50, 60, 50, 200), startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' } };
    expect(arrowOf(intakeScene([a, below, down]).elements).points).toEqual(pts(50, 60, 50, 200, 50, 200));
  });

  it('on update, an arrow resent without focus keeps the focus it had', () => {
    const first = intakeScene([a, b, { ...arrow, endBinding: { elementId: 'b', focus: { x: 0.5, y: 0 } } }]).elements;
    const resent = [a, { ...b, y: 200 }, { ...arrow, points: arrowOf(first).points }];
    expect(arrowOf(intakeScene(resent, { previous: first }).elements).endBinding!.focus).toEqual({ x: 0.5, y: 0 });
  });

  it('ends on the outline of ellipses and diamonds, not their box', () => {
    const e = { type: 'ellipse', id: 'b', x: 300, y: -70, width: 200, height: 200 };
    const fromCorner = { type: 'arrow', points: pts(100, 30, 320, -50), startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' } };
    const end = arrowOf(intakeScene([a, e, fromCorner]).elements).points[1]!;
    expect(Math.hypot(end.x - 400, end.y - 30)).toBeCloseTo(100, 0);
  });
});

function pts(...xy: number[]) {
  return Array.from({ length: xy.length / 2 }, (_, i) => ({ x: xy[2 * i]!, y: xy[2 * i + 1]! }));
}
