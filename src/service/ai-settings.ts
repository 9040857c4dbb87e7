import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.js';
import type { Database } from '../infra/storage/schema.js';
import { nowIso } from './ids.js';
import { type Principal, requireScope } from './principal.js';

export const AI_PROVIDERS = ['openai', 'anthropic', 'google', 'openai-compatible'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** Everything a model call needs, the key in clear: never stored, logged or returned. */
export interface AiCredentials {
  provider: AiProvider;
  model: string;
  key: string;
  baseUrl: string | null;
}

/** What anyone is shown of saved settings: the key only as its last four characters. */
export interface AiSettingsView {
  provider: AiProvider;
  model: string;
  baseUrl: string | null;
  keyLast4: string;
  updatedAt: string;
}

export interface AiSettingsInput {
  provider: AiProvider;
  model: string;
  key: string;
  baseUrl?: string | undefined;
}

/** The port to encryption at rest (infra/secret-box.ts). */
export interface SecretSealer {
  seal(plaintext: string, owner: string): string;
  open(sealed: string, owner: string): string;
}

const userOwner = (userId: string) => `user:${userId}`;
const workspaceOwner = (workspaceId: string) => `workspace:${workspaceId}`;

/**
 * Each user's AI provider settings, and a workspace's shared ones set by its owner. A generation uses the caller's
 * own key when there is one, else the workspace's: a member's own key (and its bill) always comes first.
 */
export class AiSettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sealer: SecretSealer,
    /** Refuses a base URL the service may not call (address-guard.ts). */
    private readonly checkUrl: (url: string) => Promise<void>,
  ) {}

  async get(p: Principal): Promise<AiSettingsView | null> {
    requireScope(p, 'ai:generate');
    return this.view(userOwner(p.userId));
  }

  async set(p: Principal, input: AiSettingsInput): Promise<AiSettingsView> {
    requireScope(p, 'ai:generate');
    return this.save(userOwner(p.userId), p.userId, input);
  }

  async remove(p: Principal): Promise<void> {
    requireScope(p, 'ai:generate');
    await this.db.deleteFrom('ai_settings').where('owner', '=', userOwner(p.userId)).execute();
  }

  async getForWorkspace(p: Principal, workspaceId: string): Promise<AiSettingsView | null> {
    requireScope(p, 'ai:generate');
    await this.roleIn(p, workspaceId);
    return this.view(workspaceOwner(workspaceId));
  }

  async setForWorkspace(p: Principal, workspaceId: string, input: AiSettingsInput): Promise<AiSettingsView> {
    requireScope(p, 'ai:generate');
    await this.requireOwner(p, workspaceId);
    return this.save(workspaceOwner(workspaceId), p.userId, input);
  }

  async removeForWorkspace(p: Principal, workspaceId: string): Promise<void> {
    requireScope(p, 'ai:generate');
    await this.requireOwner(p, workspaceId);
    await this.db.deleteFrom('ai_settings').where('owner', '=', workspaceOwner(workspaceId)).execute();
  }

  /** For the CLI, which acts for a user by email. */
  async setForUser(userId: string, input: AiSettingsInput): Promise<AiSettingsView> {
    return this.save(userOwner(userId), userId, input);
  }

  /** The caller's own credentials only (the settings page's test), never a workspace's. */
  async ownCredentials(p: Principal): Promise<AiCredentials> {
    requireScope(p, 'ai:generate');
    const owner = userOwner(p.userId);
    const row = await this.db.selectFrom('ai_settings').selectAll().where('owner', '=', owner).executeTakeFirst();
    if (!row) throw new AppError('ai_not_configured', 'save a provider, model and key first');
    try {
      return { provider: row.provider as AiProvider, model: row.model, key: this.sealer.open(row.key_sealed, owner), baseUrl: row.base_url };
    } catch {
      throw new AppError('ai_not_configured', 'the saved AI key cannot be read with this server key (DRAWBRIDGE_SECRET changed?): save it again');
    }
  }

  /** The credentials a generation in `workspaceId` runs with: the caller's own, else the workspace's shared ones. */
  async credentialsFor(p: Principal, workspaceId: string): Promise<AiCredentials & { source: 'user' | 'workspace' }> {
    for (const [owner, source] of [
      [userOwner(p.userId), 'user'],
      [workspaceOwner(workspaceId), 'workspace'],
    ] as const) {
      const row = await this.db.selectFrom('ai_settings').selectAll().where('owner', '=', owner).executeTakeFirst();
      if (!row) continue;
      let key: string;
      try {
        key = this.sealer.open(row.key_sealed, owner);
      } catch {
        throw new AppError('ai_not_configured', 'the saved AI key cannot be read with this server key (DRAWBRIDGE_SECRET changed?): save it again with PUT /api-v1/me/ai');
      }
      return { provider: row.provider as AiProvider, model: row.model, key, baseUrl: row.base_url, source };
    }
    throw new AppError(
      'ai_not_configured',
      'no AI provider is set up for you or this workspace: save a provider, model and key with PUT /api-v1/me/ai ' +
        '(or `npx drawbridge ai set --email … --provider … --model … --key-file …`), or ask the workspace owner to share one',
    );
  }

  private async save(owner: string, userId: string, input: AiSettingsInput): Promise<AiSettingsView> {
    if (input.provider === 'openai-compatible' && !input.baseUrl) {
      throw new AppError('validation_failed', 'baseUrl is required for provider openai-compatible (e.g. http://localhost:11434/v1 for Ollama)');
    }
    if (input.baseUrl) await this.checkUrl(input.baseUrl);
    const row = {
      owner,
      provider: input.provider,
      model: input.model,
      base_url: input.baseUrl ?? null,
      key_sealed: this.sealer.seal(input.key, owner),
      key_last4: input.key.slice(-4),
      updated_at: nowIso(),
      updated_by: userId,
    };
    await this.db
      .insertInto('ai_settings')
      .values(row)
      .onConflict((oc) => oc.column('owner').doUpdateSet(row))
      .execute();
    return (await this.view(owner))!;
  }

  private async view(owner: string): Promise<AiSettingsView | null> {
    const row = await this.db.selectFrom('ai_settings').select(['provider', 'model', 'base_url', 'key_last4', 'updated_at']).where('owner', '=', owner).executeTakeFirst();
    return row ? { provider: row.provider as AiProvider, model: row.model, baseUrl: row.base_url, keyLast4: row.key_last4, updatedAt: row.updated_at } : null;
  }

  /** Not a member (or a token pinned elsewhere) is the same 404 as a workspace that does not exist. */
  private async roleIn(p: Principal, workspaceId: string): Promise<string> {
    const membership =
      p.workspaceId === null || p.workspaceId === workspaceId
        ? await this.db.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', p.userId).executeTakeFirst()
        : undefined;
    if (!membership) throw new AppError('not_found', `workspace ${workspaceId} not found`);
    return membership.role;
  }

  private async requireOwner(p: Principal, workspaceId: string): Promise<void> {
    const role = await this.roleIn(p, workspaceId);
    if (role !== 'owner') throw new AppError('forbidden', `your role in workspace ${workspaceId} is ${role}; only an owner can share an AI key with it`);
  }
}
