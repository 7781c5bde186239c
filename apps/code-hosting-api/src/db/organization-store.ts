import type { AccountChanges, NewAccount } from '../domain/account-store';
import type { TeamInsert, OrganizationFilter, OrganizationStore } from '../domain/organization-store';
import type { Visibility } from '../domain/records';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { ACCOUNT_COLUMNS, renameAccountRow, updateAccountRow } from './account-store';
import { writeRecorded, type ChangeLog } from './change-log';
import { fixedStatement, prepared } from './prepared-statements';
import { toAccount, toTeam, type AccountRow, type TeamRow } from './row-mappers';
import type { StoreDatabase } from './store-database';
import { memberTeamsCte, MEMBER_TEAMS_JSON, type MemberTeamJson } from './member-teams';
import { unlessNameTaken, unlessRecordGone, unlessUnstorable } from './write-outcome';

function teamData(team: TeamInsert) {
  return {
    orgId: BigInt(team.orgId),
    name: team.name,
    lowerName: team.name.toLowerCase(),
    description: team.description,
    permission: team.permission,
    canCreateOrgRepo: team.canCreateOrgRepo,
    includesAllRepositories: team.includesAllRepositories,
  };
}

const withTeamMember = (userId: number): Prisma.AccountWhereInput => ({
  teams: { some: { members: { some: { accountId: BigInt(userId) } } } },
});

/** Organizations the filter selects: visible under its scope, and with its member when it names one. */
function organizationCondition({ visibleTo, withMember }: OrganizationFilter): Prisma.AccountWhereInput {
  const visible: Prisma.AccountWhereInput[] = [{ visibility: { in: visibleTo.visibilities } }];
  if (visibleTo.memberId !== undefined && visibleTo.memberVisibilities.length) {
    visible.push({
      visibility: { in: visibleTo.memberVisibilities },
      ...withTeamMember(visibleTo.memberId),
    });
  }
  return {
    type: 'organization',
    AND: [{ OR: visible }, ...(withMember === undefined ? [] : [withTeamMember(withMember)])],
  };
}

/**
 * How many organizations the filter selects (every list's X-Total-Count). Those visible to all under
 * the scope are counted from the index on (type, visibility) alone; the member's private ones from
 * its memberships. One condition with the membership test under an OR made PostgreSQL read every
 * organization's row: 5 ms at 10,000 organizations, most of a first page's time.
 */
async function countOrganizations(prisma: PrismaClient, filter: OrganizationFilter): Promise<number> {
  // A member's organizations: few, found from its memberships.
  if (filter.withMember !== undefined) return prisma.account.count({ where: organizationCondition(filter) });
  const { visibilities, memberId, memberVisibilities } = filter.visibleTo;
  const rows = await prisma.$queryRaw<{ total: bigint }[]>(
    prepared(
      'organizations_count',
      Prisma.sql`
    SELECT (SELECT count(*) FROM accounts
            WHERE type = 'organization' AND visibility = ANY(${visibilities}::text[]))
      + (SELECT count(DISTINCT t.org_id) FROM team_members m
         JOIN teams t ON t.id = m.team_id
         JOIN accounts o ON o.id = t.org_id
         WHERE m.account_id = ${memberId === undefined ? null : BigInt(memberId)}::bigint
           AND o.type = 'organization' AND o.visibility = ANY(${memberVisibilities}::text[])
           AND NOT o.visibility = ANY(${visibilities}::text[])) AS total`,
    ),
  );
  return Number(rows[0]!.total);
}

/** A user's teams in an organization: every access decision on an organization asks it. */
const TEAMS_OF_MEMBER = fixedStatement<{ orgId: number; userId: number }>(
  'teams_of_member',
  (arg) => Prisma.sql`
    SELECT t.id AS "id", t.org_id AS "orgId", t.name AS "name", t.lower_name AS "lowerName",
      t.description AS "description", t.permission AS "permission",
      t.can_create_org_repo AS "canCreateOrgRepo",
      t.includes_all_repositories AS "includesAllRepositories", t.created_at AS "createdAt"
    FROM teams t
    WHERE t.org_id = ${arg('orgId')}::bigint
      AND EXISTS (SELECT FROM team_members m WHERE m.team_id = t.id AND m.account_id = ${arg('userId')}::bigint)
    ORDER BY t.id`,
);

/** An organization's fields and its first team's, as its creation's statements take them. */
type OrganizationInsertArgs = {
  name: string;
  lowerName: string;
  fullName: string | null;
  email: string | null;
  visibility: string | null;
  description: string | null;
  website: string | null;
  location: string | null;
  repoAdminChangeTeamAccess: boolean | null;
  teamName: string;
  teamDescription: string;
  teamPermission: string;
  teamCanCreateOrgRepo: boolean;
  teamIncludesAllRepositories: boolean;
};

/**
 * WITH items that create the organization `created`, its first team and that team's one member,
 * the `account_id` of `creator` (a WITH item given: one row, or none and nothing is created). A
 * field not given takes its column's default (the migration's), as Prisma's create did.
 */
function organizationInserts(args: OrganizationInsertArgs, creator: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`creator AS (${creator}), created AS (
      INSERT INTO accounts (name, lower_name, type, full_name, email, visibility, description, website,
        location, repo_admin_change_team_access)
      SELECT ${args.name}, ${args.lowerName}, 'organization',
        coalesce(${args.fullName}::text, ''), coalesce(${args.email}::text, ''),
        coalesce(${args.visibility}::text, 'public'), coalesce(${args.description}::text, ''),
        coalesce(${args.website}::text, ''), coalesce(${args.location}::text, ''),
        coalesce(${args.repoAdminChangeTeamAccess}::boolean, false)
      FROM creator
      RETURNING *
    ), team AS (
      INSERT INTO teams (org_id, name, lower_name, description, permission, can_create_org_repo,
        includes_all_repositories)
      SELECT c.id, ${args.teamName}, lower(${args.teamName}), ${args.teamDescription},
        ${args.teamPermission}, ${args.teamCanCreateOrgRepo}::boolean,
        ${args.teamIncludesAllRepositories}::boolean
      FROM created c
      RETURNING id
    ), member AS (
      INSERT INTO team_members (team_id, account_id) SELECT team.id, creator.account_id FROM team, creator
    )`;
}

/** An organization, its first team and that team's one member, in one statement (before: a transaction of Prisma's creates, seven statements). */
const CREATE_ORGANIZATION = fixedStatement<OrganizationInsertArgs & { memberId: number }>(
  'organization_create',
  (arg, args) => Prisma.sql`
    WITH ${organizationInserts(args, Prisma.sql`SELECT ${arg('memberId')}::bigint AS account_id`)}
    SELECT ${ACCOUNT_COLUMNS} FROM created a`,
);

/** The statement's values of an organization's fields and its first team's. */
function organizationInsertValues(
  account: NewAccount,
  team: Omit<TeamInsert, 'orgId'>,
): OrganizationInsertArgs {
  return {
    name: account.name,
    lowerName: account.name.toLowerCase(),
    fullName: account.fullName ?? null,
    email: account.email ?? null,
    visibility: account.visibility ?? null,
    description: account.description ?? null,
    website: account.website ?? null,
    location: account.location ?? null,
    repoAdminChangeTeamAccess: account.repoAdminChangeTeamAccess ?? null,
    teamName: team.name,
    teamDescription: team.description,
    teamPermission: team.permission,
    teamCanCreateOrgRepo: team.canCreateOrgRepo,
    teamIncludesAllRepositories: team.includesAllRepositories,
  };
}

/** Null for a field the edit leaves as it is. */
type EditOrganizationArgs = {
  [Field in keyof Required<OrganizationChanges>]: OrganizationChanges[Field] | null;
} & { id: number; now: Date };
type OrganizationChanges = Pick<
  AccountChanges,
  'fullName' | 'email' | 'description' | 'website' | 'location' | 'visibility' | 'repoAdminChangeTeamAccess'
>;

/** The edit's SET list over accounts `a`: each field given, the others as they are. */
function editAssignments(args: Omit<EditOrganizationArgs, 'id'>): Prisma.Sql {
  return Prisma.sql`full_name = coalesce(${args.fullName}::text, a.full_name),
      email = coalesce(${args.email}::text, a.email),
      description = coalesce(${args.description}::text, a.description),
      website = coalesce(${args.website}::text, a.website),
      location = coalesce(${args.location}::text, a.location),
      visibility = coalesce(${args.visibility}::text, a.visibility),
      repo_admin_change_team_access = coalesce(${args.repoAdminChangeTeamAccess}::boolean, a.repo_admin_change_team_access),
      updated_at = ${args.now}::timestamptz`;
}

/** PATCH /orgs/{org}'s write: the fields given, the rest as they are; the organization after. */
const EDIT_ORGANIZATION = fixedStatement<EditOrganizationArgs>(
  'organization_edit',
  (arg, args) => Prisma.sql`
    UPDATE accounts a
    SET ${editAssignments(args)}
    WHERE a.id = ${arg('id')}::bigint
    RETURNING ${ACCOUNT_COLUMNS}`,
);

/** The guard of a one-statement edit: who the caller is, and what the rule lets them change. */
type EditGuardArgs = {
  siteAdmin: boolean;
  memberId: number | null;
  visibilityChangeAllowed: boolean;
};

type EditTargetArgs = Omit<EditOrganizationArgs, 'id'> & { lowerName: string };

/**
 * PATCH /orgs/{org} checked and made in one statement: the organization, the teams there of the
 * guard's member, and an UPDATE that writes only when the rule allows it, in SQL: the guard's site
 * administrator, or its member in an owner-level team; a visibility change only when the guard
 * allows it. `guard` is a WITH item of one row (site_admin, member_id, visibility_change_allowed),
 * or none and nothing is written. The organization after, with its visibility before and the
 * member's teams, for the domain to decide on again.
 */
function guardedEdit(args: EditTargetArgs, guard: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    WITH ${guard}, o AS (
      SELECT id, visibility FROM accounts WHERE lower_name = ${args.lowerName} AND type = 'organization'
    ), ${memberTeamsCte(Prisma.sql`(SELECT id FROM o)`, Prisma.sql`(SELECT member_id FROM guard)`)}, updated AS (
      UPDATE accounts a
      SET ${editAssignments(args)}
      FROM o, guard g
      WHERE a.id = o.id
        AND (g.site_admin OR EXISTS (SELECT FROM member_teams WHERE permission = 'owner'))
        AND (${args.visibility}::text IS NULL OR ${args.visibility}::text = o.visibility
          OR g.visibility_change_allowed)
      RETURNING ${ACCOUNT_COLUMNS}
    )
    SELECT u.*, (SELECT visibility FROM o) AS "previousVisibility",
      ${MEMBER_TEAMS_JSON} AS "memberTeams"
    FROM updated u`;
}

/** The guarded edit for a caller already known (a public-only token's memberId is null: it owns nothing). */
const EDIT_ORGANIZATION_GUARDED = fixedStatement<EditGuardArgs & EditTargetArgs>(
  'organization_edit_guarded',
  (arg, args) =>
    guardedEdit(
      args,
      Prisma.sql`guard AS (
        SELECT ${arg('siteAdmin')}::boolean AS site_admin, ${arg('memberId')}::bigint AS member_id,
          ${arg('visibilityChangeAllowed')}::boolean AS visibility_change_allowed
      )`,
    ),
);

type GuardedEditRow = AccountRow & {
  previousVisibility: string | null;
  memberTeams: MemberTeamJson[] | null;
};

/** The guarded edit's organization row: what was written, with what the domain decides on again. */
function guardedEditOf(rows: readonly GuardedEditRow[]) {
  const [row] = rows;
  return (
    row && {
      organization: toAccount(row),
      previousVisibility: row.previousVisibility as Visibility,
      memberTeams: (row.memberTeams ?? []).map(toTeam),
    }
  );
}

/** Organizations and their teams; `changes` records the organizations' change events (when on). */
export function organizationStore({ prisma, query }: StoreDatabase, changes?: ChangeLog): OrganizationStore {
  return {
    /** Creates the organization with the team the domain describes holding its creator. */
    async createOrganization(account, owners) {
      if (!changes) {
        const { team, memberId } = owners;
        return unlessNameTaken(async () => {
          const [row] = await query<AccountRow>(
            CREATE_ORGANIZATION.bind({ ...organizationInsertValues(account, team), memberId }),
          );
          return toAccount(row!);
        });
      }
      return unlessNameTaken(() =>
        prisma.$transaction(async (tx) => {
          const row = await tx.account.create({
            data: { ...account, lowerName: account.name.toLowerCase() },
          });
          await tx.team.create({
            data: {
              ...teamData({ ...owners.team, orgId: Number(row.id) }),
              members: { create: { accountId: BigInt(owners.memberId) } },
            },
          });
          const org = toAccount(row);
          await changes?.organizationCreated(tx, org);
          return org;
        }),
      );
    },

    async updateOrganization(id, accountChanges) {
      const edited = organizationChanges(accountChanges);
      if (!changes && edited) {
        const [row] = await query<AccountRow>(EDIT_ORGANIZATION.bind({ ...edited, id, now: new Date() }));
        return row && toAccount(row);
      }
      return writeRecorded(
        prisma,
        changes,
        (client) => unlessRecordGone(() => updateAccountRow(client, id, accountChanges)),
        async (log, tx, org) => {
          if (org) await log.organizationUpdated(tx, org);
        },
      );
    },

    async updateOrganizationGuarded(name, accountChanges, guard) {
      // With events on, the recorded write (updateOrganization) is the only one.
      const edited = organizationChanges(accountChanges);
      if (changes || !edited) return undefined;
      // A value the database refuses (a NUL character): the full path decides who may act first.
      const rows = await unlessUnstorable(() =>
        query<GuardedEditRow>(
          EDIT_ORGANIZATION_GUARDED.bind({
            ...edited,
            lowerName: name.toLowerCase(),
            siteAdmin: guard.siteAdmin,
            memberId: guard.memberId ?? null,
            visibilityChangeAllowed: guard.visibilityChangeAllowed,
            now: new Date(),
          }),
        ),
      );
      return rows && guardedEditOf(rows);
    },

    async renameOrganization(id, expectedName, newName) {
      return unlessNameTaken(() =>
        writeRecorded(
          prisma,
          changes,
          (client) => renameAccountRow(client, id, expectedName, newName),
          // No row: a concurrent rename or delete won, nothing changed.
          async (log, tx, org) => {
            if (org) await log.organizationRenamed(tx, org);
          },
        ),
      );
    },

    /** Deletes the organization unless it owns repositories. */
    async deleteOrganizationWithoutRepositories(id) {
      return prisma.$transaction(async (tx) => {
        // Lock the organization row so a concurrent repository creation cannot slip in.
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${BigInt(id)} FOR UPDATE`;
        if ((await tx.repository.count({ where: { ownerId: BigInt(id) } })) > 0)
          return { kind: 'owns-repositories' as const };
        const row = await tx.account.delete({ where: { id: BigInt(id) } });
        // The row as it was under the lock: what a GET showed just before the delete.
        await changes?.organizationDeleted(tx, toAccount(row));
        return { kind: 'deleted' as const };
      });
    },

    /** The organizations the filter selects, by name. */
    async listOrganizations(filter, offset, limit) {
      const where = organizationCondition(filter);
      const [rows, total] = await Promise.all([
        prisma.account.findMany({ where, orderBy: [{ lowerName: 'asc' }], skip: offset, take: limit }),
        countOrganizations(prisma, filter),
      ]);
      return { items: rows.map(toAccount), total };
    },

    /** The teams of the organization the user is in. */
    async teamsOfMember(orgId, userId) {
      const rows = await query<TeamRow>(TEAMS_OF_MEMBER.bind({ orgId, userId }));
      return rows.map(toTeam);
    },

    async createTeam(team) {
      return unlessNameTaken(async () => toTeam(await prisma.team.create({ data: teamData(team) })));
    },

    async findTeamByName(orgId, name) {
      const row = await prisma.team.findUnique({
        where: { orgId_lowerName: { orgId: BigInt(orgId), lowerName: name.toLowerCase() } },
      });
      return row ? toTeam(row) : undefined;
    },

    async findTeam(id) {
      const row = await prisma.team.findUnique({ where: { id: BigInt(id) } });
      return row ? toTeam(row) : undefined;
    },

    async listTeams(orgId, offset, limit) {
      const where = { orgId: BigInt(orgId) };
      const [rows, total] = await Promise.all([
        prisma.team.findMany({ where, orderBy: [{ lowerName: 'asc' }], skip: offset, take: limit }),
        prisma.team.count({ where }),
      ]);
      return { items: rows.map(toTeam), total };
    },

    async addTeamMember(teamId, accountId) {
      // INSERT … ON CONFLICT DO NOTHING: adding a member twice at once is still one 204 each.
      // (upsert with an empty update reads, then inserts: two concurrent adds collided, 409.)
      await prisma.teamMember.createMany({
        data: [{ teamId: BigInt(teamId), accountId: BigInt(accountId) }],
        skipDuplicates: true,
      });
    },

    /** Removes the member; with keepOneMember, refuses to remove the last one (under a lock on the team). */
    async removeTeamMember(teamId, accountId, keepOneMember) {
      const removed = { kind: 'removed' as const };
      return prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM teams WHERE id = ${BigInt(teamId)} FOR UPDATE`;
        const key = { teamId: BigInt(teamId), accountId: BigInt(accountId) };
        if (!(await tx.teamMember.findUnique({ where: { teamId_accountId: key } }))) return removed;
        if (keepOneMember && (await tx.teamMember.count({ where: { teamId: BigInt(teamId) } })) <= 1)
          return { kind: 'last-member' as const };
        await tx.teamMember.delete({ where: { teamId_accountId: key } });
        return removed;
      });
    },
  };
}

/** The edit's fields, null where not given; undefined when it changes a field an organization edit does not. */
function organizationChanges(changes: AccountChanges): Omit<EditOrganizationArgs, 'id' | 'now'> | undefined {
  const {
    fullName,
    email,
    description,
    website,
    location,
    visibility,
    repoAdminChangeTeamAccess,
    ...others
  } = changes;
  if (Object.values(others).some((value) => value !== undefined)) return undefined;
  return {
    fullName: fullName ?? null,
    email: email ?? null,
    description: description ?? null,
    website: website ?? null,
    location: location ?? null,
    visibility: visibility ?? null,
    repoAdminChangeTeamAccess: repoAdminChangeTeamAccess ?? null,
  };
}
