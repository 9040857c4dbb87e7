/**
 * One input through Drawbridge's diagram-from-code pipeline, and what became of it: accepted (drawn), refused with an
 * error the user is shown, over the time limit, or crashed (anything but our own AppError, or an `internal` one: a
 * 500 at the door). Inputs the original tool refuses, or of a diagram family Drawbridge does not draw, are sorted out
 * before they count.
 */
import type { Graphviz } from '@hpcc-js/wasm-graphviz';
import { isAppError } from '../../src/core/errors.js';
import { d2ToGraph, type CompiledD2 } from '../../src/core/notations/d2/index.js';
import { checkGraphSize } from '../../src/core/notations/index.js';
import type { GraphIR } from '../../src/core/graph/types.js';
import type { ConformanceInput } from './collections.js';

/** The two doors into the pipeline the service uses: code of a notation, and a graph D2's compiler made. */
export interface ConformanceEngines {
  fromCode(code: string, notation: string): Promise<{ elements: unknown[]; warnings: string[] }>;
  fromGraph(graph: GraphIR): Promise<{ elements: unknown[]; warnings: string[] }>;
  compileD2(code: string): Promise<CompiledD2>;
  /** Whether Graphviz's own parser takes the DOT code: an error message when it does not. */
  graphvizRefusal?(code: string): string | undefined;
}

export type Outcome =
  | { kind: 'accepted'; elements: number; warnings: string[] }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'timeout'; message: string }
  | { kind: 'crashed'; message: string }
  /** Not counted: the original tool refuses it, or it is a diagram family Drawbridge does not draw. */
  | { kind: 'excluded'; reason: string };

/** Graphviz's own parser (its layout engine `nop` lays nothing out) as `graphvizRefusal`: Graphviz's error, or undefined. */
export function graphvizParser(graphviz: Pick<Graphviz, 'layout'>): (code: string) => string | undefined {
  return (code) => {
    try {
      graphviz.layout(code, 'canon', 'nop');
      return undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // `nop` wants every node placed when a `pos` attribute is declared, and cgraph keeps attribute declarations
      // from one graph to the next: Graphviz read the file, only this engine's check failed (an input's outcome
      // depended on the file before it).
      return /as required by the -n flag/.test(message) ? undefined : message;
    }
  };
}

/** Counted toward the acceptance goal: everything but `excluded`. */
export const COUNTED_KINDS = ['accepted', 'refused', 'timeout', 'crashed'] as const;

function failure(error: unknown): Outcome {
  if (!isAppError(error) || error.code === 'internal') {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { kind: 'crashed', message };
  }
  const details = error.details as { limit?: string } | undefined;
  if (error.code === 'too_complex' && details?.limit === 'job time') return { kind: 'timeout', message: error.message };
  // Mermaid's and PlantUML's other diagram families (pie, gantt, mindmap…) are answered `unsupported_notation`
  // naming the family: a kind of diagram not drawn, not a file misread.
  if (error.code === 'unsupported_notation' && /diagrams are not supported/.test(error.message)) return { kind: 'excluded', reason: error.message.split(';')[0]! };
  // Mermaid's own detector finding no diagram type: a syntax fragment of the documentation, which Mermaid refuses too.
  if (error.code === 'parse_error' && /^Mermaid: the first line names no diagram type/.test(error.message)) return { kind: 'excluded', reason: `Mermaid refuses it: ${error.message}` };
  return { kind: 'refused', code: error.code, message: error.message };
}

export async function convert(input: ConformanceInput, engines: ConformanceEngines): Promise<Outcome> {
  if (input.notation === 'dot') {
    const refusal = engines.graphvizRefusal?.(input.code);
    if (refusal !== undefined) return { kind: 'excluded', reason: `Graphviz refuses it: ${refusal}` };
  }
  try {
    let drawn: { elements: unknown[]; warnings: string[] };
    if (input.notation === 'd2') {
      let compiled: CompiledD2;
      try {
        compiled = await engines.compileD2(input.code);
      } catch (error) {
        // D2's own compiler is the original tool: what it refuses at the pinned commit is not an input.
        if (isAppError(error) && error.code === 'parse_error') return { kind: 'excluded', reason: `D2 refuses it: ${error.message}` };
        throw error;
      }
      const graph = d2ToGraph(compiled);
      checkGraphSize(graph);
      drawn = await engines.fromGraph(graph);
    } else {
      drawn = await engines.fromCode(input.code, input.notation);
    }
    return { kind: 'accepted', elements: drawn.elements.length, warnings: drawn.warnings };
  } catch (error) {
    return failure(error);
  }
}
