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

/** What a statement needs to look the request's token up: its hash as stored, and the operation's need. */
export interface TokenLookup {
  hash: string;
  need: TokenNeed;
}

/**
 * The request's token, not yet looked up, for an operation that looks it up in its own statement.
 * `accept` decides on what that statement found as authentication and the operation's scope check
 * would: the caller, or undefined when either would refuse (or nothing was found), and the usual
 * path then looks the token up and answers with the refusal.
 */
export interface TokenCredential extends TokenLookup {
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

/**
 * The caller of a one-statement write made with the request's token, and what it wrote. The token
 * is accepted even when nothing was written (the usual path then needs no lookup of its own);
 * undefined when nothing was. The statement's guard is the rules in SQL, so a write for a token
 * they refuse is a bug: an error (500), never an answer.
 */
export function writtenWithToken<Written>(
  token: TokenCredential,
  found: TokenFacts | undefined,
  written: Written | undefined,
  what: string,
): { caller: Caller; written: Written } | undefined {
  const caller = token.accept(found);
  if (written === undefined) return undefined;
  if (!caller) throw new Error(`${what} wrote for a token its rules refuse`);
  return { caller, written };
}
