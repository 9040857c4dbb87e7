/**
 * AI generation after the model has answered: checking the answer, layout in the job pool, icons, the scene intake
 * and the stored write, for a 30-node answer; goal under 300 ms. The baseline in the same run is from-code of the same
 * graph written as DOT (the same layout work without the answer's checks and icon hints).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiagramAnswer } from '../src/core/ai/answer.js';
import { DEFAULT_JOB_LIMITS } from '../src/infra/config.js';
import { createJobPool } from '../src/infra/jobs/pool.js';
import { createD2Compiler } from '../src/infra/d2-compiler.js';
import { createRateLimiter } from '../src/infra/rate-limit.js';
import { createSecretBox } from '../src/infra/secret-box.js';
import { openDatabase } from '../src/infra/storage/database.js';
import { createServices } from '../src/service/index.js';

const KINDS = ['service', 'database', 'queue', 'cache', 'gateway'] as const;
const ICONS = ['aws lambda', 'postgres', 'kafka', 'redis', 'aws api gateway'];

/** A 30-node architecture in three groups, each node calling one or two later ones. */
function answer30(): DiagramAnswer {
  const nodes = Array.from({ length: 30 }, (_, i) => ({
    id: `n${i}`,
    label: `Component ${i}`,
    kind: KINDS[i % KINDS.length]!,
    icon: ICONS[i % ICONS.length]!,
    group: `g${i % 3}`,
    rows: null,
  }));
  const edges = nodes.flatMap((_, i) =>
    [i + 1, i + 7].filter((to) => to < 30).map((to) => ({ from: `n${i}`, to: `n${to}`, label: null, style: 'solid' as const, startArrowhead: 'none' as const, endArrowhead: 'arrow' as const })),
  );
  return { title: 'Bench', kind: 'architecture', direction: 'right', groups: [0, 1, 2].map((g) => ({ id: `g${g}`, label: `Tier ${g}`, parent: null })), nodes, edges };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface GenerateBench {
  generateMs: number;
  fromCodeMs: number;
  nodes: number;
  edges: number;
}

export async function benchGenerate(runs = 15): Promise<GenerateBench> {
  const { db } = await openDatabase(join(mkdtempSync(join(tmpdir(), 'drawbridge-bench-')), 'generate.db'));
  const jobs = createJobPool({ ...DEFAULT_JOB_LIMITS, threads: 1 });
  const answer = answer30();
  const limiter = createRateLimiter({ perMinute: 1_000_000 });
  const services = await createServices({
    db,
    limiter,
    publicLimiter: limiter,
    publicUrl: 'http://bench',
    work: jobs,
    // Started only by D2 code, which this never sends.
    d2: createD2Compiler({ timeoutSeconds: DEFAULT_JOB_LIMITS.timeoutSeconds, queue: 8 }),
    publicRenderCacheBytes: 1024,
    sealer: createSecretBox(randomBytes(32)),
    // The model has answered: the bench starts where its answer arrives.
    diagramModel: { answer: async () => ({ ok: true, answer, text: '', usage: { inputTokens: 0, outputTokens: 0 } }) },
    checkProviderUrl: async () => undefined,
  });
  try {
    const { userId, workspaceId } = await services.accounts.createUser({ email: 'bench@example.com' });
    const { token } = await services.tokens.create({ userId, name: 'bench', scopes: ['diagrams:write', 'ai:generate'] });
    const principal = await services.tokens.authenticate(`Bearer ${token}`, 'rest');
    await services.ai.set(principal, { provider: 'openai', model: 'bench', key: 'sk-bench' });
    const dot = `digraph { rankdir=LR; ${answer.nodes.map((n) => `${n.id} [label="${n.label}"];`).join(' ')} ${answer.edges.map((e) => `${e.from} -> ${e.to};`).join(' ')} }`;
    const time = async (work: () => Promise<unknown>) => {
      await work(); // warm-up: the worker's modules and JIT
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        await work();
        samples.push(performance.now() - started);
      }
      return median(samples);
    };
    const generateMs = await time(() => services.generation.generate(principal, { workspaceId, prompt: 'bench' }));
    const fromCodeMs = await time(() => services.diagrams.createFromCode(principal, { workspaceId, code: dot }));
    return { generateMs, fromCodeMs, nodes: answer.nodes.length, edges: answer.edges.length };
  } finally {
    await jobs.close();
    await db.destroy();
  }
}

export function printGenerate(result: GenerateBench): void {
  const ok = result.generateMs < 300;
  console.log(`AI generation: from the model's answer to a stored diagram (${result.nodes} nodes, ${result.edges} edges, 3 groups, icons)`);
  console.log(`  generate:   ${result.generateMs.toFixed(0)} ms median (goal < 300 ms) ${ok ? 'OK' : 'ABOVE GOAL'}`);
  console.log(`  from-code:  ${result.fromCodeMs.toFixed(0)} ms for the same graph as DOT; ratio ${(result.generateMs / result.fromCodeMs).toFixed(2)}`);
}
