import type { NewAccount } from '../domain/account-store';
import type {
  OrganizationChanges,
  OrganizationFilter,
  OrganizationStore,
  TeamInsert,
} from '../domain/organization-store';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { ACCOUNT_COLUMNS, renameAccountRow } from './account-store';
import { writeRecorded, type ChangeLog } from './change-log';
import { fixedStatement, prepared } from './prepared-statements';
import { toAccount, toTeam, type AccountRow, type TeamRow } from './row-mappers';
import type { StoreDatabase } from './store-database';
import { unlessNameTaken } from './write-outcome';

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
 * POST /orgs's write: the organization, its first team and that team's one member (the creator),
 * the organization as created. A field not given takes its column's default (the migration's).
 */
const CREATE_ORGANIZATION = fixedStatement<OrganizationInsertArgs & { memberId: number }>(
  'organization_create',
  (arg, args) => Prisma.sql`
    WITH created AS (
      INSERT INTO accounts (name, lower_name, type, full_name, email, visibility, description, website,
        location, repo_admin_change_team_access)
      VALUES (${args.name}, ${args.lowerName}, 'organization',
        coalesce(${args.fullName}::text, ''), coalesce(${args.email}::text, ''),
        coalesce(${args.visibility}::text, 'public'), coalesce(${args.description}::text, ''),
        coalesce(${args.website}::text, ''), coalesce(${args.location}::text, ''),
        coalesce(${args.repoAdminChangeTeamAccess}::boolean, false))
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
      INSERT INTO team_members (team_id, account_id) SELECT team.id, ${arg('memberId')}::bigint FROM team
    )
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

/** Organizations and their teams; `changes` records the organizations' change events (when on). */
export function organizationStore(database: StoreDatabase, changes?: ChangeLog): OrganizationStore {
  const { prisma, query } = database;
  return {
    /** Creates the organization with the team the domain describes holding its creator. */
    async createOrganization(account, { team, memberId }) {
      return unlessNameTaken(() =>
        writeRecorded(
          database,
          changes,
          async ({ run }) => {
            const [row] = await run<AccountRow>(
              CREATE_ORGANIZATION.bind({ ...organizationInsertValues(account, team), memberId }),
            );
            return toAccount(row!);
          },
          (log, tx, org) => log.organizationCreated(tx, org),
        ),
      );
    },

    async updateOrganization(id, edit) {
      return writeRecorded(
        database,
        changes,
        async ({ run }) => {
          const [row] = await run<AccountRow>(
            EDIT_ORGANIZATION.bind({ ...organizationChanges(edit), id, now: new Date() }),
          );
          return row && toAccount(row);
        },
        async (log, tx, org) => {
          if (org) await log.organizationUpdated(tx, org);
        },
      );
    },

    async renameOrganization(id, expectedName, newName) {
      return unlessNameTaken(() =>
        writeRecorded(
          database,
          changes,
          ({ prisma: client }) => renameAccountRow(client, id, expectedName, newName),
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

/** The edit's fields, null where not given (the statement keeps those as they are). */
function organizationChanges(changes: OrganizationChanges): Omit<EditOrganizationArgs, 'id' | 'now'> {
  return {
    fullName: changes.fullName ?? null,
    email: changes.email ?? null,
    description: changes.description ?? null,
    website: changes.website ?? null,
    location: changes.location ?? null,
    visibility: changes.visibility ?? null,
    repoAdminChangeTeamAccess: changes.repoAdminChangeTeamAccess ?? null,
  };
}
