/**
 * The worker side of the job pool: runs one job of heavy work in a worker thread and answers with a plain,
 * structured-clone-safe result. An AppError is returned as data, since a thrown error loses its code crossing threads.
 */
import { type MessagePort, threadId } from 'node:worker_threads';
import { isAppError } from '../../core/errors.js';
import { exportScene } from '../../core/export/index.js';
import { resolveIconHints } from '../../core/notations/icon-hints.js';
import { codeToScene, drawGraph } from '../../core/notations/index.js';
import { renderSvg } from '../../core/render/index.js';
import { renderScenePng } from '../../core/render/png.js';
import type { Element } from '../../core/scene/intake.js';
import type { HeavyWork } from '../../service/heavy-work.js';
import { loadRenderFonts } from '../fonts.js';
import { currentOsThread } from './job-clock.js';

type Arguments<K extends keyof HeavyWork> = Parameters<HeavyWork[K]>;
export type Job = { [K in keyof HeavyWork]: { kind: K; args: Arguments<K> } }[keyof HeavyWork];
export type JobKind = Job['kind'];

export type JobOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: string; message: string; details?: unknown } }
  /** A WebAssembly engine of this thread ran out of memory at its cap: the thread is to be replaced. */
  | { ok: false; wasmOutOfMemory: true };

/**
 * How a WebAssembly engine stops when `memory.grow` fails at the cap (../wasm-tiering.ts): Emscripten builds print "out
 * of memory" and exit, thrown as an ExitStatus (@hpcc-js/wasm-graphviz rethrows its message as an Error: "Program
 * terminated with exit(1)") or an abort; a direct grow throws a RangeError.
 * The engine is unusable afterwards (Graphviz's instance is loaded once per thread), so the thread goes too.
 */
function wasmOutOfMemory(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return name === 'ExitStatus' || (typeof message === 'string' && /Program terminated with exit\(|Memory\.grow\(\)|Cannot enlarge memory|Aborted\(OOM\)/.test(message));
}

async function perform(job: Job): Promise<unknown> {
  switch (job.kind) {
    case 'fromCode': {
      const [code, options] = job.args;
      const drawn = await codeToScene(code, { notation: options.notation, vendor: options.vendor, detail: options.detail });
      // Only what the service stores crosses back: the graph and its id maps stay here.
      return { elements: drawn.elements, notation: drawn.notation, warnings: drawn.warnings };
    }
    case 'fromGraph': {
      const [graph, vendor] = job.args;
      const drawn = await drawGraph(resolveIconHints(graph, vendor));
      return { elements: drawn.elements, warnings: drawn.warnings, elementIds: drawn.elementIds };
    }
    case 'svg':
      return renderSvg(job.args[0] as Element[], { fonts: loadRenderFonts() });
    case 'png': {
      const [elements, request = {}] = job.args;
      return renderScenePng(elements as Element[], { fonts: loadRenderFonts(), scale: request.scale, fitWithin: request.fitWithin });
    }
    case 'export': {
      const [format, elements, publicUrl] = job.args;
      return exportScene(format, elements, { publicUrl });
    }
  }
}

/**
 * `started` tells the pool the job left the queue, so its time limit counts running time only, and which thread runs
 * it: piscina's thread id (to recycle it) and the OS thread's (whose CPU time the limit counts).
 */
export default async function runJob({ job, started }: { job: Job; started: MessagePort }): Promise<JobOutcome> {
  started.postMessage({ thread: threadId, osThread: currentOsThread() });
  started.close();
  try {
    return { ok: true, value: await perform(job) };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: { code: error.code, message: error.message, details: error.details } };
    if (wasmOutOfMemory(error)) return { ok: false, wasmOutOfMemory: true };
    throw error;
  }
}
