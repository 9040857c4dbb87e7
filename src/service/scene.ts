import { type IconVendor, stampIcons } from '../core/icons/index.js';
import { placeScene, planAutoLayout, sceneToGraph } from '../core/scene/auto-layout.js';
import { placeInsideContainers } from '../core/scene/place-inside.js';
import { intakeScene, type Element, type SceneIntake } from '../core/scene/intake.js';
import { inSchemaOrder } from '../core/scene/schema.js';
import type { HeavyWork } from './heavy-work.js';

export interface SceneOptions {
  /** The document's current elements, on update. */
  previous?: readonly Element[];
  vendor?: IconVendor | undefined;
  autoIcons?: boolean | undefined;
  /** Edits by element: icons guessed by earlier writes stay on the elements the edit did not touch. */
  keepGuessedIcons?: boolean | undefined;
  /**
   * Stamp every element again, not only those the write changed: a write naming another vendor, or autoIcons with a
   * whole scene, is about the whole drawing. Otherwise an element sent as stored keeps its icon as it is.
   */
  restamp?: boolean | undefined;
}

/**
 * Everything an incoming scene goes through before it is stored, in one place for REST and MCP alike: the intake
 * (format detection, validation, defaults, bindings), then icon stamping.
 */
export function prepareScene(raw: unknown, options: SceneOptions = {}): SceneIntake {
  const intake = intakeScene(raw, { previous: options.previous, vendor: options.vendor, autoIcons: options.autoIcons });
  // An imported drawing keeps its look: no icons guessed onto it unless asked for.
  const autoIcons = options.autoIcons ?? (intake.format === 'excalidraw' ? false : undefined);
  const stamped = stampIcons(intake.elements, { vendor: options.vendor, autoIcons, keepGuessedIcons: options.keepGuessedIcons, stamped: options.restamp ? undefined : intake.unchanged });
  // An element that came back as stored is handed on as stored (byte-identical, and the history sees it at a glance).
  const ordered = stamped.elements.map((element) => (intake.unchanged.has(element.id) ? element : inSchemaOrder(element)));
  return { elements: ordered, warnings: [...intake.warnings, ...stamped.warnings], format: intake.format, unchanged: intake.unchanged };
}

/**
 * `layout: "auto"`: the scene is read as sent (placeholders where positions are missing), laid out by the from-code
 * engine in a worker, and then goes through the same intake and stamping as any scene.
 */
export async function prepareLaidOutScene(raw: unknown, options: SceneOptions, work: Pick<HeavyWork, 'fromGraph'>): Promise<SceneIntake> {
  const { raw: planned, plan } = planAutoLayout(raw);
  const list = Array.isArray(planned) ? planned : (planned as { elements?: unknown }).elements;
  if (Array.isArray(list)) list.push(...placeInsideContainers(list.filter((e): e is Record<string, unknown> & { id: string; type: string } => typeof e === 'object' && e !== null), plan));
  const read = intakeScene(planned, { previous: options.previous, vendor: options.vendor, autoIcons: options.autoIcons });
  if (plan.unplaced.size === 0) return prepareScene(planned, options);
  const laidOut = sceneToGraph(read.elements, plan);
  // Icons are those the client named (iconRef): resolved before layout so each box is sized for its icon.
  const drawn = await work.fromGraph(laidOut.graph, options.vendor);
  const placed = placeScene(read.elements, plan, laidOut, drawn.elements);
  const scene = prepareScene(placed.elements, { ...options, autoIcons: options.autoIcons ?? (read.format === 'excalidraw' ? false : undefined) });
  return { elements: scene.elements, warnings: [...new Set([...read.warnings, ...drawn.warnings, ...scene.warnings])], format: read.format, unchanged: scene.unchanged };
}
