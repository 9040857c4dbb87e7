/**
 * Icon search latency: the quality table's queries, repeated, over all libraries. The spec asks for p99 < 2 ms per
 * query; this prints p50/p99 (and the one-off catalog + index build) instead of asserting it in a timed test.
 * Run: node --import tsx bench/icons.ts [rounds]
 */
import { loadavg } from 'node:os';
import { SEARCH_QUALITY_TABLE } from '../src/core/icons/search-quality.js';
import { listLibraries, searchIcons } from '../src/core/icons/index.js';

const rounds = Number(process.argv[2] ?? 100);
const buildStart = performance.now();
const libraries = listLibraries();
searchIcons({ query: 'warm up' });
const buildMs = performance.now() - buildStart;
// One unmeasured pass lets the JIT settle: the budget is about a running server, not the first request.
for (const { query, vendor } of SEARCH_QUALITY_TABLE) searchIcons({ query, vendor });

const samples: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  for (const { query, vendor } of SEARCH_QUALITY_TABLE) {
    const start = performance.now();
    searchIcons({ query, vendor });
    samples.push(performance.now() - start);
  }
}
samples.sort((a, b) => a - b);
const percentile = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? 0;
const items = libraries.reduce((sum, library) => sum + library.count, 0);

console.log(`icons: ${items} items in ${libraries.length} libraries; catalog + index built in ${buildMs.toFixed(1)} ms`);
console.log(`search: ${samples.length} queries (${SEARCH_QUALITY_TABLE.length} × ${rounds})`);
console.log(`p50 ${percentile(50).toFixed(3)} ms, p99 ${percentile(99).toFixed(3)} ms, max ${percentile(100).toFixed(3)} ms`);
// Wall-clock tails grow when other processes hold the cores; the load average says how busy the machine was.
console.log(`load average ${loadavg()[0]?.toFixed(2)} on this machine during the run`);
console.log(percentile(99) < 2 ? 'p99 within the 2 ms budget' : 'p99 OVER the 2 ms budget');
