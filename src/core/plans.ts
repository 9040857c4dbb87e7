/**
 * Editions and plans, as the specification states them: "API and MCP are available to users on the Pro and
 * Enterprise plans. On self-hosted installations every signed-in member may use them. Free users and guests cannot
 * create tokens."
 */
export const EDITIONS = ['self-hosted', 'hosted'] as const;
export type Edition = (typeof EDITIONS)[number];

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** What decides whether an account may hold working API tokens. */
export interface ApiAccount {
  plan: string;
  /** Whether the account has any role other than `guest` (a guest-only account is someone else's visitor). */
  member: boolean;
}

export type ApiAccess = { allowed: true } | { allowed: false; reason: string };

export function apiAccess(edition: Edition, account: ApiAccount): ApiAccess {
  if (!account.member) {
    return { allowed: false, reason: 'guests cannot use the API or MCP: ask a workspace owner to make you a member (viewer or above)' };
  }
  if (edition === 'hosted' && account.plan !== 'pro' && account.plan !== 'enterprise') {
    return { allowed: false, reason: `the API and MCP are part of the Pro and Enterprise plans; this account is on the ${account.plan} plan` };
  }
  return { allowed: true };
}
