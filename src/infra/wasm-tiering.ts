import { setFlagsFromString } from 'node:v8';

/**
 * WebAssembly compiled by V8's baseline compiler only (Liftoff), for every thread of the process: V8 flags are
 * process-wide, so this runs before any module is compiled. D2's compiler is 22 MB of WASM; optimising it with
 * TurboFan held about 250 MB that V8 never gave back, even after D2's thread ended (measured: 357 MB resident after
 * D2's first compile and 395 MB after its thread ended, against 223 MB and 90 MB with Liftoff only). A 600-connection
 * D2 compile also ran faster (4.7 s against 14 s on the 2-core development machine, where the optimising compiler's
 * threads competed with the job for the cores).
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString('--liftoff-only');
}

/** V8 counts WebAssembly memory in pages of 64 KiB. */
const WASM_PAGES_PER_MB = 16;

/**
 * Caps every WebAssembly memory of the process (each Graphviz, D2 or HarfBuzz instance, in any thread) at `mb`:
 * V8's --wasm-max-mem-pages, process-wide like the flag above and read at each `memory.grow`, so it holds in worker
 * threads started before or after. A grow past it fails inside the job (Graphviz exits "out of memory", Go panics)
 * instead of the process passing its budget between two of the watchdog's samples (./jobs/heavy-slots.ts).
 */
export function capWasmMemory(mb: number): void {
  setFlagsFromString(`--wasm-max-mem-pages=${Math.floor(mb * WASM_PAGES_PER_MB)}`);
}
