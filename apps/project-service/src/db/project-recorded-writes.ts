import { randomUUID } from 'node:crypto';
import type { NewProject, Project, ProjectBaseUpdate, ProjectSettingsUpdate } from '../domain/records';
import type { AllowedRevisions } from '../domain/revisions';
import { Prisma } from '../generated/prisma/client';
import type { RunStatement } from './database';
import { outboxInsert, type PlannedEvent } from './outbox';
import { prepared } from './prepared-statements';
import { projectImage } from './project-image';
import { MEMBERS, PROJECT_COLUMNS, type ProjectWithMembersRow } from './project-read';
import {
  baseAssignments,
  insertStatement,
  insertValues,
  memberColumns,
  membersOfRows,
  membersReplacedAfterUpdate,
  settingsRevisionAllowed,
  settingsUpdate,
} from './project-write';
import { memberRows, projectOf } from './row-mappers';

// The writes, each in one statement: the change, the project as it is after (the write's answer),
// and, with change events on, the event recorded in the outbox (outboxInsert) with an image of
// the project (project-image.ts). Events on or off, the same statement runs, the outbox's WITH
// items added or not: one statement is one round trip and its own transaction, so an event is
// committed exactly when its change is.

/** The base revisions a write may replace: those of `allowed` (If-Match), any without. */
function baseRevisionAllowed(allowed: AllowedRevisions): Prisma.Sql {
  return allowed === undefined ? Prisma.sql`TRUE` : Prisma.sql`base_revision = ANY(${allowed}::int[])`;
}

/**
 * The event's WITH items after the CTE `result` (PROJECT_COLUMNS and members), with the image of
 * `previous`; none without an event (events off).
 */
function recorded(event: PlannedEvent | undefined, previous?: Prisma.Sql): Prisma.Sql {
  if (!event) return Prisma.empty;
  return Prisma.sql`, ${outboxInsert(event, Prisma.sql`result`, Prisma.sql`r."uid"`, projectImage(previous))}`;
}

/** A new project and its members, returned, with `event` (project.created). */
export async function insertProjectRecording(
  run: RunStatement,
  project: NewProject,
  event: PlannedEvent | undefined,
): Promise<Project> {
  const statement = insertStatement(
    insertValues(randomUUID(), project),
    Prisma.sql`*`,
    (insertMembers) => Prisma.sql`, added AS (
      ${insertMembers}
      RETURNING role, position, username, name, email, avatar
    ), result AS (
      SELECT ${PROJECT_COLUMNS}, ${membersOfRows(Prisma.sql`added`)} FROM inserted p
    )${recorded(event)}
    SELECT * FROM result`,
  );
  const rows = await run<ProjectWithMembersRow>(prepared('project_insert_recording', statement));
  const row = rows[0];
  if (!row) throw new Error('a project inserted by this statement is missing');
  return projectOf(row);
}

/**
 * The base write when the parent stays as stored (the parent's equality part of the WHERE), the
 * project after, and `event` (project.updated); undefined when nothing was written (missing,
 * stale, or the parent is not the stored one: the caller's slower path decides). The members are
 * read in the statement's snapshot: a settings write may have committed since, but the base
 * representation (the answer, the event's data) holds no members.
 */
export async function baseUpdateRecording(
  run: RunStatement,
  uid: string,
  update: ProjectBaseUpdate,
  allowed: AllowedRevisions,
  event: PlannedEvent | undefined,
): Promise<Project | undefined> {
  const rows = await run<ProjectWithMembersRow>(
    prepared(
      'project_base_update_recording',
      Prisma.sql`
    WITH p AS (
      UPDATE projects
      SET ${baseAssignments(update)},
        base_revision = base_revision + 1, updated_at = ${new Date()}::timestamptz
      WHERE uid = ${uid}::uuid AND ${baseRevisionAllowed(allowed)}
        AND parent_uid IS NOT DISTINCT FROM ${update.parentUid ?? null}::uuid
      RETURNING *
    ), result AS (
      SELECT ${PROJECT_COLUMNS}, ${MEMBERS} FROM p
    )${recorded(event)}
    SELECT * FROM result`,
    ),
  );
  const row = rows[0];
  return row && projectOf(row);
}

/** What one attempt of the settings write found. */
export type SettingsAttempt =
  | { kind: 'written'; project: Project }
  | { kind: 'missing' }
  /** The stored revision is not one of `allowed`. */
  | { kind: 'stale' }
  /** Another settings write committed between this statement's snapshot and its UPDATE: try again. */
  | { kind: 'overtaken' };

/**
 * One attempt of the settings write with `event` (project.settings_updated, its `previous` the
 * settings this write replaced), in one statement: the project before (`before`, the statement's
 * snapshot), the conditional UPDATE, the members replaced by key, the project after.
 *
 * The UPDATE writes only when the stored revision is still the snapshot's (and one of `allowed`).
 * Every write of the members moves that revision under the project's row lock, so when it matches,
 * no settings write committed since the snapshot: the members the snapshot shows are the stored
 * ones, `before` is exactly what this write replaces, and replacing the members by key from the
 * snapshot mixes nothing in. When it does not match, the statement writes nothing (the members'
 * statements are conditional on the UPDATE) and says 'overtaken'.
 */
export async function settingsWriteRecording(
  run: RunStatement,
  uid: string,
  update: ProjectSettingsUpdate,
  allowed: AllowedRevisions,
  event: PlannedEvent | undefined,
): Promise<SettingsAttempt> {
  const rows = await run<
    ({ [K in keyof ProjectWithMembersRow]: null } | ProjectWithMembersRow) & { beforeRevision: number }
  >(
    prepared(
      'project_settings_write_recording',
      Prisma.sql`
    WITH before AS (
      SELECT ${PROJECT_COLUMNS}, ${MEMBERS} FROM projects p WHERE p.uid = ${uid}::uuid
    ), updated AS (
      ${settingsUpdate(
        uid,
        { ...update, now: new Date() },
        Prisma.sql`${settingsRevisionAllowed(allowed)} AND settings_revision = (SELECT b."settingsRevision" FROM before b)`,
        Prisma.sql`*`,
      )}
    ), ${membersReplacedAfterUpdate(uid, memberColumns(memberRows(update)))}, result AS (
      SELECT ${PROJECT_COLUMNS}, ${membersOfRows(Prisma.sql`upserted`)} FROM updated p
    )${recorded(event, Prisma.sql`before`)}
    SELECT b."settingsRevision" AS "beforeRevision", r.* FROM before b LEFT JOIN result r ON TRUE`,
    ),
  );
  const row = rows[0];
  if (!row) return { kind: 'missing' };
  if (row.uid !== null) return { kind: 'written', project: projectOf(row as ProjectWithMembersRow) };
  const stillAllowed = allowed === undefined || allowed.includes(row.beforeRevision);
  return stillAllowed ? { kind: 'overtaken' } : { kind: 'stale' };
}

/**
 * Deletes the project when its base revision is one of `allowed`, with `event` (project.deleted,
 * the project as deleted; the base representation holds no members). Whether it deleted. A child
 * project fails the statement (the parent foreign key is ON DELETE RESTRICT), recording nothing.
 */
export async function deleteRecording(
  run: RunStatement,
  uid: string,
  allowed: AllowedRevisions,
  event: PlannedEvent | undefined,
): Promise<boolean> {
  const rows = await run<{ deleted: number }>(
    prepared(
      'project_delete_recording',
      Prisma.sql`
    WITH p AS (
      DELETE FROM projects WHERE uid = ${uid}::uuid AND ${baseRevisionAllowed(allowed)} RETURNING *
    ), result AS (
      SELECT ${PROJECT_COLUMNS}, '[]'::json AS "members" FROM p
    )${recorded(event)}
    SELECT count(*)::int AS deleted FROM result`,
    ),
  );
  return (rows[0]?.deleted ?? 0) > 0;
}
