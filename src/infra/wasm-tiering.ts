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
