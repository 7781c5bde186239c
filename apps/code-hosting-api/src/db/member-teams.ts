import { Prisma } from '../generated/prisma/client';
import type { TeamRow } from './row-mappers';

// The caller's teams in an organization, as a guarded statement reads them (the organization
// edit's and the attachment rename's): a WITH item its guard asks, returned as JSON for the domain
// to decide on again.

/** A team as MEMBER_TEAMS_JSON gives it: what toTeam reads. */
export type MemberTeamJson = Omit<TeamRow, 'lowerName' | 'createdAt'>;

/** WITH item `member_teams`: the teams of organization `orgId` that `memberId` is in (none for a null member). */
export function memberTeamsCte(orgId: Prisma.Sql, memberId: unknown): Prisma.Sql {
  return Prisma.sql`member_teams AS (
      SELECT t.id, t.org_id AS "orgId", t.name, t.description, t.permission,
        t.can_create_org_repo AS "canCreateOrgRepo", t.includes_all_repositories AS "includesAllRepositories"
      FROM teams t
      WHERE t.org_id = ${orgId}
        AND EXISTS (SELECT FROM team_members m WHERE m.team_id = t.id AND m.account_id = ${memberId}::bigint)
    )`;
}

/** The member_teams as one JSON array, by id. */
export const MEMBER_TEAMS_JSON = Prisma.sql`(SELECT coalesce(json_agg(mt ORDER BY mt.id), '[]') FROM member_teams mt)`;
