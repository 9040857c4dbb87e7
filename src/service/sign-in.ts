import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.js';
import type { RateLimiter } from '../infra/rate-limit.js';
import type { Database } from '../infra/storage/schema.js';
import type { AccountService } from './accounts.js';
import { spend } from './admission.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { Session, SessionService } from './sessions.js';

/** Attempts per account and per client address in a window, successful ones included. */
export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
}
export const SIGN_IN_LIMITS: SignInLimits = { perAccount: 10, perAddress: 50, windowSeconds: 15 * 60 };
export const PASSWORD_LENGTH = { min: 10, max: 200 } as const;

export interface SignInLimiters {
  account: RateLimiter;
  address: RateLimiter;
}

// Someone signing in as an unknown email pays the same scrypt as for a known one, so timing tells nothing.
const decoyHash = hashPassword('decoy password that matches nothing');

export function checkPasswordRules(password: string): void {
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
    throw new AppError('validation_failed', `a password has ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters; this one has ${password.length}`);
  }
}

/** First run, sign-in and passwords: the browser's way in, next to the CLI's. */
export class SignInService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accounts: AccountService,
    private readonly sessions: SessionService,
    private readonly limiters: SignInLimiters,
    private readonly limits: SignInLimits = SIGN_IN_LIMITS,
  ) {}

  /** Whether the install still waits for its first user (the setup page is open only then). */
  async needsSetup(): Promise<boolean> {
    return (await this.accounts.countUsers()) === 0;
  }

  /** Creates the owner and a workspace on an install without users, and signs them in. Refused once anyone exists. */
  async setUp(input: { email: string; name: string; password: string; workspaceName: string }): Promise<{ secret: string; session: Session }> {
    if (!(await this.needsSetup())) throw new AppError('not_found', 'this install is already set up: sign in instead');
    checkPasswordRules(input.password);
    const { userId } = await this.accounts.createUser({ ...input, workspaceName: input.workspaceName || undefined });
    // Two setup forms sent at once: the later one's user is removed again, so one owner remains.
    const first = await this.db.selectFrom('users').select('id').orderBy('created_at').orderBy('id').executeTakeFirstOrThrow();
    if (first.id !== userId) {
      await this.db.deleteFrom('users').where('id', '=', userId).execute();
      throw new AppError('not_found', 'this install was set up a moment ago by someone else: sign in instead');
    }
    return this.sessions.create(userId);
  }

  /** An account made through an invitation: no workspace of its own; signed in at once. */
  async register(input: { email: string; name: string; password: string }): Promise<{ secret: string; session: Session }> {
    checkPasswordRules(input.password);
    const { userId } = await this.accounts.createUser({ ...input, withWorkspace: false });
    return this.sessions.create(userId);
  }

  /**
   * Checks email and password, counting the attempt against the account and the client address first: past the
   * limit nothing is checked (429 rate_limited) until the window ends.
   */
  async signIn(input: { email: string; password: string; address: string }): Promise<{ secret: string; session: Session }> {
    const email = input.email.trim().toLowerCase();
    const over = (what: string) => (rate: { limit: number }) => `more than ${rate.limit} sign-in attempts ${what} in ${this.limits.windowSeconds / 60} minutes`;
    await spend(this.limiters.address, input.address, 1, over('from your address'));
    await spend(this.limiters.account, email, 1, over('for this account'));
    const user = await this.db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).executeTakeFirst();
    const ok = user?.password_hash ? await verifyPassword(input.password, user.password_hash) : (await verifyPassword(input.password, await decoyHash), false);
    if (!user || !ok) throw new AppError('unauthorized', 'the email or the password is not right', { reason: 'credentials' });
    return this.sessions.create(user.id);
  }

  /** Changes the password after checking the current one; every other session of the user ends. */
  async changePassword(input: { userId: string; current: string; next: string; keepSecret: string }): Promise<void> {
    const user = await this.db.selectFrom('users').select('password_hash').where('id', '=', input.userId).executeTakeFirstOrThrow();
    if (!user.password_hash || !(await verifyPassword(input.current, user.password_hash))) {
      throw new AppError('validation_failed', 'the current password is not right');
    }
    checkPasswordRules(input.next);
    await this.db.updateTable('users').set({ password_hash: await hashPassword(input.next) }).where('id', '=', input.userId).execute();
    await this.sessions.endOthers(input.userId, input.keepSecret);
  }
}
