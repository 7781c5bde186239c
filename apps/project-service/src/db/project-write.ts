import { randomUUID } from 'node:crypto';
import type { NewProject, ProjectSettingsUpdate } from '../domain/records';
import type { AllowedRevisions } from '../domain/revisions';
import { Prisma } from '../generated/prisma/client';
import { memberRows } from './row-mappers';

/**
 * The settings write as one statement: the conditional UPDATE of the project (its If-Match check
 * in the WHERE), and the member lists replaced, each list in its order. Data-modifying CTEs run
 * in one snapshot and one transaction, so the write is whole or not at all, and the UPDATE's row
 * lock orders concurrent writers (a second writer with the same If-Match waits, then sees the new
 * revision and writes nothing, members included). Before, this took five round trips (BEGIN,
 * UPDATE, DELETE, INSERT, COMMIT).
 *
 * Members are replaced by key (project, role, position): rows past the new lists' ends are
 * deleted, the others upserted, so the DELETE and the INSERT never touch the same key.
 *
 * Returns the number of projects written: 0 when the project is missing or its revision is not
 * one of `allowed`.
 */
export async function writeSettings(
  client: Prisma.TransactionClient,
  uid: string,
  update: ProjectSettingsUpdate,
  allowed: AllowedRevisions,
): Promise<number> {
  const members = memberRows(update);
  const revisionMatches =
    allowed === undefined ? Prisma.sql`TRUE` : Prisma.sql`settings_revision = ANY(${allowed}::int[])`;
  const rows = await client.$queryRaw<{ written: bigint | number }[]>`
    WITH updated AS (
      UPDATE projects
      SET announcement_date = ${update.announcementDate},
          mission_statement = ${update.missionStatement},
          settings_revision = settings_revision + 1,
          settings_updated_at = ${new Date()}::timestamptz
      WHERE uid = ${uid}::uuid AND ${revisionMatches}
      RETURNING uid
    ), wanted AS (
      ${membersTable(members)}
    ), removed AS (
      DELETE FROM project_members m USING updated u
      WHERE m.project_uid = u.uid
        AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.role = m.role AND w.position = m.position)
    ), upserted AS (
      INSERT INTO project_members (project_uid, role, position, username, name, email, avatar)
      SELECT u.uid, w.role, w.position, w.username, w.name, w.email, w.avatar FROM updated u, wanted w
      ON CONFLICT (project_uid, role, position) DO UPDATE
      SET username = excluded.username, name = excluded.name, email = excluded.email, avatar = excluded.avatar
    )
    SELECT count(*) AS written FROM updated`;
  return Number(rows[0]?.written ?? 0);
}

type MemberRow = ReturnType<typeof memberRows>[number];

/** The member rows as a table (role, position, username, name, email, avatar): six array parameters. */
function membersTable(members: MemberRow[]): Prisma.Sql {
  return Prisma.sql`SELECT * FROM unnest(
    ${members.map((member) => member.role)}::text[],
    ${members.map((member) => member.position)}::int[],
    ${members.map((member) => member.username)}::text[],
    ${members.map((member) => member.name)}::text[],
    ${members.map((member) => member.email)}::text[],
    ${members.map((member) => member.avatar)}::text[]
  ) AS w(role, position, username, name, email, avatar)`;
}

/**
 * A new project and its members in one statement (before: BEGIN, two INSERTs, COMMIT and
 * Prisma's two reads back). A taken slug or a missing parent fails the statement as a whole:
 * the constraint errors are the same as Prisma's create raised. Returns the new project's uid.
 */
export async function insertProject(client: Prisma.TransactionClient, project: NewProject): Promise<string> {
  const uid = randomUUID();
  const members = memberRows(project);
  await client.$executeRaw`
    WITH inserted AS (
      INSERT INTO projects (
        uid, parent_uid, slug, name, description, public, is_foundation, autojoin_enabled, category,
        stage, legal_entity_type, legal_entity_name, legal_parent_uid, funding_model, charter_url,
        entity_formation_document_url, logo_url, repository_url, website_url, formation_date,
        entity_dissolution_date, announcement_date, mission_statement
      ) VALUES (
        ${uid}::uuid, ${project.parentUid}::uuid, ${project.slug}, ${project.name}, ${project.description},
        ${project.public}, ${project.isFoundation}, ${project.autojoinEnabled}, ${project.category},
        ${project.stage}, ${project.legalEntityType}, ${project.legalEntityName}, ${project.legalParentUid},
        ${project.fundingModel}::text[], ${project.charterUrl}, ${project.entityFormationDocumentUrl},
        ${project.logoUrl}, ${project.repositoryUrl}, ${project.websiteUrl}, ${project.formationDate},
        ${project.entityDissolutionDate}, ${project.announcementDate}, ${project.missionStatement}
      )
      RETURNING uid
    ), wanted AS (
      ${membersTable(members)}
    )
    INSERT INTO project_members (project_uid, role, position, username, name, email, avatar)
    SELECT i.uid, w.role, w.position, w.username, w.name, w.email, w.avatar FROM inserted i, wanted w`;
  return uid;
}
