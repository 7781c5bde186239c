import type { ProjectReadout } from '../domain/project-store';
import type { Project, ProjectCore } from '../domain/records';
import { Prisma, type Project as ProjectModel } from '../generated/prisma/client';
import type { RunStatement } from './database';
import { membershipCte, membershipOf, type MembershipRow } from './project-access';
import { projectCoreOf, projectOf, type MemberRow } from './row-mappers';
import { fixedStatement } from './prepared-statements';

/**
 * The read of one project for a single-resource GET: the caller's memberships along its ancestor
 * chain (membershipCte, what accessOf() decides on) and the row itself, in one statement, so a
 * GET is one database round trip. The members come along only when asked for (the settings).
 */

/** The project's columns, named as Prisma names its fields, so row-mappers.ts maps the row. */
export const PROJECT_COLUMNS = Prisma.sql`
  p.uid::text AS "uid", p.slug AS "slug", p.name AS "name", p.description AS "description",
  p.parent_uid::text AS "parentUid", p.public AS "public", p.is_foundation AS "isFoundation",
  p.autojoin_enabled AS "autojoinEnabled", p.category AS "category", p.stage AS "stage",
  p.legal_entity_type AS "legalEntityType", p.legal_entity_name AS "legalEntityName",
  p.legal_parent_uid AS "legalParentUid", p.funding_model AS "fundingModel",
  p.charter_url AS "charterUrl", p.entity_formation_document_url AS "entityFormationDocumentUrl",
  p.logo_url AS "logoUrl", p.repository_url AS "repositoryUrl", p.website_url AS "websiteUrl",
  p.formation_date AS "formationDate", p.entity_dissolution_date AS "entityDissolutionDate",
  p.base_revision AS "baseRevision", p.created_at AS "createdAt", p.updated_at AS "updatedAt",
  p.announcement_date AS "announcementDate", p.mission_statement AS "missionStatement",
  p.settings_revision AS "settingsRevision", p.settings_updated_at AS "settingsUpdatedAt"`;

/** The members in list order (role, then position), as JSON objects row-mappers.ts reads. */
export const MEMBERS = Prisma.sql`(
  SELECT coalesce(
    json_agg(
      json_build_object('role', m.role, 'username', m.username, 'name', m.name, 'email', m.email, 'avatar', m.avatar)
      ORDER BY m.role, m.position
    ),
    '[]'::json)
  FROM project_members m WHERE m.project_uid = p.uid) AS "members"`;

/** A row of PROJECT_COLUMNS and MEMBERS. */
export type ProjectWithMembersRow = ProjectModel & { members: MemberRow[] };
type ReadRow = MembershipRow &
  (ProjectModel | { [K in keyof ProjectModel]: null }) & { members?: MemberRow[] };

type ReadArgs = { uid: string; principal: string };

/** Every GET of one project: made once, prepared once per connection (prepared-statements.ts). */
const READ_STATEMENTS = {
  core: fixedStatement<ReadArgs>(
    'project_read',
    (arg) => Prisma.sql`
    ${membershipCte(arg('uid'), arg('principal'))}
    SELECT a.*, ${PROJECT_COLUMNS}
    FROM membership a LEFT JOIN projects p ON p.uid = ${arg('uid')}::uuid`,
  ),
  withMembers: fixedStatement<ReadArgs>(
    'project_read_with_members',
    (arg) => Prisma.sql`
    ${membershipCte(arg('uid'), arg('principal'))}
    SELECT a.*, ${PROJECT_COLUMNS}, ${MEMBERS}
    FROM membership a LEFT JOIN projects p ON p.uid = ${arg('uid')}::uuid`,
  ),
};

async function readRow(
  run: RunStatement,
  uid: string,
  principal: string,
  withMembers: boolean,
): Promise<ReadRow | undefined> {
  const statement = withMembers ? READ_STATEMENTS.withMembers : READ_STATEMENTS.core;
  const rows = await run<ReadRow>(statement.bind({ uid, principal }));
  return rows[0];
}

function readout<Record>(
  row: ReadRow | undefined,
  project: (row: ProjectModel) => Record,
): ProjectReadout<Record> | undefined {
  const membership = membershipOf(row);
  // The chain starts at the row, so it is found exactly when the row is (one snapshot).
  if (!membership || !row || row.uid === null) return undefined;
  return { membership, project: project(row as ProjectModel) };
}

/** The project with its members, in one statement; undefined when it does not exist. */
export async function findProject(
  client: Prisma.TransactionClient,
  uid: string,
): Promise<Project | undefined> {
  const rows = await client.$queryRaw<ProjectWithMembersRow[]>`
    SELECT ${PROJECT_COLUMNS}, ${MEMBERS} FROM projects p WHERE p.uid = ${uid}::uuid`;
  const row = rows[0];
  return row && projectOf(row);
}

/**
 * The project with its members, its row locked until the transaction ends (a write's "before"
 * that no other write can change meanwhile); undefined when it does not exist.
 *
 * FOR UPDATE returns the row's newest version once the lock is granted, but the members come from
 * the statement's snapshot, taken before it waited: a settings write that committed meanwhile
 * (every member write is one, under this lock, and moves settings_revision) would leave them stale.
 * The statement also reads the revision of its snapshot; when the two differ, the project is read
 * again, the lock now held.
 */
export async function findProjectForUpdate(
  transaction: Prisma.TransactionClient,
  uid: string,
): Promise<Project | undefined> {
  const rows = await transaction.$queryRaw<(ProjectWithMembersRow & { snapshotRevision: number | null })[]>`
    SELECT ${PROJECT_COLUMNS}, ${MEMBERS},
      (SELECT s.settings_revision FROM projects s WHERE s.uid = p.uid) AS "snapshotRevision"
    FROM projects p WHERE p.uid = ${uid}::uuid FOR UPDATE OF p`;
  const row = rows[0];
  if (!row) return undefined;
  if (row.snapshotRevision !== row.settingsRevision) return findProject(transaction, uid);
  return projectOf(row);
}

/** The project without its members, and the caller's memberships; undefined when it does not exist. */
export async function readProjectCore(
  run: RunStatement,
  uid: string,
  principal: string,
): Promise<ProjectReadout<ProjectCore> | undefined> {
  return readout(await readRow(run, uid, principal, false), projectCoreOf);
}

/** The project with its members, and the caller's memberships; undefined when it does not exist. */
export async function readProject(
  run: RunStatement,
  uid: string,
  principal: string,
): Promise<ProjectReadout<Project> | undefined> {
  const row = await readRow(run, uid, principal, true);
  return readout(row, (model) => projectOf({ ...model, members: row?.members ?? [] }));
}
