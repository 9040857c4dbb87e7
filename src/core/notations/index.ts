/**
 * The notation registry and the pure "diagram from code" pipeline the service calls:
 * code → detect → parse (GraphIR) → layout → scene elements.
 */
import { AppError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { IconVendor } from '../icons/index.js';
import type { GraphIR, Notation, NotationConverter } from '../graph/types.js';
import { type Detail, foldForReading } from '../graph/fold.js';
import { NOTATIONS } from '../graph/types.js';
import { layoutEngineFor } from '../layout/engine.js';
import { layoutSequence } from '../layout/sequence.js';
import { drawChart } from '../scene/charts/index.js';
import { graphToScene, type GeneratedElement, type GraphScene } from '../scene/from-graph.js';
import { placeInsets, sizeInsets } from '../scene/insets.js';
import { keyApart, keyBeside } from '../scene/key-beside.js';
import { composeNotation } from './compose/index.js';
import { detectD2 } from './d2/index.js';
import { dotNotation } from './dot/index.js';
import { helmNotation } from './helm/index.js';
import { resolveIconHints } from './icon-hints.js';
import { kubernetesNotation } from './kubernetes/index.js';
import { mermaidNotation } from './mermaid/index.js';
import { plantumlNotation } from './plantuml/index.js';
import { sqlNotation } from './sql/index.js';
import { terraformNotation } from './terraform/index.js';


/** A converter answering at once or later. */
export type AnyConverter = NotationConverter<GraphIR> | NotationConverter<Promise<GraphIR>>;

/** Detection picks the most confident converter, and only when it is at least this sure. */
export const DETECTION_THRESHOLD = 0.5;

/** Registered converters, in NOTATIONS order (which also breaks ties in detection). */
export const CONVERTERS: readonly AnyConverter[] = [composeNotation, kubernetesNotation, dotNotation, plantumlNotation, terraformNotation, helmNotation, sqlNotation, mermaidNotation].sort(
  (a, b) => NOTATIONS.indexOf(a.id) - NOTATIONS.indexOf(b.id),
);

const byId = new Map<Notation, AnyConverter>(CONVERTERS.map((converter) => [converter.id, converter]));

/**
 * Every notation's detector, D2's too: D2 is read by D2's own compiler, which runs in a thread of its own (infra), so
 * the service compiles it and hands the graph (`d2ToGraph`) to `drawGraph`; it has no converter here.
 */
const DETECTORS: ReadonlyArray<Pick<AnyConverter, 'id' | 'detect'>> = [...CONVERTERS, { id: 'd2' as const, detect: detectD2 }].sort(
  (a, b) => NOTATIONS.indexOf(a.id) - NOTATIONS.indexOf(b.id),
);

/** Notations this build can read, for `unsupported_notation` and the capabilities guide. */
export const supportedNotations = (): Notation[] => DETECTORS.map((detector) => detector.id);

function unsupported(message: string): AppError {
  const supported = supportedNotations();
  return new AppError('unsupported_notation', `${message}; supported notations: ${supported.join(', ')}`, { supported });
}

/** The notation `code` is written in, or undefined when no converter is sure enough. */
export function detectNotation(code: string): Notation | undefined {
  let best: { id: Notation; score: number } | undefined;
  for (const detector of DETECTORS) {
    const score = detector.detect(code);
    if (score >= DETECTION_THRESHOLD && (best === undefined || score > best.score)) best = { id: detector.id, score };
  }
  return best?.id;
}

/**
 * Whether `code` is D2, asked for or detected, which the caller compiles with D2 before `drawGraph`; other code goes
 * to `codeToScene`. Refuses code over the size limits first. Detection over the whole code runs only when D2's own
 * detector, which reads the first 20,000 characters, already claims it, so other notations' code costs the caller
 * (the service's event loop) next to nothing.
 */
export function isD2Code(code: string, notation: string | undefined): boolean {
  checkCodeSize(code);
  if (notation !== undefined) return notation === 'd2';
  return detectD2(code) >= DETECTION_THRESHOLD && detectNotation(code) === 'd2';
}

export interface CodeToSceneOptions {
  /** Overrides detection. */
  notation?: string;
  /** Prefer this vendor's icons when resolving the parsers' icon hints. */
  vendor?: IconVendor;
  /** auto (the default) folds a large infrastructure graph's detail into its owners; full draws everything. */
  detail?: Detail | undefined;
}

export interface CodeToSceneResult {
  /** Native elements in input form, ready for the intake. */
  elements: GeneratedElement[];
  /** The notation read (detected, or the one asked for). */
  notation: Notation;
  /** What was skipped or approximated, for the user. */
  warnings: string[];
  /** The graph the scene was drawn from: icon stamping reads its iconRef/iconHint through `elementIds`. */
  graph: GraphIR;
  /** Graph node/group id → element id. */
  elementIds: { nodes: Map<string, string>; groups: Map<string, string> };
}

/** Code over the size limits is refused before any converter reads it (413, naming the limit). */
function checkCodeSize(code: string): void {
  const bytes = Buffer.byteLength(code, 'utf8');
  if (bytes > LIMITS.codeBytes) throw new AppError('payload_too_large', `code: at most ${LIMITS.codeBytes} bytes (1 MiB), got ${bytes}`);
  let lines = 1;
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', at + 1)) lines++;
  if (lines > LIMITS.codeLines) throw new AppError('payload_too_large', `code: at most ${LIMITS.codeLines} lines, got ${lines}`);
}

/**
 * A graph beyond what layout can place in its time limit, or a reader could follow, is refused (422 too_complex,
 * naming the figure over its limit) before layout starts.
 */
export function checkGraphSize(graph: GraphIR): void {
  const over = (what: string, limit: number, got: number) =>
    new AppError('too_complex', `the diagram has ${got} ${what}; at most ${limit} can be laid out`, { limit: what, max: limit, got });
  if (graph.nodes.length > LIMITS.graphNodes) throw over('nodes', LIMITS.graphNodes, graph.nodes.length);
  if (graph.edges.length > LIMITS.graphEdges) throw over('edges', LIMITS.graphEdges, graph.edges.length);
  const parentOf = new Map(graph.groups.map((g) => [g.id, g.parent]));
  let deepest = 0;
  for (const group of graph.groups) {
    let depth = 1;
    // Counting stops past the limit, so a parent cycle cannot loop forever.
    for (let parent = group.parent; parent !== undefined && depth <= LIMITS.nestingDepth; parent = parentOf.get(parent)) depth++;
    deepest = Math.max(deepest, depth);
  }
  if (deepest > LIMITS.nestingDepth) throw over('levels of nesting', LIMITS.nestingDepth, deepest);
}

/** Parses, lays out and draws `code`. Throws unsupported_notation, parse_error, payload_too_large or too_complex as AppError. */
export async function codeToScene(code: string, options: CodeToSceneOptions = {}): Promise<CodeToSceneResult> {
  checkCodeSize(code);
  const notation = options.notation ?? detectNotation(code);
  if (notation === undefined) throw unsupported('the code is in none of the supported notations');
  if (notation === 'd2') throw new AppError('internal', 'D2 is compiled by the service before drawGraph, not read by codeToScene (see isD2Code)');
  const converter = byId.get(notation as Notation);
  if (converter === undefined) throw unsupported(`notation "${notation}" is not supported`);
  const graph = resolveIconHints(foldForReading(await parseCode(converter, code), converter.id, options.detail), options.vendor);
  const scene = await drawGraph(graph, converter.id);
  return { elements: scene.elements, notation: converter.id, warnings: scene.warnings, graph, elementIds: scene.elementIds };
}

/** The converter's graph; on a parse_error, the exact position when the converter can find it (locateError). */
async function parseCode(converter: AnyConverter, code: string): Promise<GraphIR> {
  try {
    return await converter.toGraph(code);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'parse_error' || converter.locateError === undefined) throw error;
    throw (await converter.locateError(code)) ?? error;
  }
}

/**
 * Lays out and draws a graph from any source (a notation, later AI generation): charts in their own layout, sequence
 * diagrams with lifelines, the rest layered, by the engine for its notation when it was read from one.
 */
export async function drawGraph(graph: GraphIR, notation?: Notation): Promise<GraphScene & { warnings: string[] }> {
  checkGraphSize(graph);
  if (graph.layout === 'chart') {
    const chart = drawChart(graph);
    return { elements: chart.elements, parents: new Map(), elementIds: { nodes: new Map(), groups: new Map() }, warnings: [...graph.warnings, ...chart.warnings] };
  }
  if (graph.layout === 'sequence') {
    const sequence = layoutSequence(graph);
    return { elements: sequence.elements, parents: sequence.parents, elementIds: { nodes: new Map(), groups: new Map() }, warnings: [...graph.warnings, ...sequence.warnings] };
  }
  const { drawing, key } = keyApart(graph);
  const { graph: sized, insets } = sizeInsets(drawing);
  const layout = await layoutEngineFor(sized, notation)(sized);
  const scene = placeInsets(graphToScene(sized, layout), insets);
  const keyed = key ? keyBeside(scene, graphToScene(key, await layoutEngineFor(key, notation)(key))) : scene;
  return { ...keyed, warnings: [...graph.warnings, ...layout.warnings, ...scene.warnings] };
}
