/**
 * A job's time limit counts the CPU time of the thread running it, not the clock: on a busy machine (other jobs, other
 * containers on the same cores) a job gets fewer cycles a second, and a limit by the clock would refuse there what
 * passes on a quiet machine. Linux tells any thread's CPU time in /proc/self/task/TID/stat (utime + stime, fields 14
 * and 15, in clock ticks), which can be read from here while the job's thread is deep in WebAssembly. Elsewhere, or if
 * the thread is unknown, the clock is used. Either way a job ends by the clock at WALL_FACTOR × the limit, so a job
 * starved of CPU cannot hold its slot without end.
 */
import { readFileSync, readlinkSync } from 'node:fs';

export interface JobClock {
  /** CPU seconds the job has used (clock seconds where CPU time is unknown). */
  seconds(): number;
  stop(): void;
}

/** Clock ticks a second in /proc (USER_HZ): 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;
const CHECK_MS = 100;
/** A job may take this many times its limit by the clock when the machine is that busy, and no more. */
export const WALL_FACTOR = 3;

/** The OS id of the calling thread (Linux), for the worker to send with its first message. */
export function currentOsThread(): number | undefined {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return undefined;
  }
}

function threadCpuSeconds(osThread: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${osThread}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

export function startJobClock(osThread: number | undefined, limitSeconds: number, onOverTime: () => void): JobClock {
  const startedAt = performance.now();
  const wall = () => (performance.now() - startedAt) / 1000;
  const cpuAtStart = osThread === undefined ? undefined : threadCpuSeconds(osThread);
  let lastCpu = 0;
  const cpu = () => {
    if (osThread === undefined || cpuAtStart === undefined) return undefined;
    const now = threadCpuSeconds(osThread);
    if (now !== undefined) lastCpu = now - cpuAtStart;
    return lastCpu;
  };
  const timer = setInterval(() => {
    const used = cpu() ?? wall();
    if (used > limitSeconds || wall() > limitSeconds * WALL_FACTOR) onOverTime();
  }, CHECK_MS);
  timer.unref();
  return {
    seconds: () => cpu() ?? wall(),
    stop: () => clearInterval(timer),
  };
}
