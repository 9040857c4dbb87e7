import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors.js';
import { sizeNode, textArea } from '../layout/node-size.js';
import { LABEL_BELOW_ICON, stampIcons, type StampableElement } from './stamp.js';

interface TestElement extends StampableElement {
  strokeColor?: string;
  groupIds?: string[];
}

const node = (id: string, fields: Partial<TestElement> = {}): TestElement => ({
  id,
  type: 'rectangle',
  x: 100,
  y: 200,
  width: 160,
  height: 80,
  ...fields,
});

const only = (elements: TestElement[], options?: Parameters<typeof stampIcons>[1]) => {
  const result = stampIcons(elements, options);
  return { element: result.elements[0]!, warnings: result.warnings };
};

describe('stampIcons: explicit iconRef', () => {
  it('places the icon centred at the top of the box and moves the label below it', () => {
    const { element, warnings } = only([node('db', { text: 'Main store', iconRef: 'databases/PostgreSQL' })]);
    expect(warnings).toEqual([]);
    // 80 high: min(48, 45% of 80 = 36) = 36; top gap 8% of 80 = 6.4; centred: 100 + (160 - 36) / 2 = 162.
    expect(element.icon).toEqual({ ref: 'databases/PostgreSQL', x: 162, y: 206.4, width: 36, height: 36 });
    expect(element.labelPlacement).toBe(LABEL_BELOW_ICON);
    expect(element.iconRef).toBe('databases/PostgreSQL');
  });

  it('stamps a cylinder’s icon on its body, under the top cap, and a generated cylinder still holds its label', () => {
    const { element } = only([node('db', { type: 'cylinder', text: 'orders', iconRef: 'databases/PostgreSQL', width: 120, height: 120 })]);
    // Rim radius min(15% of 120, 20% of 120) = 18: the cap ends 36 below the top; the body is 84 high.
    expect(element.icon).toMatchObject({ y: 200 + 36 + 6.72, width: 37.8, height: 37.8 });
    const box = sizeNode({ id: 'db', kind: 'database', label: 'orders', iconRef: 'databases/PostgreSQL' });
    expect(box.shape).toBe('cylinder');
    expect(textArea('cylinder', box.width, box.height, true).height).toBeGreaterThanOrEqual(20);
  });

  it('caps the icon at 48 on a tall box', () => {
    const { element } = only([node('n', { iconRef: 'generic/Server', width: 200, height: 200 })]);
    expect(element.icon).toMatchObject({ width: 48, height: 48, x: 176, y: 210 });
  });

  it('accepts { library, label } and a differently-cased label, and stores the canonical string', () => {
    const result = stampIcons([
      node('a', { iconRef: { library: 'aws', label: 'Amazon S3' } }),
      node('b', { iconRef: 'aws/amazon s3' }),
    ]);
    expect(result.elements.map((element) => element.iconRef)).toEqual(['aws/Amazon S3', 'aws/Amazon S3']);
    expect(result.elements.map((element) => element.icon?.ref)).toEqual(['aws/Amazon S3', 'aws/Amazon S3']);
  });

  it('lets an explicit iconRef win over the guess from the label', () => {
    const { element } = only([node('n', { text: 'Postgres', iconRef: 'generic/Server' })]);
    expect(element.icon?.ref).toBe('generic/Server');
    expect(element.icon?.auto).toBeUndefined();
  });

  it('warns about an unknown iconRef with the closest matches, drops it and keeps the request going', () => {
    const elements = [node('a'), node('b'), node('x', { iconRef: 'aws/S4' })];
    const result = stampIcons(elements, { autoIcons: false });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/^elements\[2\] \(id "x"\): unknown iconRef "aws\/S4"; closest: aws\/Amazon S3, aws\/[^,]+, /);
    expect(result.elements[2]).not.toHaveProperty('iconRef');
    expect(result.elements[2]).not.toHaveProperty('icon');
  });

  it('still guesses from the label after dropping an unknown iconRef', () => {
    const { element, warnings } = only([node('x', { text: 'Redis', iconRef: 'databases/Rediz' })]);
    expect(warnings[0]).toContain('closest: databases/Redis');
    expect(element.icon).toMatchObject({ ref: 'databases/Redis', auto: true });
    expect(element).not.toHaveProperty('iconRef');
  });

  it('warns about an iconRef of the wrong shape', () => {
    const { element, warnings } = only([node('n', { iconRef: 42 as never })]);
    expect(warnings).toEqual(['elements[0] (id "n"): iconRef must be a "library/Label" string or { library, label }; ignored']);
    expect(element).not.toHaveProperty('iconRef');
  });
});

describe('stampIcons: best-guess icons', () => {
  const guess = (text: string, options?: Parameters<typeof stampIcons>[1]) => only([node('n', { text })], options).element.icon?.ref;

  it('gives a labelled node a keyword icon when the match is confident', () => {
    expect(guess('Orders DB')).toBe('databases/Database');
    expect(guess('Message Queue')).toBe('generic/Queue');
    expect(guess('S3')).toBe('aws/Amazon S3');
    expect(guess('Docker')).toBe('brands/Docker');
    const { element } = only([node('n', { text: 'Redis Cache' })]);
    expect(element.icon).toMatchObject({ ref: 'databases/Redis', auto: true });
    expect(element.labelPlacement).toBe(LABEL_BELOW_ICON);
    expect(element).not.toHaveProperty('iconRef');
  });

  it('guesses no icon where the label would no longer fit below it (a small "Users" ellipse sized for its label)', () => {
    const users = (width: number, height: number) => only([node('u', { type: 'ellipse', text: 'Users', width, height, fontSize: 16, fontFamily: 'normal' } as Partial<TestElement>)]);
    const small = users(109, 58);
    expect(small.element.icon).toBeUndefined();
    expect(small.warnings).toEqual([]);
    expect(users(180, 120).element.icon).toMatchObject({ ref: 'generic/Users', auto: true });
  });

  it('gives no icon when nothing matches confidently', () => {
    expect(guess('Quarterly planning')).toBeUndefined();
    expect(guess('Next steps for the release')).toBeUndefined();
    expect(guess('Postgress')).toBeUndefined(); // a typo is fine in search, not for a guess
    expect(guess('A long sentence that describes a server in far too many words')).toBeUndefined();
  });

  it('is turned off by autoIcons: false, explicit iconRefs still apply', () => {
    const result = stampIcons([node('a', { text: 'Postgres' }), node('b', { iconRef: 'generic/User' })], { autoIcons: false });
    expect(result.elements[0]).not.toHaveProperty('icon');
    expect(result.elements[1]?.icon?.ref).toBe('generic/User');
  });

  it('prefers the hinted vendor set', () => {
    expect(guess('Service')).toBe('generic/Microservice');
    expect(guess('Service', { vendor: 'kubernetes' })).toBe('kubernetes/Service');
    expect(guess('Pod')).toBeUndefined();
    expect(guess('Pod', { vendor: 'kubernetes' })).toBe('kubernetes/Pod');
    expect(guess('API Gateway')).toBe('generic/API Gateway');
    expect(guess('API Gateway', { vendor: 'aws' })).toBe('aws/Amazon API Gateway');
    expect(guess('Functions', { vendor: 'gcp' })).toBe('gcp/Cloud Functions');
  });

  it('resolves database products to the Databases library, even under a vendor hint', () => {
    expect(guess('Postgres')).toBe('databases/PostgreSQL');
    expect(guess('pg primary')).toBe('databases/PostgreSQL');
    expect(guess('Postgres', { vendor: 'azure' })).toBe('databases/PostgreSQL');
    expect(guess('MongoDB', { vendor: 'aws' })).toBe('databases/MongoDB');
  });

  it('rejects an unknown vendor hint', () => {
    try {
      stampIcons([node('n')], { vendor: 'ibm' as never });
      expect.unreachable();
    } catch (error) {
      expect(isAppError(error) && error.code).toBe('validation_failed');
    }
  });
});

describe('stampIcons: which elements get icons', () => {
  it('stamps only node-sized boxes: 60–420 wide, 40–260 high, bounds included', () => {
    const sizes: Array<[number, number, boolean]> = [
      [60, 40, true],
      [420, 260, true],
      [59, 80, false],
      [421, 80, false],
      [160, 39, false],
      [160, 261, false],
    ];
    const result = stampIcons(sizes.map(([width, height], index) => node(`n${index}`, { text: 'Postgres', width, height })));
    expect(result.elements.map((element) => element.icon !== undefined)).toEqual(sizes.map(([, , stamped]) => stamped));
  });

  it('never stamps frames or containers wider than 420, even with an explicit iconRef (kept, with a warning)', () => {
    const result = stampIcons([
      node('f', { type: 'frame', text: 'Postgres', width: 200, height: 100 }),
      node('c', { text: 'Fleet', iconRef: 'aws/Amazon EC2', width: 800, height: 200 }),
    ]);
    expect(result.elements[0]).not.toHaveProperty('icon');
    expect(result.elements[1]).not.toHaveProperty('icon');
    expect(result.elements[1]?.iconRef).toBe('aws/Amazon EC2');
    expect(result.warnings).toEqual([
      'elements[1] (id "c"): iconRef kept but not drawn: icons are stamped only on node-sized boxes (width 60–420, height 40–260), got 800×200',
    ]);
  });

  it.each(['text', 'arrow', 'line', 'freedraw', 'highlight', 'image', 'embed', 'math', 'code', 'frame'])(
    'never stamps a %s element',
    (type) => {
      const result = stampIcons([node('t', { type, text: 'Postgres', iconRef: 'databases/PostgreSQL' })]);
      expect(result.elements[0]).not.toHaveProperty('icon');
      expect(result.elements[0]).not.toHaveProperty('iconRef');
      expect(result.warnings).toEqual([`elements[0] (id "t"): a ${type} element never carries an icon; iconRef dropped`]);
    },
  );

  it('leaves unlabelled nodes without iconRef alone', () => {
    const element = node('n');
    expect(stampIcons([element]).elements[0]).toBe(element);
  });
});

describe('stampIcons: stability', () => {
  it('is idempotent: stamping a stamped scene changes nothing', () => {
    const scene = [
      node('a', { text: 'Postgres' }),
      node('b', { iconRef: { library: 'kubernetes', label: 'Pod' }, text: 'api-7f9c' }),
      node('c', { text: 'Quarterly planning' }),
      node('d', { iconRef: 'aws/S4' }),
    ];
    const once = stampIcons(scene, { vendor: 'kubernetes' });
    const twice = stampIcons(once.elements, { vendor: 'kubernetes' });
    expect(twice.elements).toEqual(once.elements);
    twice.elements.forEach((element, index) => expect(element).toBe(once.elements[index]));
    expect(twice.warnings).toEqual([]);
  });

  it('recomputes the icon box of a moved or resized element', () => {
    const stamped = stampIcons([node('n', { iconRef: 'generic/Server' })]).elements[0]!;
    const moved = stampIcons([{ ...stamped, x: 0, y: 0, width: 100, height: 50 }]).elements[0]!;
    // 50 high: min(48, 22.5, 80) = 22.5; top gap max(4, 4) = 4; centred: (100 - 22.5) / 2 = 38.75.
    expect(moved.icon).toEqual({ ref: 'generic/Server', x: 38.75, y: 4, width: 22.5, height: 22.5 });
  });

  it('removes a guessed icon when the label stops matching, and an icon when the box grows past node size', () => {
    const stamped = stampIcons([node('n', { text: 'Postgres' })]).elements[0]!;
    const relabelled = stampIcons([{ ...stamped, text: 'Quarterly planning' }]).elements[0]!;
    expect(relabelled).not.toHaveProperty('icon');
    expect(relabelled).not.toHaveProperty('labelPlacement');
    const grown = stampIcons([{ ...stamped, width: 900 }]).elements[0]!;
    expect(grown).not.toHaveProperty('icon');
  });

  it('keeps every other field untouched', () => {
    const element = node('n', { text: 'Postgres', strokeColor: '#1e1e1e', groupIds: ['g1'] });
    const stamped = stampIcons([element]).elements[0]!;
    const { icon: _icon, labelPlacement: _placement, ...rest } = stamped;
    expect(rest).toEqual(element);
    expect(element).not.toHaveProperty('icon'); // the input is not mutated
  });
});
