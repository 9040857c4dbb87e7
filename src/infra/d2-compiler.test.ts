import { afterAll, describe, expect, it } from 'vitest';
import type { AppError } from '../core/errors.js';
import { createD2Compiler } from './d2-compiler.js';

const SLOW = 120_000;
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as AppError);

describe('D2 compiler', () => {
  // 3 s per compile once warm: enough for `a -> b` (0.3–0.9 s here), far too little for D2's own layout of 1,500 connections
  // (1,000 took 10 s; 300 took 2–7.5 s, close enough to the limit on a quiet machine to pass it).
  const compiler = createD2Compiler({ timeoutSeconds: 3, queue: 2, startAllowanceSeconds: 90 });
  afterAll(() => compiler.close());

  it('answers a syntax error as parse_error with D2\'s line and column', async () => {
    const error = await failure(compiler.compile('a -> b\nc -> {'));
    expect(error).toMatchObject({ code: 'parse_error', details: { line: 2 } });
    expect(error!.message).toMatch(/^line 2, column \d+: D2: /);
  }, SLOW);

  it('refuses a compile over its time limit as too_complex, ends D2\'s thread and compiles the next code on a fresh one', async () => {
    await compiler.compile('warm -> up');
    const big = Array.from({ length: 1500 }, (_, i) => `n${i} -> n${(i * 7 + 3) % 1500}: l${i}`).join('\n');
    const error = await failure(compiler.compile(big));
    expect(error).toMatchObject({ code: 'too_complex', details: { limit: 'job time' } });
    expect(error!.message).toMatch(/^D2 took longer than 3 s/);
    // The fresh instance starts within the start allowance, then compiles.
    const compiled = await compiler.compile('x -> y');
    expect(compiled.diagram.connections).toHaveLength(1);
  }, SLOW);

  it('refuses more waiting D2 diagrams than its queue holds as busy', async () => {
    const all = await Promise.allSettled([1, 2, 3].map((n) => compiler.compile(`a${n} -> b${n}`)));
    expect(all.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((all[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'busy' });
  }, SLOW);
});
