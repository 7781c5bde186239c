import { randomUUID } from 'node:crypto';
import type { NewProject, Project, ProjectBaseUpdate, ProjectSettingsUpdate } from '../domain/records';
import type { GuardedWrite } from '../domain/project-store';
import type { AllowedRevisions } from '../domain/revisions';
import { Prisma } from '../generated/prisma/client';
import type { RunStatement } from './database';
import { outboxInsert, type PlannedEvent } from './outbox';
import { prepared } from './prepared-statements';
import {
  membershipCte,
  membershipOf,
  writeGuard,
  writeParentGuard,
  type MembershipRow,
} from './project-access';
import { guardedOf } from './project-guarded-writes';
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

// The writes of events on, each with its change event, in one statement: the change, the project
// as it is after (the write's answer), and the event recorded in the outbox (outboxInsert) with an
// image of the project (project-image.ts). One statement is one round trip and its own
// transaction: the event is committed exactly when the change is.

/** The base revisions a write may replace: those of `allowed` (If-Match), any without. */
function baseRevisionAllowed(allowed: AllowedRevisions): Prisma.Sql {
  return allowed === undefined ? Prisma.sql`TRUE` : Prisma.sql`base_revision = ANY(${allowed}::int[])`;
}

/** The event's WITH items for the CTE `result` (PROJECT_COLUMNS and members), with the image of `previous`. */
function recorded(event: PlannedEvent, previous?: Prisma.Sql): Prisma.Sql {
  return outboxInsert(event, Prisma.sql`result`, Prisma.sql`r."uid"`, projectImage(previous));
}

/** The caller a guarded recorded write checks in its own statement (membershipCte, writeGuard). */
export interface WriteGuard {
  principal: string;
  admin: boolean;
}

/** A guarded statement's one row: the memberships (membershipCte) and the result, null when nothing was written. */
type GuardedRow = MembershipRow & ({ [K in keyof ProjectWithMembersRow]: null } | ProjectWithMembersRow);

/** The last SELECT of a recorded write: the result, with the memberships when guarded. */
function resultSelect(guard: WriteGuard | undefined): Prisma.Sql {
  return guard
    ? Prisma.sql`SELECT a.*, r.* FROM membership a LEFT JOIN result r ON TRUE`
    : Prisma.sql`SELECT * FROM result`;
}

/** A new project and its members, with `event` (project.created); guarded, only under a parent `guard` may write. */
function insertRecordingStatement(project: NewProject, event: PlannedEvent, guard?: WriteGuard): Prisma.Sql {
  const statement = insertStatement(
    insertValues(randomUUID(), project),
    Prisma.sql`*`,
    (insertMembers) => Prisma.sql`, added AS (
      ${insertMembers}
      RETURNING role, position, username, name, email, avatar
    ), result AS (
      SELECT ${PROJECT_COLUMNS}, ${membersOfRows(Prisma.sql`added`)} FROM inserted p
    ), ${recorded(event)}
    ${resultSelect(guard)}`,
    guard && {
      withItems: membershipCte(project.parentUid, guard.principal),
      guard: writeGuard(guard.admin),
    },
  );
  return prepared(guard ? 'project_insert_recording_guarded' : 'project_insert_recording', statement);
}

/** A new project and its members, returned, with `event` (project.created). */
export async function insertProjectRecording(
  run: RunStatement,
  project: NewProject,
  event: PlannedEvent,
): Promise<Project> {
  const rows = await run<ProjectWithMembersRow>(insertRecordingStatement(project, event));
  const row = rows[0];
  if (!row) throw new Error('a project inserted by this statement is missing');
  return projectOf(row);
}

/** insertProjectRecording under a parent the caller may write, checked in the statement. */
export async function insertProjectRecordingGuarded(
  run: RunStatement,
  project: NewProject,
  event: PlannedEvent,
  guard: WriteGuard,
): Promise<GuardedWrite<Project>> {
  const rows = await run<GuardedRow>(insertRecordingStatement(project, event, guard));
  return guardedOf(rows[0], projectOf);
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
  event: PlannedEvent,
): Promise<Project | undefined> {
  const rows = await run<ProjectWithMembersRow>(baseUpdateRecordingStatement(uid, update, allowed, event));
  const row = rows[0];
  return row && projectOf(row);
}

/** baseUpdateRecording by a caller who may write the project, checked in the statement. */
export async function baseUpdateRecordingGuarded(
  run: RunStatement,
  uid: string,
  update: ProjectBaseUpdate,
  allowed: AllowedRevisions,
  event: PlannedEvent,
  guard: WriteGuard,
): Promise<GuardedWrite<Project>> {
  const rows = await run<GuardedRow>(baseUpdateRecordingStatement(uid, update, allowed, event, guard));
  return guardedOf(rows[0], projectOf);
}

function baseUpdateRecordingStatement(
  uid: string,
  update: ProjectBaseUpdate,
  allowed: AllowedRevisions,
  event: PlannedEvent,
  guard?: WriteGuard,
): Prisma.Sql {
  return prepared(
    guard ? 'project_base_update_recording_guarded' : 'project_base_update_recording',
    Prisma.sql`
    ${guard ? Prisma.sql`${membershipCte(uid, guard.principal)},` : Prisma.sql`WITH`} p AS (
      UPDATE projects
      SET ${baseAssignments(update)},
        base_revision = base_revision + 1, updated_at = ${new Date()}::timestamptz
      WHERE uid = ${uid}::uuid AND ${baseRevisionAllowed(allowed)}
        AND parent_uid IS NOT DISTINCT FROM ${update.parentUid ?? null}::uuid
        AND ${guard ? writeGuard(guard.admin) : Prisma.sql`TRUE`}
      RETURNING *
    ), result AS (
      SELECT ${PROJECT_COLUMNS}, ${MEMBERS} FROM p
    ), ${recorded(event)}
    ${resultSelect(guard)}`,
  );
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
  event: PlannedEvent,
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
    ), ${recorded(event, Prisma.sql`before`)}
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
  event: PlannedEvent,
): Promise<boolean> {
  const rows = await run<{ deleted: number }>(deleteRecordingStatement(uid, allowed, event));
  return (rows[0]?.deleted ?? 0) > 0;
}

/** deleteRecording of a project that is not the root, by a writer of its parent, checked in the statement. */
export async function deleteRecordingGuarded(
  run: RunStatement,
  uid: string,
  allowed: AllowedRevisions,
  event: PlannedEvent,
  guard: WriteGuard,
): Promise<GuardedWrite<true>> {
  const rows = await run<MembershipRow & { deleted: number }>(
    deleteRecordingStatement(uid, allowed, event, guard),
  );
  const row = rows[0];
  return { membership: membershipOf(row), written: row && row.deleted > 0 ? true : undefined };
}

function deleteRecordingStatement(
  uid: string,
  allowed: AllowedRevisions,
  event: PlannedEvent,
  guard?: WriteGuard,
): Prisma.Sql {
  const deleted = Prisma.sql`SELECT count(*)::int FROM result`;
  return prepared(
    guard ? 'project_delete_recording_guarded' : 'project_delete_recording',
    Prisma.sql`
    ${guard ? Prisma.sql`${membershipCte(uid, guard.principal)},` : Prisma.sql`WITH`} p AS (
      DELETE FROM projects WHERE uid = ${uid}::uuid AND ${baseRevisionAllowed(allowed)}
        AND ${guard ? Prisma.sql`parent_uid IS NOT NULL AND ${writeParentGuard(guard.admin)}` : Prisma.sql`TRUE`}
      RETURNING *
    ), result AS (
      SELECT ${PROJECT_COLUMNS}, '[]'::json AS "members" FROM p
    ), ${recorded(event)}
    ${guard ? Prisma.sql`SELECT a.*, (${deleted}) AS deleted FROM membership a` : Prisma.sql`SELECT (${deleted}) AS deleted`}`,
  );
}
