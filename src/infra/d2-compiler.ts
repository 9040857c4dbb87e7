/**
 * D2's official compiler (`@terrastruct/d2`, its Go code built to WASM): one instance per server process, in the
 * worker thread the package starts itself, so the event loop stays free while it compiles. Starting it (the WASM, D2's
 * bundled ELK and the Go runtime) takes seconds and about 450 MB that Go never hands back, so it is started by the
 * first D2 diagram and stopped again when idle (or at once when the process is above its settled memory); a process
 * that never reads D2 (the CLI, most tests) never starts it. Each compile holds one of the heavy-job slots the memory
 * budget allows (./jobs/heavy-slots.ts).
 *
 * Each compile is time-limited by the clock (the package's thread is not ours to read CPU time from): its `compile`
 * always runs D2's own layout too (dagre), which can take minutes on a large graph and cannot be skipped. Over time
 * the caller gets too_complex and the D2 worker thread is terminated; the next D2 diagram starts a fresh one.
 */
import type { Worker } from 'node:worker_threads';
import { D2 } from '@terrastruct/d2';
import { AppError } from '../core/errors.js';
import { type CompiledD2, d2ParseError } from '../core/notations/d2/index.js';
import { withoutImports } from '../core/notations/d2/imports.js';
import type { D2Compiler } from '../service/heavy-work.js';
import type { Metrics } from './metrics.js';
import { type HeavySlots, overBudget, type Slot } from './jobs/heavy-slots.js';

/**
 * Time a compile may also spend waiting for the instance to start. Measured on the 2-core development machine: 10.7 s
 * to ready and 0.9 s for the first compile when idle, 13–20 s in all under load; 30 s leaves room above that.
 */
export const D2_START_ALLOWANCE_SECONDS = 30;
/** An instance idle this long is stopped, giving its memory (about 450 MB) back. */
export const D2_IDLE_SECONDS = 60;

export interface D2CompilerService extends D2Compiler {
  close(): Promise<void>;
}

interface Instance {
  d2: D2;
  /** Settles once the instance has compiled its first diagram (the Go runtime is up). */
  ready: Promise<void>;
  warm: boolean;
}

// The package answers one message at a time (a second compile would take over the first's reply), so compiles run in
// turn; `queue` bounds how many may wait.
export function createD2Compiler(
  limits: { timeoutSeconds: number; queue: number; startAllowanceSeconds?: number; idleSeconds?: number },
  options: { metrics?: Metrics; slots?: HeavySlots } = {},
): D2CompilerService {
  const startAllowanceSeconds = limits.startAllowanceSeconds ?? D2_START_ALLOWANCE_SECONDS;
  const idleSeconds = limits.idleSeconds ?? D2_IDLE_SECONDS;
  let instance: Instance | undefined;
  let idleTimer: NodeJS.Timeout | undefined;

  // D2's Go runtime never hands memory back to the process: stop the instance when it has been idle a while, or at
  // once when the process sits above its settled size after a compile (the next D2 diagram waits for a fresh start).
  function settle(): void {
    clearTimeout(idleTimer);
    const current = instance;
    if (!current) return;
    if (options.slots && options.slots.residentMb() > options.slots.settleMb) return stop(current);
    idleTimer = setTimeout(() => stop(current), idleSeconds * 1000);
    idleTimer.unref();
  }
  let turn: Promise<unknown> = Promise.resolve();
  let pending = 0;

  function start(): Instance {
    const d2 = new D2();
    const started: Instance = { d2, ready: Promise.resolve(), warm: false };
    started.ready = (async () => {
      await (d2 as unknown as { ready: Promise<void> }).ready;
      // The package's worker would keep a CLI or test process alive: the server keeps itself alive.
      workerOf(d2)?.unref();
      await d2.compile('a -> b');
      started.warm = true;
    })();
    // A failed start is answered to the compile that waits for it; the next compile starts afresh.
    started.ready.catch(() => {
      if (instance === started) instance = undefined;
    });
    return started;
  }

  function stop(stopped: Instance): void {
    clearTimeout(idleTimer);
    if (instance === stopped) instance = undefined;
    void workerOf(stopped.d2)?.terminate();
  }

  async function compileNow(code: string): Promise<CompiledD2> {
    // The slot first: starting D2 is itself the larger part of its memory.
    const slot = await options.slots?.acquire();
    clearTimeout(idleTimer);
    try {
      return await compileInSlot(code, slot);
    } finally {
      slot?.release();
      settle();
    }
  }

  async function compileInSlot(code: string, slot: Slot | undefined): Promise<CompiledD2> {
    const current = (instance ??= start());
    const allowed = limits.timeoutSeconds + (current.warm ? 0 : startAllowanceSeconds);
    const startedAt = performance.now();
    const seconds = () => (performance.now() - startedAt) / 1000;
    let timer: NodeJS.Timeout | undefined;
    const overTime = new Promise<'over time'>((resolve) => {
      timer = setTimeout(() => resolve('over time'), allowed * 1000);
    });
    const compiled = current.ready.then(() => current.d2.compile(code) as Promise<unknown>);
    // Whichever loses the race must not become an unhandled rejection.
    compiled.catch(() => undefined);
    let overMemory: () => void = () => undefined;
    const memoryShort = new Promise<'over memory'>((resolve) => (overMemory = () => resolve('over memory')));
    slot?.running(overMemory);
    try {
      const outcome = await Promise.race([compiled, overTime, memoryShort]);
      if (outcome === 'over memory') {
        options.metrics?.recordJob('d2_compile', 'over_memory', seconds());
        stop(current);
        throw overBudget(options.slots?.budgetMb);
      }
      if (outcome === 'over time') {
        options.metrics?.recordJob('d2_compile', 'over_time', seconds());
        stop(current);
        throw new AppError('too_complex', `D2 took longer than ${allowed} s to compile the code, the limit per job: make the input smaller`, {
          limit: 'job time',
          maxSeconds: allowed,
        });
      }
      options.metrics?.recordJob('d2_compile', 'ok', seconds());
      return outcome as CompiledD2;
    } catch (error) {
      if (error instanceof AppError) throw error;
      options.metrics?.recordJob('d2_compile', 'failed', seconds());
      if (!current.warm) throw new AppError('internal', `D2's compiler did not start: ${error instanceof Error ? error.message : String(error)}`);
      throw d2ParseError(error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async compile(code) {
      if (pending >= limits.queue) {
        throw new AppError('busy', `D2 is compiling and ${limits.queue} more D2 diagrams are waiting: try again in a few seconds`, { retryAfterSeconds: 5 });
      }
      pending++;
      // An import of a file not given is left out, not the whole diagram refused (core/notations/d2/imports.ts).
      const alone = withoutImports(code);
      const mine = turn.then(async () => {
        const compiled = await compileNow(alone.code);
        return alone.warnings.length > 0 ? { ...compiled, warnings: alone.warnings } : compiled;
      });
      turn = mine.catch(() => undefined);
      try {
        return await mine;
      } finally {
        pending--;
      }
    },
    async close() {
      clearTimeout(idleTimer);
      if (instance) stop(instance);
    },
  };
}

/** The package's worker thread: not in its types, but a field of every instance (dist/node-esm/index.js). */
const workerOf = (d2: D2): Worker | undefined => (d2 as unknown as { worker?: Worker }).worker;
