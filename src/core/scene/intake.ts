import { AppError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { IconVendor } from '../icons/limits.js';
import { detectExcalidraw, fromExcalidraw } from './from-excalidraw.js';
import type { Element } from './schema.js';
import { validateElements } from './validate.js';

export type { Element } from './schema.js';

export type SceneFormat = 'native' | 'excalidraw';

export interface SceneIntake {
  elements: Element[];
  warnings: string[];
  format: SceneFormat;
  /** Ids of the elements sent exactly as they are stored: checked, stamped and laid out when they were stored. */
  unchanged: ReadonlySet<string>;
}

export interface IntakeOptions {
  /** The document's current elements on update: an arrow resent without focus points keeps the ones it had. */
  previous?: readonly Element[];
  /**
   * Icon stamping hints. The intake only validates `iconRef`; stamping (src/core/icons/) runs after it, wired by the
   * service, and reads these.
   */
  vendor?: IconVendor;
  autoIcons?: boolean;
}

/**
 * The single gate every incoming scene passes through (REST and MCP, create and update). `raw` is a native elements
 * array, a bare Excalidraw elements array, or an Excalidraw file/clipboard object; the format is detected per call.
 * Every bound arrow end is recomputed from the shapes of this scene, so arrows follow moved or resized shapes.
 */
export function intakeScene(raw: unknown, options: IntakeOptions = {}): SceneIntake {
  const excalidraw = detectExcalidraw(raw);
  if (excalidraw === undefined && !Array.isArray(raw)) {
    throw new AppError('validation_failed', 'elements must be an array of elements, or an Excalidraw scene (type "excalidraw")');
  }
  const converted = excalidraw ? fromExcalidraw(excalidraw) : { elements: raw as unknown[], warnings: [] };
  if (converted.elements.length > LIMITS.elementsPerDocument) {
    throw new AppError(
      'validation_failed',
      `elements: at most ${LIMITS.elementsPerDocument} elements per document, got ${converted.elements.length}`,
    );
  }
  const scene = validateElements(converted.elements, options.previous);
  return {
    elements: scene.elements,
    warnings: [...converted.warnings, ...scene.warnings],
    format: excalidraw ? 'excalidraw' : 'native',
    unchanged: scene.unchanged,
  };
}
