import type { TokenFacts, TokenLookup } from '../domain/token-caller';
import { grantingScopes } from '../domain/token-scopes';
import { Prisma } from '../generated/prisma/client';
import { ACCOUNT_COLUMNS } from './account-store';
import { toAccount, type AccountRow, type Int8 } from './row-mappers';

// The request's token looked up by the statement of the operation itself (domain/token-caller.ts):
// a WITH item for its guard, and the token's row among the statement's rows (a UNION ALL of
// account rows, the token's caller first), for the domain to decide on.

/** A token as a statement's WITH item looks it up: its hash, and the scopes that grant the operation. */
export type TokenArgs = { tokenHash: string; granting: string[] };

/** The statement's values of the request's token, for the operation's need. */
export function tokenArgs(token: TokenLookup): TokenArgs {
  return { tokenHash: token.hash, granting: grantingScopes(token.need.category, token.need.mode) };
}

/**
 * WITH item `token_caller`: the token of that hash and its account, when the account may
 * authenticate (a user's, active), with what a guard asks of it: `granted` (its scopes include one
 * of `granting`: the operation's, from the route that runs it), `public_only`, `site_admin` (an
 * administrator, not through a public-only token).
 */
export function tokenCallerCte(args: TokenArgs): Prisma.Sql {
  return Prisma.sql`token_caller AS (
      SELECT t.id AS token_id, t.scopes, a.id AS account_id, a.allow_create_organization,
        string_to_array(t.scopes, ',') && ${args.granting}::text[] AS granted,
        'public-only' = ANY (string_to_array(t.scopes, ',')) AS public_only,
        a.is_admin AND NOT 'public-only' = ANY (string_to_array(t.scopes, ',')) AS site_admin
      FROM access_tokens t JOIN accounts a ON a.id = t.account_id
      WHERE t.token_hash = ${args.tokenHash} AND a.type = 'user' AND a.is_active
    )`;
}

/**
 * The token's row: its account's columns after `role` 'caller', `tokenId` and `scopes`; `extra`
 * is the statement's own columns (as nulls) after them. Its other rows start with their role and
 * NOT_CALLER.
 */
export function tokenCallerRow(extra: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`SELECT 'caller' AS "role", tc.token_id AS "tokenId", tc.scopes AS "scopes", ${ACCOUNT_COLUMNS}${extra}
    FROM token_caller tc JOIN accounts a ON a.id = tc.account_id`;
}

/** A row other than the token's: no token columns. */
export const NOT_CALLER = Prisma.sql`NULL::bigint AS "tokenId", NULL::text AS "scopes"`;

export type TokenCallerRow = AccountRow & { role: string; tokenId: Int8 | null; scopes: string | null };

/** The token's facts from the statement's rows; undefined when it found none (or none it may use). */
export function tokenFactsOf(rows: readonly TokenCallerRow[]): TokenFacts | undefined {
  const row = rows.find((candidate) => candidate.role === 'caller');
  if (!row) return undefined;
  return {
    tokenId: Number(row.tokenId),
    scopes: (row.scopes ?? '').split(',').filter(Boolean),
    account: toAccount(row),
  };
}
