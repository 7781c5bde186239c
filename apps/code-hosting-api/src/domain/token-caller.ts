import type { Caller } from './caller';
import type { AccountRecord } from './records';
import { isPublicOnly } from './token-scopes';

// The caller a token makes, whoever looked the token up (authentication and the account rules).

/** Whether a token's account may authenticate with it: a user's, active (Gitea refuses the others). */
export function tokenAccountUsable(account: AccountRecord): boolean {
  return account.type === 'user' && account.isActive;
}

/** The caller a token makes. */
export function callerOfToken(facts: { account: AccountRecord; scopes: string[] }): Caller {
  return { user: facts.account, publicOnly: isPublicOnly(facts.scopes) };
}
