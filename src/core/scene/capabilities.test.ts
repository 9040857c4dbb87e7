import { describe, expect, it } from 'vitest';
import { DETAIL_LEVELS } from '../graph/fold.js';
import { iconSearchQuery } from '../icons/query.js';
import { LIMITS } from '../limits.js';
import { CAPABILITY_EXAMPLES, buildCapabilities } from './capabilities.js';
import { ICON_NODE_BOUNDS } from '../icons/limits.js';
import { ARROWHEADS, ELEMENT_TYPES, FILL_STYLES, IMAGE_DATA_URL_MAX_CHARS } from './constants.js';
import { intakeScene } from './intake.js';

type Field = { enum?: string[]; default?: unknown; minimum?: number; maximum?: number; $ref?: string };

describe('buildCapabilities', () => {
  const guide = buildCapabilities();
  const typeOf = (type: string) => guide.elementTypes.find((g) => (g.types as readonly string[]).includes(type))!;
  /** A field as a reader of the guide resolves it: the type's own, shared or common definition, references followed, the type's default. */
  const fieldOf = (type: string, name: string): Field | undefined => {
    const entry = typeOf(type);
    const takes = name in entry.properties || entry.sharedFields.includes(name) || name in guide.commonFields;
    if (!takes) return undefined;
    let field = ((entry.properties as Record<string, Field>)[name] ?? (guide.sharedFields as Record<string, Field>)[name] ?? (guide.commonFields as Record<string, Field>)[name])!;
    if (field.$ref) field = { ...(guide.definitions as Record<string, Field>)[field.$ref.split('/').pop()!], ...field };
    const own = (entry.defaults as Record<string, unknown>)[name];
    return own === undefined ? field : { ...field, default: own };
  };

  it('lists every element type exactly once', () => {
    expect(guide.elementTypes.flatMap((g) => g.types).sort()).toEqual([...ELEMENT_TYPES].sort());
  });

  it('takes fields, allowed values, defaults and bounds from the schema itself', () => {
    expect(fieldOf('rectangle', 'fillStyle')).toMatchObject({ enum: [...FILL_STYLES], default: 'solid' });
    expect(fieldOf('rectangle', 'strokeWidth')).toMatchObject({ minimum: 1, maximum: 8, default: 2 });
    expect(typeOf('rectangle').required).toEqual(expect.arrayContaining(['type', 'x', 'y', 'width', 'height']));
    expect(typeOf('rectangle').required).not.toContain('id');
    expect(fieldOf('arrow', 'endArrowhead')).toMatchObject({ enum: [...ARROWHEADS], default: 'arrow' });
    expect(fieldOf('arrow', 'startArrowhead')).toMatchObject({ enum: [...ARROWHEADS], default: 'none' });
    expect(typeOf('arrow').required).toEqual(['type']);
    expect(fieldOf('line', 'endArrowhead')).toBeUndefined();
    expect(fieldOf('highlight', 'strokeColor')).toMatchObject({ default: '#ffec99' });
    expect(fieldOf('rectangle', 'strokeColor')).toMatchObject({ default: '#1e1e1e' });
  });

  it('states the arrow rules, the icon flow and the limits', () => {
    expect(guide.arrowRules[0]).toMatch(/2 points = straight, 3 = elbow \(one bend\), 4\+ = routed polyline/);
    expect(guide.arrowRules.join(' ')).toMatch(/\(x1,y1\),\(x2,y1\),\(x2,y2\)/);
    expect(guide.icons.iconRef).toMatch(/"aws\/Amazon S3"/);
    expect(guide.icons.stampedOn).toBe('Icons are stamped only on node-sized boxes: 60–420 wide × 40–260 high.');
    expect(guide.icons.autoIcons).toMatch(/autoIcons:false/);
    expect(guide.icons.vendor).toMatch(/aws \| azure \| gcp \| kubernetes/);
    expect(guide.limits).toMatchObject({ ...LIMITS, imageDataUrlMaxChars: IMAGE_DATA_URL_MAX_CHARS, iconBox: ICON_NODE_BOUNDS });
  });

  it('tells how large infrastructure code is folded and how to draw every node, by the schema\'s own detail values', () => {
    const rule = guide.structureFirst.rules.find((line) => line.includes('folded'))!;
    expect(rule).toMatch(/over 40 nodes/);
    expect(rule).toMatch(/compose, kubernetes, helm, terraform/);
    for (const level of DETAIL_LEVELS.filter((level) => level !== 'auto')) expect(rule).toContain(`detail:"${level}"`);
  });

  it('defines the type field once, in `types`, not again as an enum', () => {
    for (const entry of guide.elementTypes) expect(entry.properties).not.toHaveProperty('type');
  });

  it('names the icon search route\'s real query parameters', () => {
    const search = guide.icons.search;
    const param = /\/api-v1\/icons\?(\w+)=/.exec(search)?.[1];
    expect(param).toBeDefined();
    expect(Object.keys(iconSearchQuery.shape)).toContain(param);
    // The parameter the hint puts in the URL is enough for a valid search; the others are named.
    expect(iconSearchQuery.safeParse({ [param!]: 'postgres' }).success).toBe(true);
    for (const key of Object.keys(iconSearchQuery.shape)) expect(search).toContain(key);
    expect(search).toBe('Find icons with GET /api-v1/icons?query=… (optional: vendor, limit) or the search_icons tool.');
  });

  it('is a guide a model reads once: each field defined once, the whole under 15,200 characters', () => {
    const size = JSON.stringify(guide).length;
    console.log(`capabilities guide: ${size} characters (was 41,937 with a full schema per type)`);
    // 15,000 until fontWeight and fontStyle (110 characters) joined the text fields.
    expect(size).toBeLessThan(15_200);
  });

  it('serialises to JSON', () => {
    expect(JSON.parse(JSON.stringify(guide))).toEqual(guide);
  });

  it.each(CAPABILITY_EXAMPLES.map((e) => [e.title, e.elements] as const))('example "%s" passes validation without warnings', (_, elements) => {
    const result = intakeScene(elements);
    expect(result.warnings).toEqual([]);
    expect(result.elements).toHaveLength(elements.length);
    const arrows = result.elements.filter((e) => e.type === 'arrow');
    expect(arrows.length).toBeGreaterThan(0);
    for (const a of arrows) expect(a).toMatchObject({ startBinding: expect.any(Object), endBinding: expect.any(Object) });
  });
});
