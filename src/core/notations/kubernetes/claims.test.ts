import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NotationConverter } from '../../graph/types.js';
import { helmNotation } from '../helm/index.js';
import { sqlNotation } from '../sql/index.js';
import { terraformNotation } from '../terraform/index.js';
import { kubernetesNotation } from './index.js';

/**
 * Every corpus input of these notations must be claimed by its own converter, with a higher score than any other
 * converter present in the checkout (the compose and DOT converters are written alongside and joined when they exist).
 */
const mine: NotationConverter[] = [kubernetesNotation, helmNotation, terraformNotation, sqlNotation];

async function othersPresent(): Promise<NotationConverter[]> {
  const found: NotationConverter[] = [];
  for (const [path, name] of [['../compose/index.js', 'composeNotation'], ['../dot/index.js', 'dotNotation']] as const) {
    try {
      const module = (await import(/* @vite-ignore */ path)) as Record<string, NotationConverter | undefined>;
      if (module[name]) found.push(module[name]);
    } catch {
      // Not written yet in this checkout.
    }
  }
  return found;
}

describe('detection across notations', () => {
  for (const converter of mine) {
    const folder = new URL(`../../../../test/fixtures/${converter.id}/`, import.meta.url);
    for (const file of readdirSync(folder).filter((f) => f !== 'NOTICE.md')) {
      it(`${converter.id}/${file} is claimed by ${converter.id}`, async () => {
        const code = readFileSync(new URL(file, folder), 'utf8');
        const scores = [...mine, ...(await othersPresent())].map((c) => ({ id: c.id, score: c.detect(code) }));
        const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
        expect(best.id).toBe(converter.id);
        expect(scores.filter((s) => s.id !== converter.id).every((s) => s.score < best.score)).toBe(true);
      });
    }
  }
});
