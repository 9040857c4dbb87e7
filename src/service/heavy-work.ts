import type { ExportFormat, ExportResult } from '../core/export/index.js';
import type { IconVendor } from '../core/icons/index.js';
import type { Detail } from '../core/graph/fold.js';
import type { GraphIR, Notation } from '../core/graph/types.js';
import type { CompiledD2 } from '../core/notations/d2/index.js';
import type { Element } from '../core/scene/intake.js';
import type { GeneratedElement } from '../core/scene/from-graph.js';

/** What the service asks of a PNG render: a scale, and optionally a longest side the image must fit (previews). */
export interface PngRequest {
  scale?: number | undefined;
  fitWithin?: number | undefined;
}

/** A diagram drawn from code, as the service stores it. */
export interface DrawnCode {
  elements: GeneratedElement[];
  notation: Notation;
  warnings: string[];
}

/** A graph drawn: its elements, and which element each graph node and group became. */
export interface DrawnGraph {
  elements: GeneratedElement[];
  warnings: string[];
  elementIds: { nodes: Map<string, string>; groups: Map<string, string> };
}

/**
 * The port to the CPU-heavy stages: parsing and laying out code, rendering and exporting scenes. Infra runs them off
 * the event loop with time and memory limits (src/infra/jobs/), so no request's heavy work delays another's reply.
 */
export interface HeavyWork {
  fromCode(code: string, options: { notation?: string | undefined; vendor?: IconVendor | undefined; detail?: Detail | undefined }): Promise<DrawnCode>;
  /** Lays out and draws a graph from any other source (AI generation), with its icon hints resolved. */
  fromGraph(graph: GraphIR, vendor: IconVendor | undefined): Promise<DrawnGraph>;
  svg(elements: readonly Element[]): Promise<string>;
  png(elements: readonly Element[], request?: PngRequest): Promise<Buffer>;
  export(format: ExportFormat, elements: readonly Element[], publicUrl: string): Promise<ExportResult>;
}

/**
 * D2's own compiler (Go built to WASM, in a thread of its own): D2 code → its compiled diagram, which core reads as a
 * graph. Infra keeps one warm, time-limited instance (src/infra/d2-compiler.ts). Throws parse_error with D2's line
 * and column, too_complex over its time limit, busy when too many D2 diagrams wait.
 */
export interface D2Compiler {
  compile(code: string): Promise<CompiledD2>;
}
