import { intakeScene, type Element, type SceneIntake } from '../core/scene/intake.js';

/** Everything an incoming scene goes through before it is stored, in one place for REST and MCP alike. */
export function prepareScene(raw: unknown, options: { previous?: readonly Element[] } = {}): SceneIntake {
  return intakeScene(raw, options);
}
