import { performance } from 'node:perf_hooks';
import { packScene } from '../src/infra/storage/scene-packing.js';
import { prepareScene } from '../src/service/scene.js';
import { benchScene } from './scenes.js';

export interface HistoryBench {
  elements: number;
  /** The whole-copy baseline: the version's name and elements JSON as the documents table holds them. */
  wholeCopyBytes: number;
  /** What one kept version costs in document_versions (Brotli-packed whole copy). */
  storedBytes: number;
  packMs: number;
}

/** Bytes per stored version for a 200-element diagram after one element changed (the measure). */
export function benchHistory(elements = 200, runs = 20): HistoryBench {
  const scene = prepareScene(benchScene(elements)).elements;
  const changed = scene.map((element, i) => (i === 7 ? { ...element, x: (element as { x: number }).x + 40 } : element));
  const json = JSON.stringify(changed);
  let stored = 0;
  const start = performance.now();
  for (let i = 0; i < runs; i++) stored = packScene('Bench diagram', json).length;
  return { elements: scene.length, wholeCopyBytes: Buffer.byteLength(JSON.stringify('Bench diagram')) + 1 + Buffer.byteLength(json), storedBytes: stored, packMs: (performance.now() - start) / runs };
}

export function printHistory(result: HistoryBench): void {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`Version history: bytes per stored version, ${result.elements}-element diagram with one element changed`);
  console.log(`  whole copy: ${fmt(result.wholeCopyBytes)} B`);
  console.log(`  stored:     ${fmt(result.storedBytes)} B (Brotli-packed, ${(result.wholeCopyBytes / result.storedBytes).toFixed(1)}× smaller; ${result.packMs.toFixed(2)} ms to pack)`);
}
