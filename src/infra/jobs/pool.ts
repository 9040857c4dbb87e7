/**
 * Heavy work off the event loop: a piscina pool of worker threads runs every job (from-code, SVG, PNG, export) with
 * a time limit (the thread is ended when it runs over) and a memory limit (V8's heap limit for the thread). Over a
 * limit the caller gets `too_complex` naming it; with every thread busy and the queue full, `busy` with Retry-After.
 * The process itself never runs out of memory or stops answering: a worker that dies is replaced.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { AppError, type ErrorCode } from '../../core/errors.js';
import type { HeavyWork } from '../../service/heavy-work.js';
import type { JobLimits } from '../config.js';
import { createHeavySlots, type HeavySlots, overBudget, wasmOverCap } from './heavy-slots.js';
import { type JobClock, startJobClock } from './job-clock.js';
import type { Metrics } from '../metrics.js';
import type { Job, JobKind, JobOutcome } from './worker.js';

export interface JobPool extends HeavyWork {
  close(): Promise<void>;
}

const METRIC_KIND: Record<JobKind, string> = { fromCode: 'from_code', fromGraph: 'from_graph', svg: 'svg', png: 'png', export: 'export' };

// Workers load the TypeScript sources through tsx, like the main thread; the loader is found from here, not from
// the working directory, so the CLI works wherever it is started.
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const WORKER = new URL('./worker.ts', import.meta.url).href;

/**
 * `onWorkerError` hears of a worker that died with no job to blame (out of memory while loading, say): piscina emits
 * those as 'error' events, which would otherwise end the process.
 */
export function createJobPool(
  limits: JobLimits,
  options: { metrics?: Metrics; onWorkerError?: (error: Error) => void; slots?: HeavySlots } = {},
): JobPool {
  const { metrics } = options;
  const pool = new Piscina({
    filename: WORKER,
    execArgv: ['--import', TSX_LOADER],
    // Every thread from the start, and always: the first render need not wait for a worker to load, and a worker
    // ended over a limit is replaced at once (with fewer than minThreads, piscina leaves the queue waiting).
    minThreads: limits.threads,
    maxThreads: limits.threads,
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
  });
  pool.on('error', (error: Error) => options.onWorkerError?.(error));
  // Jobs wait for a slot here, not in piscina's queue, so a slot is a free thread and the budget counts D2 too.
  const slots = options.slots ?? createHeavySlots({ slots: limits.threads, queue: limits.queue });
  // Jobs running or waiting, counted for the queue-depth metric.
  let inFlight = 0;
  const queueDepth = () => Math.max(0, inFlight - limits.threads);

  async function run<T>(job: Job): Promise<T> {
    const kind = METRIC_KIND[job.kind];
    const slot = await slots.acquire();
    inFlight++;
    metrics?.setQueueDepth(queueDepth());
    const { port1: startedPort, port2: started } = new MessageChannel();
    const ended = new AbortController();
    let endedBy: 'time' | 'memory' | undefined;
    const end = (reason: 'time' | 'memory') => {
      endedBy ??= reason;
      ended.abort();
    };
    let clock: JobClock | undefined;
    let threadId: number | undefined;
    startedPort.once('message', (message: { thread: number; osThread: number | undefined }) => {
      threadId = message.thread;
      clock = startJobClock(message.osThread, limits.timeoutSeconds, () => end('time'));
      slot.running(() => end('memory'));
    });
    const task = pool.run({ job, started }, { transferList: [started], signal: ended.signal });
    const seconds = () => clock?.seconds() ?? 0;
    let outcome: JobOutcome;
    try {
      outcome = (await task) as JobOutcome;
      // A thread whose WebAssembly memory grew with a big job keeps it for good: end it while the process sits above
      // its settled size, and a fresh one (piscina keeps minThreads) starts small. No other job can be on it: a job
      // only reaches piscina holding a slot, and this one still holds its own. A thread whose WebAssembly ran out at
      // its cap goes too: the engine that ran out is unusable.
      if (slots.residentMb() > slots.settleMb || 'wasmOutOfMemory' in outcome) await recycle(threadId);
    } catch (error) {
      throw refusal(error, kind, seconds, endedBy);
    } finally {
      clock?.stop();
      startedPort.close();
      inFlight--;
      metrics?.setQueueDepth(queueDepth());
      slot.release();
    }
    if ('wasmOutOfMemory' in outcome) {
      metrics?.recordJob(kind, 'over_memory', seconds());
      throw wasmOverCap(slots);
    }
    metrics?.recordJob(kind, outcome.ok ? 'ok' : 'failed', seconds());
    if (!outcome.ok) throw new AppError(outcome.error.code as ErrorCode, outcome.error.message, outcome.error.details);
    return outcome.value as T;
  }

  async function recycle(threadId: number | undefined): Promise<void> {
    const worker = pool.threads.find((thread) => thread.threadId === threadId);
    if (worker) await worker.terminate();
  }

  /** What a job that did not finish is answered with; anything unforeseen stays an internal error. */
  function refusal(error: unknown, kind: string, seconds: () => number, endedBy: 'time' | 'memory' | undefined): unknown {
    if (endedBy === 'time') {
      metrics?.recordJob(kind, 'over_time', seconds());
      return new AppError('too_complex', `the job ran longer than ${limits.timeoutSeconds} s, the limit per job: make the input smaller`, {
        limit: 'job time',
        maxSeconds: limits.timeoutSeconds,
      });
    }
    if (endedBy === 'memory') {
      metrics?.recordJob(kind, 'over_memory', seconds());
      return overBudget(slots.budgetMb);
    }
    if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      metrics?.recordJob(kind, 'over_memory', seconds());
      return new AppError('too_complex', `the job needed more than ${limits.memoryMb} MB, the limit per job: make the input smaller`, {
        limit: 'job memory',
        maxMb: limits.memoryMb,
      });
    }
    metrics?.recordJob(kind, 'failed', seconds());
    return error;
  }

  return {
    fromCode: (code, options) => run({ kind: 'fromCode', args: [code, options] }),
    fromGraph: (graph, vendor) => run({ kind: 'fromGraph', args: [graph, vendor] }),
    svg: (elements) => run({ kind: 'svg', args: [elements] }),
    png: async (elements, request) => {
      // Structured clone hands a Buffer over as a plain Uint8Array.
      const bytes = await run<Uint8Array>({ kind: 'png', args: [elements, request] });
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    export: (format, elements, publicUrl) => run({ kind: 'export', args: [format, elements, publicUrl] }),
    close: () => pool.destroy(),
  };
}
