/**
 * The memory budget (MEMORY_MB) turned into admission: every heavy job — a pool job or a D2 compile — holds one slot
 * while it runs, so the jobs that may grow WebAssembly memory at the same time are as few as the budget allows
 * (fewer concurrent jobs rather than more memory). A watchdog samples the process's resident set while jobs run and,
 * past the budget's hard line, ends the youngest job (the least work lost) with too_complex naming the budget.
 *
 * The watchdog only sees growth between its samples: a WebAssembly heap (Graphviz's, D2's Go runtime) can grow by
 * hundreds of MB at once, past the budget before the next sample. So each WebAssembly memory of the process is also
 * capped (`wasmCapMb`, V8's --wasm-max-mem-pages, see ../wasm-tiering.ts) at the budget's hard line less a warmed
 * server at rest, shared among the slots: a job that would grow past it fails at once in its own thread, and is
 * answered too_complex (`wasmOverCap`) instead of the process passing its budget.
 */
import { AppError } from '../../core/errors.js';

/** How a running job is ended when memory runs short: its thread is terminated by whoever runs it. */
export type EndJob = () => void;

export interface HeavySlots {
  /** Waits for a slot (`busy` past `queue` waiting); the returned handle frees it. */
  acquire(): Promise<Slot>;
  /** Above this the process should give memory back (recycle the thread that just finished, stop D2 when idle). */
  readonly settleMb: number;
  /** The process's resident set now, in MiB. */
  residentMb(): number;
  readonly budgetMb: number | undefined;
  /** The most one WebAssembly memory may grow to, in MiB (undefined without a budget). */
  readonly wasmCapMb: number | undefined;
}

export interface Slot {
  /** While running, `end` is called if the process passes its budget and this is the youngest job. */
  running(end: EndJob): void;
  release(): void;
}

/** Share of the budget the watchdog lets the process reach before ending a job: room for the sample interval. */
const HARD_SHARE = 0.92;
/** Share above which memory is handed back after a job: about what an idle server plus one small job holds. */
const SETTLE_SHARE = 0.6;
const SAMPLE_MS = 200;
/**
 * A warmed server at rest with D2's runtime started: main thread, job threads with their modules loaded, D2's Go heap
 * (`npm run bench:memory` idle, measured 512–642 MB). A job's WebAssembly can only have what lies above it.
 */
const WARM_IDLE_MB = 640;
/** Room for the JavaScript a job thread allocates beside its WebAssembly (the scene, the JSON it reads back). */
const JOB_JS_MB = 64;
/** Below this neither Graphviz nor D2 starts (D2's Go heap is about 60 MB at start, 190 MB for 1,500 connections). */
const WASM_CAP_FLOOR_MB = 128;

/** The cap on each WebAssembly memory, so that the slots' jobs growing at once stay under the budget's hard line. */
export function wasmCapWithin(budgetMb: number, slots: number): number {
  return Math.max(WASM_CAP_FLOOR_MB, Math.floor((budgetMb * HARD_SHARE - WARM_IDLE_MB) / slots - JOB_JS_MB));
}
/** An ended thread's memory takes a moment to go back: until then, a high sample is not a reason to end another job. */
const RELEASE_GRACE_MS = 1000;

export function createHeavySlots(limits: { slots: number; queue: number; budgetMb?: number | undefined }, residentMb = () => process.memoryUsage.rss() / 1048576): HeavySlots {
  let free = limits.slots;
  const waiting: (() => void)[] = [];
  const running = new Map<Slot, { end: EndJob; since: number }>();
  let watchdog: NodeJS.Timeout | undefined;
  let graceUntil = 0;

  function watch(): void {
    if (!limits.budgetMb || watchdog) return;
    const hardMb = limits.budgetMb * HARD_SHARE;
    watchdog = setInterval(() => {
      if (running.size === 0 || performance.now() < graceUntil || residentMb() < hardMb) return;
      const [youngest] = [...running.entries()].sort((a, b) => b[1].since - a[1].since);
      if (!youngest) return;
      running.delete(youngest[0]);
      graceUntil = performance.now() + RELEASE_GRACE_MS;
      youngest[1].end();
    }, SAMPLE_MS);
    watchdog.unref();
  }

  function stopWatching(): void {
    if (running.size > 0 || !watchdog) return;
    clearInterval(watchdog);
    watchdog = undefined;
  }

  return {
    budgetMb: limits.budgetMb,
    wasmCapMb: limits.budgetMb ? wasmCapWithin(limits.budgetMb, limits.slots) : undefined,
    settleMb: (limits.budgetMb ?? Number.POSITIVE_INFINITY) * SETTLE_SHARE,
    residentMb,
    async acquire() {
      if (free === 0) {
        if (waiting.length >= limits.queue) {
          throw new AppError('busy', `every worker is busy and ${limits.queue} jobs are waiting: try again in a few seconds`, { retryAfterSeconds: 5 });
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else free--;
      let released = false;
      const slot: Slot = {
        running(end) {
          running.set(slot, { end, since: performance.now() });
          watch();
        },
        release() {
          if (released) return;
          released = true;
          running.delete(slot);
          stopWatching();
          const next = waiting.shift();
          if (next) next();
          else free++;
        },
      };
      return slot;
    },
  };
}

/** What a job ended by the watchdog is answered with. */
export function overBudget(budgetMb: number | undefined): AppError {
  return new AppError('too_complex', `the server's memory budget (${budgetMb} MB) ran short while this job ran: make the input smaller or try again later`, {
    limit: 'server memory',
    maxMb: budgetMb,
  });
}

/** What a job whose WebAssembly memory reached its cap (`wasmCapMb`) is answered with. */
export function wasmOverCap(slots: Pick<HeavySlots, 'budgetMb' | 'wasmCapMb'>): AppError {
  return new AppError(
    'too_complex',
    `the job needed more than ${slots.wasmCapMb ?? '?'} MB of WebAssembly memory, what the server's memory budget (${slots.budgetMb} MB) leaves one job: make the input smaller`,
    { limit: 'server memory', maxMb: slots.budgetMb },
  );
}
