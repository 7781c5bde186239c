import type { NewProject, Project, ProjectDetails, ProjectSettingsUpdate } from '../domain/records';
import type { AllowedRevisions } from '../domain/revisions';
import { Prisma } from '../generated/prisma/client';
import { PROJECT_COLUMNS, type ProjectWithMembersRow } from './project-read';
import { memberRows, projectOf } from './row-mappers';

/**
 * The settings write of a transaction that holds the project's row lock already (the write's
 * "before" was read FOR UPDATE), and the project as it is after, in one statement: the
 * conditional UPDATE, the members replaced by key, the row and the new member lists returned.
 * Holding the lock, no other writer can change the members between this statement's snapshot and
 * its UPDATE, so the one-statement form is right for any condition; and the new lists are exactly
 * the upserted rows (every other member row of the project is deleted). Undefined when the
 * revision is not one of `allowed` (nothing written).
 */
export async function writeSettingsReturning(
  transaction: Prisma.TransactionClient,
  uid: string,
  update: ProjectSettingsUpdate,
  allowed: AllowedRevisions,
): Promise<Project | undefined> {
  const rows = await transaction.$queryRaw<ProjectWithMembersRow[]>`
    WITH updated AS (
      ${settingsUpdate(uid, { ...update, now: new Date() }, settingsRevisionAllowed(allowed), Prisma.sql`*`)}
    ), ${membersReplacedAfterUpdate(uid, memberColumns(memberRows(update)))}
    SELECT ${PROJECT_COLUMNS}, ${membersOfRows(Prisma.sql`upserted`)} FROM updated p`;
  const row = rows[0];
  return row && projectOf(row);
}

/** The settings revisions a write may replace: those of `allowed` (If-Match), any without. */
export function settingsRevisionAllowed(allowed: AllowedRevisions): Prisma.Sql {
  return allowed === undefined ? Prisma.sql`TRUE` : Prisma.sql`settings_revision = ANY(${allowed}::int[])`;
}

/**
 * The WITH items that follow `updated` (a settings UPDATE): the members replaced by key when it
 * wrote, the new member rows returned as `upserted` (every other member row of the project is
 * deleted, so they are the new lists).
 */
export function membersReplacedAfterUpdate(uid: string, members: MemberColumns): Prisma.Sql {
  const written = Prisma.sql`EXISTS (SELECT 1 FROM updated)`;
  return Prisma.sql`wanted AS (
      ${membersTable(members)}
    ), removed AS (
      ${removedMembers(uid, written)}
    ), upserted AS (
      ${upsertedMembers(uid, written)}
      RETURNING role, position, username, name, email, avatar
    )`;
}

/** The member rows of `relation` (a CTE's RETURNING) as MEMBERS has them: JSON objects in list order. */
export function membersOfRows(relation: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(
    SELECT coalesce(
      json_agg(
        json_build_object('role', m.role, 'username', m.username, 'name', m.name, 'email', m.email, 'avatar', m.avatar)
        ORDER BY m.role, m.position
      ),
      '[]'::json)
    FROM ${relation} m) AS "members"`;
}

/** The SET list of a base write: every base column from `values` (the parent is set apart). */
export function baseAssignments(values: ProjectDetails): Prisma.Sql {
  const v = values;
  return Prisma.sql`slug = ${v.slug}, name = ${v.name}, description = ${v.description},
    public = ${v.public}::boolean, is_foundation = ${v.isFoundation}::boolean,
    autojoin_enabled = ${v.autojoinEnabled}::boolean, category = ${v.category}, stage = ${v.stage},
    legal_entity_type = ${v.legalEntityType}, legal_entity_name = ${v.legalEntityName},
    legal_parent_uid = ${v.legalParentUid}, funding_model = ${v.fundingModel}::text[],
    charter_url = ${v.charterUrl}, entity_formation_document_url = ${v.entityFormationDocumentUrl},
    logo_url = ${v.logoUrl}, repository_url = ${v.repositoryUrl}, website_url = ${v.websiteUrl},
    formation_date = ${v.formationDate}, entity_dissolution_date = ${v.entityDissolutionDate}`;
}

/** The settings columns a settings write sets, and its time (the application's clock). */
export type SettingsValues = Pick<ProjectSettingsUpdate, 'announcementDate' | 'missionStatement'> & {
  now: Date;
};

/** The conditional UPDATE of a project's settings columns and revision, returning its uid (or `returning`). */
export function settingsUpdate(
  uid: string,
  values: SettingsValues,
  condition: Prisma.Sql,
  returning: Prisma.Sql = Prisma.sql`uid`,
): Prisma.Sql {
  return Prisma.sql`UPDATE projects
    SET announcement_date = ${values.announcementDate},
        mission_statement = ${values.missionStatement},
        settings_revision = settings_revision + 1,
        settings_updated_at = ${values.now}::timestamptz
    WHERE uid = ${uid}::uuid AND ${condition}
    RETURNING ${returning}`;
}

/** The project's member rows that `wanted` (membersTable) has no key for, deleted when `onlyIf`. */
export function removedMembers(uid: string, onlyIf: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`DELETE FROM project_members m
    WHERE m.project_uid = ${uid}::uuid AND ${onlyIf}
      AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.role = m.role AND w.position = m.position)`;
}

/** `wanted`'s rows written as the project's members, by key, when `onlyIf`. */
export function upsertedMembers(uid: string, onlyIf: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`INSERT INTO project_members (project_uid, role, position, username, name, email, avatar)
    SELECT ${uid}::uuid, w.role, w.position, w.username, w.name, w.email, w.avatar FROM wanted w
    WHERE ${onlyIf}
    ON CONFLICT (project_uid, role, position) DO UPDATE
    SET username = excluded.username, name = excluded.name, email = excluded.email, avatar = excluded.avatar`;
}

type MemberWrite = ReturnType<typeof memberRows>[number];

/** The member rows column by column: the six array parameters of membersTable. */
export interface MemberColumns {
  memberRoles: string[];
  memberPositions: number[];
  memberUsernames: string[];
  memberNames: string[];
  memberEmails: string[];
  memberAvatars: string[];
}

/** The settings' member rows (memberRows) column by column. */
export function memberColumns(members: MemberWrite[]): MemberColumns {
  return {
    memberRoles: members.map((member) => member.role),
    memberPositions: members.map((member) => member.position),
    memberUsernames: members.map((member) => member.username),
    memberNames: members.map((member) => member.name),
    memberEmails: members.map((member) => member.email),
    memberAvatars: members.map((member) => member.avatar),
  };
}

/** The member rows as a table (role, position, username, name, email, avatar): six array parameters. */
export function membersTable(columns: MemberColumns): Prisma.Sql {
  return Prisma.sql`SELECT * FROM unnest(
    ${columns.memberRoles}::text[],
    ${columns.memberPositions}::int[],
    ${columns.memberUsernames}::text[],
    ${columns.memberNames}::text[],
    ${columns.memberEmails}::text[],
    ${columns.memberAvatars}::text[]
  ) AS w(role, position, username, name, email, avatar)`;
}

/** What the create's statement inserts: the project, its new uid, its time, its members by column. */
export type InsertValues = NewProject & MemberColumns & { uid: string; now: Date };

/** The create's values for a project: its members by column, the application's clock (as every later write uses). */
export function insertValues(uid: string, project: NewProject): InsertValues {
  return { ...project, ...memberColumns(memberRows(project)), uid, now: new Date() };
}

/**
 * The create's statement: the project's INSERT (RETURNING `returning`) and its members' (as `tail`
 * places it). Every value is cast to its column's type.
 */
export function insertStatement(
  values: InsertValues,
  returning: Prisma.Sql,
  tail: (insertMembers: Prisma.Sql) => Prisma.Sql,
): Prisma.Sql {
  const v = values;
  return Prisma.sql`
    WITH inserted AS (
      INSERT INTO projects (
        uid, parent_uid, slug, name, description, public, is_foundation, autojoin_enabled, category,
        stage, legal_entity_type, legal_entity_name, legal_parent_uid, funding_model, charter_url,
        entity_formation_document_url, logo_url, repository_url, website_url, formation_date,
        entity_dissolution_date, announcement_date, mission_statement, created_at, updated_at,
        settings_updated_at
      ) VALUES (
        ${v.uid}::uuid, ${v.parentUid}::uuid, ${v.slug}::text, ${v.name}::text, ${v.description}::text,
        ${v.public}::boolean, ${v.isFoundation}::boolean, ${v.autojoinEnabled}::boolean, ${v.category}::text,
        ${v.stage}::text, ${v.legalEntityType}::text, ${v.legalEntityName}::text, ${v.legalParentUid}::text,
        ${v.fundingModel}::text[], ${v.charterUrl}::text, ${v.entityFormationDocumentUrl}::text,
        ${v.logoUrl}::text, ${v.repositoryUrl}::text, ${v.websiteUrl}::text, ${v.formationDate}::text,
        ${v.entityDissolutionDate}::text, ${v.announcementDate}::text, ${v.missionStatement}::text,
        ${v.now}::timestamptz, ${v.now}::timestamptz, ${v.now}::timestamptz
      )
      RETURNING ${returning}
    ), wanted AS (
      ${membersTable(v)}
    )
    ${tail(Prisma.sql`INSERT INTO project_members (project_uid, role, position, username, name, email, avatar)
    SELECT i.uid, w.role, w.position, w.username, w.name, w.email, w.avatar FROM inserted i, wanted w`)}`;
}
