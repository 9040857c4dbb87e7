/**
 * The conformance run: every input of the pinned public collections (collections.ts) through the pipeline the service
 * runs — the same job pool with its time and memory limits, D2's compiler — and per notation how many are accepted,
 * refused (with the error), over time or crashed. `npm run conformance [-- --notation dot --notation d2]`; writes
 * conformance-out/report.json (every input's outcome) and conformance-out/report.md (the table and every refusal).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { createD2Compiler } from '../../src/infra/d2-compiler.js';
import { createJobPool } from '../../src/infra/jobs/pool.js';
import { DEFAULT_JOB_LIMITS } from '../../src/infra/config.js';
import type { ConformanceInput } from './collections.js';
import { convert, graphvizParser, type ConformanceEngines, type Outcome } from './outcome.js';
import { COLLECTIONS, collectionInputs } from './sources.js';
import { summarize, tableOf } from './report.js';

const { values } = parseArgs({ options: { notation: { type: 'string', multiple: true }, only: { type: 'string' } } });
const wanted = new Set(values.notation ?? COLLECTIONS.map((c) => c.notation));

const graphviz = await Graphviz.load();
// One thread: the machine this runs on is shared, and one at a time keeps each file's time its own.
const jobs = createJobPool({ ...DEFAULT_JOB_LIMITS, threads: 1 });
const d2 = createD2Compiler({ timeoutSeconds: DEFAULT_JOB_LIMITS.timeoutSeconds, queue: 8 });
const engines: ConformanceEngines = {
  fromCode: (code, notation) => jobs.fromCode(code, { notation }),
  fromGraph: (graph) => jobs.fromGraph(graph, undefined),
  compileD2: (code) => d2.compile(code),
  graphvizRefusal: graphvizParser(graphviz),
};

const results: Array<{ input: Omit<ConformanceInput, 'code'>; outcome: Outcome; ms: number }> = [];
for (const collection of COLLECTIONS.filter((c) => wanted.has(c.notation))) {
  const { inputs, excluded } = collectionInputs(collection);
  for (const { source, reason } of excluded) {
    results.push({ input: { notation: collection.notation, repo: collection.repo, source }, outcome: { kind: 'excluded', reason }, ms: 0 });
  }
  process.stderr.write(`${collection.notation} ${collection.repo}: ${inputs.length} inputs\n`);
  for (const input of inputs) {
    if (values.only !== undefined && !input.source.includes(values.only)) continue;
    const started = performance.now();
    const outcome = await convert(input, engines);
    const ms = Math.round(performance.now() - started);
    const { code: _code, ...where } = input;
    results.push({ input: where, outcome, ms });
    if (outcome.kind !== 'accepted' && outcome.kind !== 'excluded') process.stderr.write(`  ${outcome.kind}: ${input.source}: ${'message' in outcome ? outcome.message.slice(0, 200) : ''}\n`);
  }
}
await jobs.close();
await d2.close();

const out = new URL('../../conformance-out/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('report.json', out), JSON.stringify(results, null, 1));
const summary = summarize(results);
writeFileSync(new URL('report.md', out), tableOf(summary, results));
console.log(tableOf(summary, []));
