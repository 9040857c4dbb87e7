import { AppError } from '../core/errors.js';
import type { Scope } from '../core/scopes.js';

/** Who is calling: the token's owner, what the token may do, and the one workspace it is pinned to, if any. */
export interface Principal {
  tokenId: string;
  userId: string;
  scopes: readonly Scope[];
  workspaceId: string | null;
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new AppError('insufficient_scope', `this token lacks the scope "${scope}", which this operation needs`, { required: scope });
  }
}
