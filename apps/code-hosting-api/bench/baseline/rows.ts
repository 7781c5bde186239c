/**
 * What the baseline's handlers share: the rows as row_to_json writes them, mapped to the service's
 * records, and the SQL of the caller (its token and account) and of an organization's visibility.
 */
import { createHash } from 'node:crypto';
import type { AccountRecord, TeamRecord } from '../../src/domain/records';

export type Json = Record<string, unknown>;

/** An accounts row as row_to_json writes it. */
export function accountOf(row: Json): AccountRecord {
  return {
    id: Number(row['id']),
    name: row['name'] as string,
    lowerName: row['lower_name'] as string,
    fullName: row['full_name'] as string,
    email: row['email'] as string,
    type: row['type'] as AccountRecord['type'],
    visibility: row['visibility'] as AccountRecord['visibility'],
    description: row['description'] as string,
    website: row['website'] as string,
    location: row['location'] as string,
    isAdmin: row['is_admin'] as boolean,
    isActive: row['is_active'] as boolean,
    allowCreateOrganization: row['allow_create_organization'] as boolean,
    repoAdminChangeTeamAccess: row['repo_admin_change_team_access'] as boolean,
    lastLoginAt: row['last_login_at'] ? new Date(row['last_login_at'] as string) : undefined,
    createdAt: new Date(row['created_at'] as string),
    updatedAt: new Date(row['updated_at'] as string),
  };
}

export function teamOf(row: Json): TeamRecord {
  return {
    id: Number(row['id']),
    orgId: Number(row['org_id']),
    name: row['name'] as string,
    description: row['description'] as string,
    permission: row['permission'] as TeamRecord['permission'],
    canCreateOrgRepo: row['can_create_org_repo'] as boolean,
    includesAllRepositories: row['includes_all_repositories'] as boolean,
  };
}

/** The caller's account and token, found by the token's hash, its last use recorded ($1). */
// The token and its account. The service writes a token's last use at most once a minute, after
// the response (src/domain/token-use.ts): under load that is no work per request, so none here.
export const CALLER_CTE = `caller AS (
    SELECT row_to_json(a) AS account, t.scopes FROM access_tokens t JOIN accounts a ON a.id = t.account_id
    WHERE t.token_hash = $1 AND a.type = 'user' AND a.is_active
  )`;
/** Whether the caller is in a team of organization `o`. */
export const CALLER_MEMBER_OF = (
  org: string,
) => `EXISTS (SELECT 1 FROM teams t JOIN team_members m ON m.team_id = t.id
    WHERE t.org_id = ${org}.id AND m.account_id = (SELECT (account->>'id')::bigint FROM caller))`;
/** accessOf's visibility as SQL over organization `o` (Gitea's SearchUsers with an actor). */
export const VISIBLE_ORG = `(o.visibility = 'public' OR EXISTS (SELECT 1 FROM caller c
    WHERE NOT (',' || c.scopes || ',' LIKE '%,public-only,%')
      AND ((c.account->>'is_admin')::boolean OR o.visibility = 'limited'
           OR (o.visibility = 'private' AND ${CALLER_MEMBER_OF('o')}))))`;

export interface CallerRow {
  caller: { account: Json; scopes: string } | null;
}

export function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
