import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.js';
import { canManageMembers, ROLES, type Role } from '../core/scopes.js';
import type { Database } from '../infra/storage/schema.js';
import type { AccountService } from './accounts.js';
import { newId, nowIso, randomBase62, sha256Hex } from './ids.js';

/** An invitation link is good for this long, and for one acceptance. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;
const INVITE_PATTERN = /^inv_[0-9A-Za-z]{32}$/;

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
}

export interface PendingInvite {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
}

/**
 * Workspace membership as people manage it: invitations by link (no mail server: the link is shown once to the
 * person who invites, who passes it on), role changes, removal and leaving. Only owners and admins manage; only an
 * owner grants or takes away the owner role; a workspace always keeps an owner (AccountService checks that).
 */
export class MemberService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accounts: AccountService,
  ) {}

  /** The caller's role; someone who is not a member gets the same 404 as for a workspace that does not exist. */
  async roleOf(userId: string, workspaceId: string): Promise<Role> {
    const row = await this.db.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new AppError('not_found', `workspace ${workspaceId} not found`);
    return row.role as Role;
  }

  async workspace(userId: string, workspaceId: string): Promise<{ id: string; name: string; role: Role }> {
    const role = await this.roleOf(userId, workspaceId);
    const row = await this.db.selectFrom('workspaces').select(['id', 'name']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
    return { ...row, role };
  }

  async list(userId: string, workspaceId: string): Promise<{ members: Member[]; invites: PendingInvite[] }> {
    const role = await this.roleOf(userId, workspaceId);
    const members = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.email', 'users.display_name', 'memberships.role'])
      .where('memberships.workspace_id', '=', workspaceId)
      .orderBy('users.email')
      .execute();
    const invites = canManageMembers(role)
      ? await this.db
          .selectFrom('invites')
          .select(['id', 'email', 'role', 'expires_at'])
          .where('workspace_id', '=', workspaceId)
          .where('accepted_at', 'is', null)
          .where('expires_at', '>', nowIso())
          .orderBy('created_at')
          .execute()
      : [];
    return {
      members: members.map((m) => ({ userId: m.id, email: m.email, name: m.display_name, role: m.role as Role })),
      invites: invites.map((i) => ({ id: i.id, email: i.email, role: i.role as Role, expiresAt: i.expires_at })),
    };
  }

  /** Makes an invitation; the link's secret is in the result only (its SHA-256 is stored). */
  async invite(actorId: string, input: { workspaceId: string; email: string; role: string }): Promise<{ token: string; email: string; role: Role; expiresAt: string }> {
    const role = parseRole(input.role);
    await this.assertMayGrant(actorId, input.workspaceId, role);
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new AppError('validation_failed', `"${input.email}" is not an email address`);
    const existing = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select('users.id')
      .where('memberships.workspace_id', '=', input.workspaceId)
      .where('users.email', '=', email)
      .executeTakeFirst();
    if (existing) throw new AppError('validation_failed', `${email} is already a member; change the role instead`);
    const token = `inv_${randomBase62(32)}`;
    const expiresAt = new Date(Date.now() + INVITE_TTL_MS).toISOString();
    await this.db
      .insertInto('invites')
      .values({ id: newId('invite'), token_hash: sha256Hex(token), workspace_id: input.workspaceId, email, role, created_by: actorId, created_at: nowIso(), expires_at: expiresAt, accepted_at: null })
      .execute();
    return { token, email, role, expiresAt };
  }

  /** What an invitation link is for, or not_found when unknown, used or expired (one message for all three). */
  async lookupInvite(token: string): Promise<{ id: string; email: string; role: Role; workspaceId: string; workspaceName: string }> {
    const gone = () => new AppError('not_found', 'this invitation link is not valid: it was used, it expired (after 7 days), or it was copied incompletely');
    if (!INVITE_PATTERN.test(token)) throw gone();
    const row = await this.db
      .selectFrom('invites')
      .innerJoin('workspaces', 'workspaces.id', 'invites.workspace_id')
      .select(['invites.id', 'invites.email', 'invites.role', 'invites.expires_at', 'invites.accepted_at', 'workspaces.id as workspaceId', 'workspaces.name as workspaceName'])
      .where('invites.token_hash', '=', sha256Hex(token))
      .executeTakeFirst();
    if (!row || row.accepted_at !== null || Date.parse(row.expires_at) <= Date.now()) throw gone();
    return { id: row.id, email: row.email, role: row.role as Role, workspaceId: row.workspaceId, workspaceName: row.workspaceName };
  }

  /** Joins the signed-in person to the invitation's workspace; the invitation names the email that may use it. */
  async accept(token: string, userId: string): Promise<{ workspaceId: string }> {
    const invite = await this.lookupInvite(token);
    const user = await this.accounts.getUser(userId);
    if (!user || user.email !== invite.email) {
      throw new AppError('forbidden', `this invitation is for ${invite.email}; you are signed in as ${user?.email ?? 'someone else'}`);
    }
    const claimed = await this.db.updateTable('invites').set({ accepted_at: nowIso() }).where('id', '=', invite.id).where('accepted_at', 'is', null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw new AppError('not_found', 'this invitation link was used a moment ago');
    const already = await this.db.selectFrom('memberships').select('role').where('workspace_id', '=', invite.workspaceId).where('user_id', '=', userId).executeTakeFirst();
    if (!already) await this.accounts.addMember({ workspaceId: invite.workspaceId, email: invite.email, role: invite.role });
    return { workspaceId: invite.workspaceId };
  }

  /** Withdraws a pending invitation, so its link stops working; the same rule as granting its role applies. */
  async withdrawInvite(actorId: string, input: { workspaceId: string; inviteId: string }): Promise<{ email: string }> {
    const invite = await this.db
      .selectFrom('invites')
      .select(['id', 'email', 'role'])
      .where('id', '=', input.inviteId)
      .where('workspace_id', '=', input.workspaceId)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    await this.assertMayGrant(actorId, input.workspaceId, (invite?.role ?? 'viewer') as Role);
    if (!invite) throw new AppError('not_found', `invitation ${input.inviteId} is not pending in this workspace: it was used or withdrawn`);
    await this.db.deleteFrom('invites').where('id', '=', invite.id).where('accepted_at', 'is', null).execute();
    return { email: invite.email };
  }

  async setRole(actorId: string, input: { workspaceId: string; email: string; role: string }): Promise<void> {
    const role = parseRole(input.role);
    await this.assertMayGrant(actorId, input.workspaceId, role);
    await this.assertMayChange(actorId, input.workspaceId, input.email);
    await this.accounts.setRole({ workspaceId: input.workspaceId, email: input.email, role });
  }

  async remove(actorId: string, input: { workspaceId: string; email: string }): Promise<void> {
    const actorRole = await this.roleOf(actorId, input.workspaceId);
    if (!canManageMembers(actorRole)) throw new AppError('forbidden', `only owners and admins manage members; you are ${article(actorRole)} here`);
    await this.assertMayChange(actorId, input.workspaceId, input.email);
    await this.accounts.removeMember(input);
  }

  /** Leaves a workspace; the last owner cannot (make someone else owner first). */
  async leave(userId: string, workspaceId: string): Promise<void> {
    const role = await this.roleOf(userId, workspaceId);
    const user = (await this.accounts.getUser(userId))!;
    if (role === 'owner') {
      const owners = await this.db.selectFrom('memberships').select('user_id').where('workspace_id', '=', workspaceId).where('role', '=', 'owner').execute();
      if (owners.length === 1) throw new AppError('validation_failed', 'you are the last owner of this workspace: make someone else owner before you leave');
    }
    await this.accounts.removeMember({ workspaceId, email: user.email });
  }

  private async assertMayGrant(actorId: string, workspaceId: string, role: Role): Promise<void> {
    const actorRole = await this.roleOf(actorId, workspaceId);
    if (!canManageMembers(actorRole)) throw new AppError('forbidden', `only owners and admins manage members; you are ${article(actorRole)} here`);
    if (role === 'owner' && actorRole !== 'owner') throw new AppError('forbidden', 'only an owner can make someone an owner');
  }

  /** An admin changes editors, viewers, guests and other admins, never an owner. */
  private async assertMayChange(actorId: string, workspaceId: string, email: string): Promise<void> {
    const actorRole = await this.roleOf(actorId, workspaceId);
    const target = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select('memberships.role')
      .where('memberships.workspace_id', '=', workspaceId)
      .where('users.email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    if (!target) throw new AppError('not_found', `${email} is not a member of this workspace`);
    if (target.role === 'owner' && actorRole !== 'owner') throw new AppError('forbidden', 'only an owner can change or remove an owner');
  }
}

function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw new AppError('validation_failed', `role must be one of ${ROLES.join(', ')}, not "${value}"`);
  return value as Role;
}

const article = (role: Role) => (role === 'owner' || role === 'admin' || role === 'editor' ? `an ${role}` : `a ${role}`);
