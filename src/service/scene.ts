import { type IconVendor, stampIcons } from '../core/icons/index.js';
import { intakeScene, type Element, type SceneIntake } from '../core/scene/intake.js';

export interface SceneOptions {
  /** The document's current elements, on update. */
  previous?: readonly Element[];
  vendor?: IconVendor | undefined;
  autoIcons?: boolean | undefined;
}

/**
 * Everything an incoming scene goes through before it is stored, in one place for REST and MCP alike: the intake
 * (format detection, validation, defaults, bindings), then icon stamping.
 */
export function prepareScene(raw: unknown, options: SceneOptions = {}): SceneIntake {
  const intake = intakeScene(raw, { previous: options.previous, vendor: options.vendor, autoIcons: options.autoIcons });
  // An imported drawing keeps its look: no icons guessed onto it unless asked for.
  const autoIcons = options.autoIcons ?? (intake.format === 'excalidraw' ? false : undefined);
  const stamped = stampIcons(intake.elements, { vendor: options.vendor, autoIcons });
  return { elements: stamped.elements, warnings: [...intake.warnings, ...stamped.warnings], format: intake.format };
}
