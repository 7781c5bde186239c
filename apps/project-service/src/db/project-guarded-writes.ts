import { randomUUID } from 'node:crypto';
import { isForeignKeyConstraintViolation, isUniqueConstraintViolation } from '@repo/http-errors';
import type { Caller } from '../domain/caller';
import type { GuardedWrite } from '../domain/project-store';
import type { NewProject, Project, ProjectBaseUpdate, ProjectCore, ProjectDetails } from '../domain/records';
import { Prisma } from '../generated/prisma/client';
import type { RunStatement } from './database';
import { fixedStatement } from './prepared-statements';
import {
  membershipCte,
  membershipOf,
  writeGuard,
  writeParentGuard,
  type MembershipRow,
} from './project-access';
import { PROJECT_COLUMNS } from './project-read';
import {
  baseAssignments,
  insertStatement,
  insertValues,
  memberColumns,
  membersOfRows,
  membersReplacedAfterUpdate,
  settingsUpdate,
  type InsertValues,
  type MemberColumns,
  type SettingsValues,
} from './project-write';
import { memberRows, projectCoreOf, projectOf, type MemberRow } from './row-mappers';
import type { Project as ProjectModel } from '../generated/prisma/client';

// The common writes (events off) as one statement each, the way a GET is one: the caller's
// memberships along the chain (membershipCte), and the write itself when the SQL form of the
// caller's right holds (writeGuard, writeParentGuard) and the write is the plain case (the parent
// as stored, one If-Match revision). The statement returns the memberships and what it wrote; the
// domain decides on them with accessOf() as it does for a GET. When the statement wrote nothing,
// the domain takes the full path (the same checks and writes as before, a statement each), which
// also gives every refusal its answer. Each is a named statement run straight on pg.

type Guard = { uid: string; principal: string; admin: boolean };
type Row<Extra> = MembershipRow & (ProjectModel | { [K in keyof ProjectModel]: null }) & Extra;

/** The base write when the parent stays as stored, the project after (without members). */
const BASE_UPDATE = fixedStatement<
  Guard & ProjectDetails & { parentUid: string | null; allowed: number[] | null; now: Date }
>(
  'project_base_update_guarded',
  (arg, args) => Prisma.sql`
    ${membershipCte(arg('uid'), arg('principal'))}, updated AS (
      UPDATE projects p
      SET ${baseAssignments(args)}, base_revision = p.base_revision + 1, updated_at = ${arg('now')}::timestamptz
      WHERE p.uid = ${arg('uid')}::uuid
        AND (${arg('allowed')}::int[] IS NULL OR p.base_revision = ANY(${arg('allowed')}::int[]))
        AND p.parent_uid IS NOT DISTINCT FROM ${arg('parentUid')}::uuid
        AND ${writeGuard(arg('admin'))}
      RETURNING p.*
    )
    SELECT a.*, ${PROJECT_COLUMNS} FROM membership a LEFT JOIN updated p ON TRUE`,
);

/**
 * The settings write with exactly one If-Match revision, the project after with its new member
 * lists. Why one statement is right for that condition: writeSettings() in project-write.ts.
 */
const SETTINGS_UPDATE = fixedStatement<Guard & SettingsValues & MemberColumns & { revision: number }>(
  'project_settings_update_guarded',
  (arg, args) => Prisma.sql`
    ${membershipCte(arg('uid'), arg('principal'))}, updated AS (
      ${settingsUpdate(
        arg('uid'),
        args,
        Prisma.sql`settings_revision = ${arg('revision')}::int AND ${writeGuard(arg('admin'))}`,
        Prisma.sql`*`,
      )}
    ), ${membersReplacedAfterUpdate(arg('uid'), args)}
    SELECT a.*, ${PROJECT_COLUMNS}, ${membersOfRows(Prisma.sql`upserted`)}
    FROM membership a LEFT JOIN updated p ON TRUE`,
);

/** The create under a parent the caller may write (membershipCte is the parent's), the project with its members. */
const INSERT = fixedStatement<Omit<Guard, 'uid'> & InsertValues>('project_insert_guarded', (arg, args) =>
  insertStatement(
    args,
    Prisma.sql`*`,
    (insertMembers) => Prisma.sql`, added AS (
      ${insertMembers}
      RETURNING role, position, username, name, email, avatar
    )
    SELECT a.*, ${PROJECT_COLUMNS}, ${membersOfRows(Prisma.sql`added`)}
    FROM membership a LEFT JOIN inserted p ON TRUE`,
    { withItems: membershipCte(arg('parentUid'), arg('principal')), guard: writeGuard(arg('admin')) },
  ),
);

/** The delete of a project that is not the root, by a writer of its parent. */
const DELETE = fixedStatement<Guard & { allowed: number[] | null }>(
  'project_delete_guarded',
  (arg) => Prisma.sql`
    ${membershipCte(arg('uid'), arg('principal'))}, deleted AS (
      DELETE FROM projects p
      WHERE p.uid = ${arg('uid')}::uuid
        AND (${arg('allowed')}::int[] IS NULL OR p.base_revision = ANY(${arg('allowed')}::int[]))
        AND p.parent_uid IS NOT NULL
        AND ${writeParentGuard(arg('admin'))}
      RETURNING p.uid
    )
    SELECT a.*, (SELECT count(*) FROM deleted)::int AS deleted FROM membership a`,
);

const guardOf = (caller: Caller, uid: string): Guard => ({
  uid,
  principal: caller.principal,
  admin: caller.isAdmin,
});

/**
 * A statement that failed on a constraint (a slug taken, a parent gone, children left) wrote
 * nothing and returned no memberships: undefined, and the full path gives the answer.
 */
export async function unlessConstraint<T>(write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueConstraintViolation(error) || isForeignKeyConstraintViolation(error)) return undefined;
    throw error;
  }
}

/**
 * A guarded statement's one row as a GuardedWrite: its memberships, and what `written` makes of the
 * rest unless the rest is null (nothing was written). The events-on forms share it.
 */
export function guardedOf<Written, T>(
  row: (MembershipRow & { uid: string | null }) | undefined,
  written: (row: Written) => T,
): GuardedWrite<T> {
  return {
    membership: membershipOf(row),
    written: row && row.uid !== null ? written(row as Written) : undefined,
  };
}

export function updateBaseGuarded(
  run: RunStatement,
  caller: Caller,
  uid: string,
  update: ProjectBaseUpdate,
  allowed: number[] | undefined,
): Promise<GuardedWrite<ProjectCore> | undefined> {
  return unlessConstraint(async () => {
    const [row] = await run<Row<object>>(
      BASE_UPDATE.bind({
        ...guardOf(caller, uid),
        ...update,
        parentUid: update.parentUid ?? null,
        allowed: allowed ?? null,
        now: new Date(),
      }),
    );
    return guardedOf(row, projectCoreOf);
  });
}

export function updateSettingsGuarded(
  run: RunStatement,
  caller: Caller,
  uid: string,
  update: Parameters<typeof memberRows>[0] & Omit<SettingsValues, 'now'>,
  revision: number,
): Promise<GuardedWrite<Project> | undefined> {
  return unlessConstraint(async () => {
    const [row] = await run<Row<{ members: MemberRow[] }>>(
      SETTINGS_UPDATE.bind({
        ...guardOf(caller, uid),
        announcementDate: update.announcementDate,
        missionStatement: update.missionStatement,
        now: new Date(),
        ...memberColumns(memberRows(update)),
        revision,
      }),
    );
    return guardedOf(row, (model: ProjectModel) => projectOf({ ...model, members: row?.members ?? [] }));
  });
}

export function insertGuarded(
  run: RunStatement,
  caller: Caller,
  project: NewProject,
): Promise<GuardedWrite<Project> | undefined> {
  return unlessConstraint(async () => {
    const [row] = await run<Row<{ members: MemberRow[] }>>(
      INSERT.bind({
        principal: caller.principal,
        admin: caller.isAdmin,
        ...insertValues(randomUUID(), project),
      }),
    );
    return guardedOf(row, (model: ProjectModel) => projectOf({ ...model, members: row?.members ?? [] }));
  });
}

export function deleteGuarded(
  run: RunStatement,
  caller: Caller,
  uid: string,
  allowed: number[] | undefined,
): Promise<GuardedWrite<true> | undefined> {
  return unlessConstraint(async () => {
    const [row] = await run<MembershipRow & { deleted: number }>(
      DELETE.bind({ ...guardOf(caller, uid), allowed: allowed ?? null }),
    );
    return { membership: membershipOf(row), written: row && row.deleted > 0 ? true : undefined };
  });
}
