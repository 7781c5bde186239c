import type { Caller } from './caller';
import type { AccountRecord } from './records';
import { isPublicOnly, type ScopeCategory } from './token-scopes';

// A token looked up by the statement of the operation itself: the common request (a token, an
// allowed operation) costs one statement instead of the token's own and then the operation's. The
// statement returns what it found of the token; the rules below decide on it exactly as when the
// token is looked up first, and anything they would refuse takes that usual path, which answers.

/** What a statement that looked the request's token up found of it. */
export interface TokenFacts {
  tokenId: number;
  scopes: string[];
  /** The token's account. */
  account: AccountRecord;
}

/** The operation's need of a token: its scope category, read or write. */
export interface TokenNeed {
  category: ScopeCategory;
  mode: 'read' | 'write';
}

/**
 * The request's token, not yet looked up, for an operation that looks it up in its own statement.
 * `accept` decides on what that statement found as authentication and the operation's scope check
 * would: the caller, or undefined when either would refuse (or nothing was found), and the usual
 * path then looks the token up and answers with the refusal.
 */
export interface TokenCredential {
  /** The token's hash, as stored. */
  hash: string;
  need: TokenNeed;
  accept(facts: TokenFacts | undefined): Caller | undefined;
}

/** Whether a token's account may authenticate with it: a user's, active (Gitea refuses the others). */
export function tokenAccountUsable(account: AccountRecord): boolean {
  return account.type === 'user' && account.isActive;
}

/** The caller a token makes. */
export function callerOfToken(facts: Pick<TokenFacts, 'account' | 'scopes'>): Caller {
  return { user: facts.account, publicOnly: isPublicOnly(facts.scopes) };
}
