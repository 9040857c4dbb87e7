/**
 * Goal (issue 29): the whole process (main thread, job workers, D2's thread, their WebAssembly) stays under MEMORY_MB
 * whatever the load, and gives memory back after it. Reads the target's resident set from /proc (VmRSS; VmHWM is
 * the peak the kernel saw, so a spike between samples is not missed).
 */
import { readFileSync } from 'node:fs';
import { startTarget } from './rest.js';

export interface MemoryFigures {
  budgetMb: number;
  idleMb: number;
  steps: { name: string; outcomes: string; peakMb: number; seconds: number }[];
  peakMb: number;
  afterMb: number;
  afterSeconds: number;
}

const statusOf = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
const fieldMb = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(statusOf(pid))![1]) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 1,000 nodes, 5,000 edges: each node points at five pseudo-random others, within the graph limits. */
export const denseDot = (nodes = 1000, perNode = 5) =>
  `digraph { ${Array.from({ length: nodes }, (_, i) => Array.from({ length: perNode }, (_, k) => `n${i} -> n${(i * (7 + 6 * k) + 1 + k) % nodes};`).join(' ')).join(' ')} }`;
/** D2 with 1,500 connections among 500 shapes. */
export const d2Connections = (connections = 1500, shapes = 500) =>
  Array.from({ length: connections }, (_, i) => `s${i % shapes} -> s${(i * 7 + 3) % shapes}`).join('\n');

export async function benchMemory(options: { afterSeconds?: number; budgetMb?: number } = {}): Promise<MemoryFigures> {
  const afterSeconds = options.afterSeconds ?? 60;
  const target = await startTarget(['drawbridge'], options.budgetMb ? { MEMORY_MB: String(options.budgetMb) } : {});
  const pid = target.child.pid!;
  try {
    const { url, token, documentId, budgetMb } = target.info as { url: string; token: string; documentId: string; budgetMb: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const workspaceId = ((await (await fetch(`${url}/api-v1/workspaces`, { headers })).json()) as { items: { id: string }[] }).items[0]!.id;
    // A refusal is counted by what it names ("422 job time"), so the figures say which limit held.
    const outcome = async (r: Response) => {
      const body = await r.text();
      return r.ok ? String(r.status) : `${r.status} ${(JSON.parse(body) as { error: { details?: { limit?: string } } }).error.details?.limit ?? ''}`.trim();
    };
    const fromCode = (code: string) =>
      fetch(`${url}/api-v1/documents/from-code`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, code }) }).then(outcome);
    const render = () => fetch(`${url}/api-v1/documents/${documentId}/render?format=png&scale=2`, { headers }).then(outcome);
    // Warm: every kind of job once (small), D2 started, so "idle" is a server that has worked, not a cold one.
    await fromCode('digraph { a -> b }');
    await fromCode('a -> b');
    await fromCode('graph TD; a-->b');
    await render();
    await sleep(3000);
    const idleMb = fieldMb(pid, 'VmRSS');
    const steps: MemoryFigures['steps'] = [];
    let peakMb = idleMb;
    const step = async (name: string, work: () => Promise<string[]>) => {
      let stepPeak = fieldMb(pid, 'VmRSS');
      const sampler = setInterval(() => (stepPeak = Math.max(stepPeak, fieldMb(pid, 'VmRSS'))), 100);
      const started = performance.now();
      const statuses = await work();
      clearInterval(sampler);
      stepPeak = Math.max(stepPeak, fieldMb(pid, 'VmRSS'));
      peakMb = Math.max(peakMb, stepPeak);
      const counts = statuses.reduce<Record<string, number>>((c, s) => ((c[s] = (c[s] ?? 0) + 1), c), {});
      steps.push({ name, outcomes: Object.entries(counts).map(([s, n]) => `${n} × ${s}`).join(', '), peakMb: stepPeak, seconds: (performance.now() - started) / 1000 });
    };
    await step('DOT 1,000 nodes / 5,000 edges', async () => [await fromCode(denseDot())]);
    await step('D2 1,500 connections', async () => [await fromCode(d2Connections())]);
    await step('six heavy jobs at once (2 DOT, 2 D2, 2 PNG)', () =>
      Promise.all([fromCode(denseDot()), fromCode(denseDot(1000, 4)), fromCode(d2Connections()), fromCode(d2Connections(1400)), render(), render()]),
    );
    peakMb = Math.max(peakMb, fieldMb(pid, 'VmHWM'));
    await sleep(afterSeconds * 1000);
    return { budgetMb: Number(budgetMb), idleMb, steps, peakMb, afterMb: fieldMb(pid, 'VmRSS'), afterSeconds };
  } finally {
    target.child.kill();
  }
}

export function printMemory(m: MemoryFigures): void {
  const mb = (n: number) => `${Math.round(n)} MB`;
  const within = (n: number) => (n <= m.budgetMb ? 'OK' : 'OVER BUDGET');
  console.log(`Memory: resident set of the whole server process against MEMORY_MB = ${m.budgetMb}`);
  console.log(`  idle (warmed):   ${mb(m.idleMb)} ${within(m.idleMb)}`);
  for (const s of m.steps) console.log(`  ${s.name}: peak ${mb(s.peakMb)} in ${s.seconds.toFixed(1)} s (${s.outcomes}) ${within(s.peakMb)}`);
  console.log(`  peak (VmHWM):    ${mb(m.peakMb)} ${within(m.peakMb)}`);
  console.log(`  ${m.afterSeconds} s after:    ${mb(m.afterMb)} ${within(m.afterMb)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const after = process.argv.indexOf('--after');
  printMemory(await benchMemory({ afterSeconds: after > 0 ? Number(process.argv[after + 1]) : undefined }));
}
