import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.js';
import type { Role } from '../core/scopes.js';
import type { Database } from '../infra/storage/schema.js';
import { newId, nowIso } from './ids.js';
import { hashPassword } from './passwords.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class AccountService {
  constructor(private readonly db: Kysely<Database>) {}

  /** Creates a user and, by default, a workspace the user owns, in one transaction. */
  async createUser(input: { email: string; name?: string; password?: string; workspaceName?: string }): Promise<{ userId: string; workspaceId: string }> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw new AppError('validation_failed', `email "${input.email}" is not an email address`);
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (existing) throw new AppError('validation_failed', `a user with email ${email} already exists`);
      const userId = newId('user');
      const createdAt = nowIso();
      await trx
        .insertInto('users')
        .values({ id: userId, email, display_name: input.name?.trim() || email.split('@')[0]!, password_hash: passwordHash, created_at: createdAt })
        .execute();
      const workspaceId = await insertWorkspace(trx, userId, input.workspaceName?.trim() || `${input.name?.trim() || email.split('@')[0]}'s workspace`, 'owner');
      return { userId, workspaceId };
    });
  }

  async createWorkspace(input: { email: string; name: string }): Promise<{ workspaceId: string }> {
    const userId = await this.userIdByEmail(input.email);
    const workspaceId = await this.db.transaction().execute((trx) => insertWorkspace(trx, userId, input.name, 'owner'));
    return { workspaceId };
  }

  async addMember(input: { workspaceId: string; email: string; role: Role }): Promise<void> {
    const userId = await this.userIdByEmail(input.email);
    await this.db
      .insertInto('memberships')
      .values({ workspace_id: input.workspaceId, user_id: userId, role: input.role, created_at: nowIso() })
      .execute();
  }

  async userIdByEmail(email: string): Promise<string> {
    const row = await this.db.selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
    if (!row) throw new AppError('not_found', `no user with email ${email}`);
    return row.id;
  }

  async countUsers(): Promise<number> {
    const row = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

async function insertWorkspace(db: Kysely<Database>, userId: string, name: string, role: Role): Promise<string> {
  const workspaceId = newId('workspace');
  const createdAt = nowIso();
  await db.insertInto('workspaces').values({ id: workspaceId, name, created_at: createdAt }).execute();
  await db.insertInto('memberships').values({ workspace_id: workspaceId, user_id: userId, role, created_at: createdAt }).execute();
  return workspaceId;
}
