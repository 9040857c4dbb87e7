import { AppError } from '../errors.js';
import { LIMITS } from '../limits.js';

/** A stored element. The full native schema (scene-model issue) narrows this; storage only needs id and type. */
export interface Element {
  id: string;
  type: string;
  [field: string]: unknown;
}

export type SceneFormat = 'native' | 'excalidraw';

export interface SceneIntake {
  elements: Element[];
  warnings: string[];
  format: SceneFormat;
}

export interface IntakeOptions {
  /** The document's current elements, when this is an update (bound arrows follow moved shapes). */
  previous?: readonly Element[];
}

/**
 * The single gate every incoming scene passes through (REST and MCP, create and update).
 * Foundation version: an array of objects, each with a string id and type.
 */
export function intakeScene(raw: unknown, _options: IntakeOptions = {}): SceneIntake {
  if (!Array.isArray(raw)) throw new AppError('validation_failed', 'elements must be an array');
  if (raw.length > LIMITS.elementsPerDocument) {
    throw new AppError('validation_failed', `elements: at most ${LIMITS.elementsPerDocument} elements per document, got ${raw.length}`);
  }
  const elements = raw.map((item, index): Element => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new AppError('validation_failed', `elements[${index}]: expected an object`);
    }
    const { id, type } = item as Record<string, unknown>;
    if (typeof id !== 'string' || id === '') throw new AppError('validation_failed', `elements[${index}]: id must be a non-empty string`);
    if (typeof type !== 'string' || type === '') throw new AppError('validation_failed', `elements[${index}] (id "${id}"): type must be a non-empty string`);
    return item as Element;
  });
  return { elements, warnings: [], format: 'native' };
}
