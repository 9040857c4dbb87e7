import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prepareScene } from './scene.js';

const drawing = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../test/fixtures/excalidraw/${name}`, import.meta.url), 'utf8'));
const withIcons = (elements: readonly { icon?: unknown; iconRef?: unknown }[]) => elements.filter((e) => e.icon !== undefined || e.iconRef !== undefined);

describe('prepareScene on an imported Excalidraw drawing', () => {
  it('keeps a hand drawing as drawn: no icon guessed onto its labelled boxes, and nothing to warn about', () => {
    const kept = prepareScene(drawing('kubekey-ha-registry.excalidraw'));
    expect(kept.format).toBe('excalidraw');
    expect(withIcons(kept.elements)).toEqual([]);
    expect(kept.warnings.filter((w) => w.includes('icon'))).toEqual([]);
  });

  it('adds icons only when asked, and says which and why for each', () => {
    const asked = prepareScene(drawing('kubekey-ha-registry.excalidraw'), { autoIcons: true });
    const stamped = withIcons(asked.elements);
    expect(stamped.length).toBeGreaterThan(0);
    expect(asked.warnings.filter((w) => w.includes('added from its label'))).toHaveLength(stamped.length);
  });

  it('still guesses icons for a native scene, where no one drew the boxes by hand', () => {
    const native = prepareScene([{ id: 'db', type: 'cylinder', x: 0, y: 0, width: 140, height: 90, text: 'PostgreSQL' }]);
    expect(withIcons(native.elements)).toHaveLength(1);
  });
});
