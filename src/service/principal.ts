import { AppError } from '../core/errors.js';
import type { Scope } from '../core/scopes.js';

/** The way a call came in; the version history records it beside each write. */
export const DOORS = ['rest', 'mcp', 'web', 'cli', 'ai'] as const;
export type Door = (typeof DOORS)[number];

/**
 * Who is calling: the token's owner, what the token may do, the one workspace it is pinned to, if any, and the door
 * the call came through (set where the adapter builds the principal, so no service call takes it as a parameter).
 */
export interface Principal {
  tokenId: string;
  userId: string;
  scopes: readonly Scope[];
  workspaceId: string | null;
  door: Door;
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new AppError('insufficient_scope', `this token lacks the scope "${scope}", which this operation needs`, { required: scope });
  }
}
