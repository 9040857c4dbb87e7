import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.js';
import { PLANS, type Plan } from '../core/plans.js';
import type { Role } from '../core/scopes.js';
import type { Database } from '../infra/storage/schema.js';
import { newId, nowIso } from './ids.js';
import { hashPassword } from './passwords.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class AccountService {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Creates a user and, by default, a workspace the user owns, in one transaction. `withWorkspace: false` (someone
   * joining through an invitation) creates the account alone; `workspaceId` is then empty.
   */
  async createUser(input: { email: string; name?: string | undefined; password?: string | undefined; workspaceName?: string | undefined; withWorkspace?: boolean }): Promise<{ userId: string; workspaceId: string }> {
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
      if (input.withWorkspace === false) return { userId, workspaceId: '' };
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
    await this.requireWorkspace(input.workspaceId);
    if (await this.roleOf(input.workspaceId, userId)) throw new AppError('validation_failed', `${input.email} is already a member of ${input.workspaceId}; change the role instead`);
    await this.db
      .insertInto('memberships')
      .values({ workspace_id: input.workspaceId, user_id: userId, role: input.role, created_at: nowIso() })
      .execute();
  }

  /** Changes a member's role; a workspace always keeps an owner. */
  async setRole(input: { workspaceId: string; email: string; role: Role }): Promise<void> {
    const userId = await this.memberId(input.workspaceId, input.email);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('memberships').set({ role: input.role }).where('workspace_id', '=', input.workspaceId).where('user_id', '=', userId).execute();
      await assertOwned(trx, input.workspaceId);
    });
  }

  /** Removes a member (their tokens then see nothing of the workspace); a workspace always keeps an owner. */
  async removeMember(input: { workspaceId: string; email: string }): Promise<void> {
    const userId = await this.memberId(input.workspaceId, input.email);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('memberships').where('workspace_id', '=', input.workspaceId).where('user_id', '=', userId).execute();
      await assertOwned(trx, input.workspaceId);
    });
  }

  /** Every account with its workspaces and roles, for operators. */
  async listUsers(): Promise<Array<{ id: string; email: string; name: string; createdAt: string; workspaces: Array<{ id: string; name: string; role: Role }> }>> {
    const users = await this.db.selectFrom('users').select(['id', 'email', 'display_name', 'created_at']).orderBy('created_at').orderBy('id').execute();
    const memberships = await this.db
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select(['memberships.user_id', 'workspaces.id', 'workspaces.name', 'memberships.role'])
      .orderBy('workspaces.name')
      .execute();
    return users.map((u) => ({
      id: u.id,
      email: u.email,
      name: u.display_name,
      createdAt: u.created_at,
      workspaces: memberships.filter((m) => m.user_id === u.id).map((m) => ({ id: m.id, name: m.name, role: m.role as Role })),
    }));
  }

  private async requireWorkspace(workspaceId: string): Promise<void> {
    const found = await this.db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst();
    if (!found) throw new AppError('not_found', `workspace ${workspaceId} not found`);
  }

  private async roleOf(workspaceId: string, userId: string): Promise<Role | undefined> {
    const row = await this.db.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
    return row?.role as Role | undefined;
  }

  private async memberId(workspaceId: string, email: string): Promise<string> {
    const userId = await this.userIdByEmail(email);
    await this.requireWorkspace(workspaceId);
    if (!(await this.roleOf(workspaceId, userId))) throw new AppError('not_found', `${email} is not a member of ${workspaceId}`);
    return userId;
  }

  async getUser(userId: string): Promise<{ id: string; email: string; name: string; plan: string } | undefined> {
    const row = await this.db.selectFrom('users').select(['id', 'email', 'display_name', 'plan']).where('id', '=', userId).executeTakeFirst();
    return row && { id: row.id, email: row.email, name: row.display_name, plan: row.plan };
  }

  async userIdByEmail(email: string): Promise<string> {
    const row = await this.db.selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
    if (!row) throw new AppError('not_found', `no user with email ${email}`);
    return row.id;
  }

  /** The operator's switch for the hosted edition (CLI `user plan`); a fall to free stops the account's tokens at once. */
  async setPlan(input: { email: string; plan: Plan }): Promise<{ userId: string; plan: Plan }> {
    if (!(PLANS as readonly string[]).includes(input.plan)) throw new AppError('validation_failed', `plan must be one of ${PLANS.join(', ')}, not "${input.plan}"`);
    const userId = await this.userIdByEmail(input.email);
    await this.db.updateTable('users').set({ plan: input.plan }).where('id', '=', userId).execute();
    return { userId, plan: input.plan };
  }

  async countUsers(): Promise<number> {
    const row = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** Inside the transaction that changed memberships: rolls it back when no owner would be left. */
async function assertOwned(db: Kysely<Database>, workspaceId: string): Promise<void> {
  const owner = await db.selectFrom('memberships').select('user_id').where('workspace_id', '=', workspaceId).where('role', '=', 'owner').executeTakeFirst();
  if (!owner) throw new AppError('validation_failed', `workspace ${workspaceId} would have no owner left; make someone else owner first`);
}

async function insertWorkspace(db: Kysely<Database>, userId: string, name: string, role: Role): Promise<string> {
  const workspaceId = newId('workspace');
  const createdAt = nowIso();
  await db.insertInto('workspaces').values({ id: workspaceId, name, created_at: createdAt }).execute();
  await db.insertInto('memberships').values({ workspace_id: workspaceId, user_id: userId, role, created_at: createdAt }).execute();
  return workspaceId;
}
