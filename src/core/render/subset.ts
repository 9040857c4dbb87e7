/**
 * Font subsetting with HarfBuzz's hb-subset (harfbuzzjs ships it as a standalone WebAssembly module).
 *
 * Written against the raw exports because the `subset-font` wrapper is async and reads the module from disk itself:
 * the renderer is a pure synchronous function, so the module bytes come in from infra and are instantiated here once,
 * synchronously (Node allows that for any module size). Each face is copied into wasm memory once and reused.
 */

interface HarfBuzz {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_input_set(input: number, setType: number): number;
  hb_subset_input_get_flags(input: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_READONLY = 1;
const HB_SUBSET_SETS_DROP_TABLE_TAG = 3;
/**
 * No shaping tables: the renderer measures plain advance widths, and without these every viewer (browser or
 * rasteriser) lays glyphs out at exactly those advances. They are also most of a subset's size (GSUB closure).
 */
const DROPPED_TABLES = ['GSUB', 'GPOS', 'GDEF', 'kern', 'morx', 'kerx'];
const hbTag = (tag: string): number => [...tag].reduce((value, char) => (value << 8) + char.charCodeAt(0), 0) >>> 0;
/** Hinting only sharpens glyphs on low-resolution screens at small sizes; dropping it roughly halves a subset. */
const HB_SUBSET_FLAGS_NO_HINTING = 0x1;

export class FontSubsetter {
  private readonly hb: HarfBuzz;
  private readonly faces = new Map<string, number>();

  constructor(wasm: Uint8Array<ArrayBuffer>) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), {});
    this.hb = instance.exports as unknown as HarfBuzz;
    this.hb._initialize();
  }

  /** Keeps a copy of `sfnt` (TrueType/OpenType bytes) in wasm memory under `key`. */
  load(key: string, sfnt: Uint8Array): void {
    const { hb } = this;
    const pointer = hb.malloc(sfnt.byteLength);
    new Uint8Array(hb.memory.buffer).set(sfnt, pointer);
    const blob = hb.hb_blob_create(pointer, sfnt.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
    this.faces.set(key, hb.hb_face_create(blob, 0));
    hb.hb_blob_destroy(blob);
  }

  /** A TrueType/OpenType font holding only the glyphs of `codepoints` (plus what layout needs for them). */
  subset(key: string, codepoints: Iterable<number>): Uint8Array {
    const { hb } = this;
    const face = this.faces.get(key);
    if (face === undefined) throw new Error(`font "${key}" is not loaded`);
    const input = hb.hb_subset_input_create_or_fail();
    if (input === 0) throw new Error('hb_subset_input_create_or_fail failed');
    let subset = 0;
    try {
      const unicodes = hb.hb_subset_input_unicode_set(input);
      for (const codepoint of codepoints) hb.hb_set_add(unicodes, codepoint);
      const dropped = hb.hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG);
      for (const table of DROPPED_TABLES) hb.hb_set_add(dropped, hbTag(table));
      hb.hb_subset_input_set_flags(input, hb.hb_subset_input_get_flags(input) | HB_SUBSET_FLAGS_NO_HINTING);
      subset = hb.hb_subset_or_fail(face, input);
    } finally {
      hb.hb_subset_input_destroy(input);
    }
    if (subset === 0) throw new Error(`hb_subset_or_fail failed for font "${key}"`);
    const blob = hb.hb_face_reference_blob(subset);
    try {
      const offset = hb.hb_blob_get_data(blob, 0);
      const length = hb.hb_blob_get_length(blob);
      // Copied out: the wasm memory may grow (and detach this view) on the next call.
      return new Uint8Array(hb.memory.buffer, offset, length).slice();
    } finally {
      hb.hb_blob_destroy(blob);
      hb.hb_face_destroy(subset);
    }
  }
}
