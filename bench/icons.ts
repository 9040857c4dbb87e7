/**
 * Icon search latency: the quality table's queries, repeated, over all libraries. The spec asks for p99 < 2 ms per
 * query; this prints p50/p99 (and the one-off catalog + index build) instead of asserting it in a timed test.
 * Run alone: node --import tsx bench/icons.ts [rounds]
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { listLibraries, searchIcons } from '../src/core/icons/index.js';
import { SEARCH_QUALITY_TABLE } from '../src/core/icons/search-quality.js';

export interface IconSearchBench {
  items: number;
  libraries: number;
  buildMs: number;
  queries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function benchIconSearch(rounds = 100): IconSearchBench {
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
  return {
    items: libraries.reduce((sum, library) => sum + library.count, 0),
    libraries: libraries.length,
    buildMs,
    queries: samples.length,
    p50Ms: percentile(50),
    p99Ms: percentile(99),
    maxMs: percentile(100),
  };
}

export function printIconSearch(result: IconSearchBench): void {
  console.log(`Icon search over ${result.items} items in ${result.libraries} libraries (index built in ${result.buildMs.toFixed(0)} ms)`);
  console.log(`  ${result.queries} queries: p50 ${result.p50Ms.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(3)} ms, max ${result.maxMs.toFixed(3)} ms`);
  // Wall-clock tails grow when other processes hold the cores; the load average says how busy the machine was.
  console.log(`  goal p99 < 2 ms: ${result.p99Ms < 2 ? 'OK' : 'OVER'} (load average ${loadavg()[0]?.toFixed(2)})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printIconSearch(benchIconSearch(Number(process.argv[2] ?? 100)));
}
