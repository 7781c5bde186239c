import { isForeignKeyConstraintViolation, isUniqueConstraintViolation } from '@repo/http-errors';
import type { ChainMembership } from '../domain/access';
import type { Caller } from '../domain/caller';
import type {
  DeleteOutcome,
  ListReader,
  ProjectReadout,
  ProjectStore,
  WriteOutcome,
} from '../domain/project-store';
import type {
  ListCursor,
  ListFilter,
  NewProject,
  Project,
  ProjectCore,
  ProjectBaseUpdate,
  ProjectSettingsUpdate,
} from '../domain/records';
import type { AllowedRevisions } from '../domain/revisions';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { statementsOf, type Database, type RunStatement } from './database';
import { MAX_DEPTH, membershipAlongChain } from './project-access';
import { projectsByUidIn, visibleKeysIn } from './project-list';
import type { ProjectChangeLog } from './project-change-log';
import { findProject, findProjectForUpdate, readProject, readProjectCore } from './project-read';
import {
  baseUpdateRecording,
  deleteRecording,
  insertProjectRecording,
  settingsWriteRecording,
} from './project-recorded-writes';
import { insertProject, writeSettings, writeSettingsReturning } from './project-write';
import { baseColumns } from './row-mappers';

/** How long a list snapshot (gob's two passes over the unpaged list) may stay open, and wait to open. */
const SNAPSHOT_TIMEOUT_MS = 60_000;
/**
 * Attempts of the one-statement settings write (events on) that another settings write overtook,
 * before the locking transaction; only writes without a single If-Match revision are ever overtaken
 * more than once.
 */
const SETTINGS_ATTEMPTS = 3;

function revisionCondition(allowed: AllowedRevisions): { in: number[] } | undefined {
  return allowed === undefined ? undefined : { in: allowed };
}

/**
 * The Prisma implementation of the domain's ProjectStore. With a change log (events on), each
 * common write is one statement that also returns the project after and records its event
 * (project-recorded-writes.ts); without, a write is its conditional statement, then the project
 * read back (the answer, or what tells a stale revision from a missing project).
 */
export class PrismaProjectStore implements ProjectStore {
  private readonly prisma: PrismaClient;
  /** The reads outside transactions: straight on pg on PostgreSQL (Database.query). */
  private readonly run: RunStatement;

  constructor(
    database: Pick<Database, 'prisma' | 'query'>,
    private readonly changes?: ProjectChangeLog,
  ) {
    this.prisma = database.prisma;
    this.run = database.query;
  }

  membership(uid: string, principal: string): Promise<ChainMembership | undefined> {
    return membershipAlongChain(this.run, uid, principal);
  }

  readCore(uid: string, principal: string): Promise<ProjectReadout<ProjectCore> | undefined> {
    return readProjectCore(this.run, uid, principal);
  }

  read(uid: string, principal: string): Promise<ProjectReadout<Project> | undefined> {
    return readProject(this.run, uid, principal);
  }

  async create(project: NewProject): Promise<WriteOutcome<Project>> {
    const changes = this.changes;
    if (changes) {
      const event = changes.plan('project.created');
      let created: Project;
      try {
        created = await insertProjectRecording(this.run, project, event);
      } catch (error) {
        return constraintOutcome(error);
      }
      changes.recorded(event);
      return { kind: 'written', value: created };
    }
    let uid: string;
    try {
      uid = await insertProject(this.prisma, project);
    } catch (error) {
      return constraintOutcome(error);
    }
    const created = await findProject(this.prisma, uid);
    // Deleted between the two statements (by a caller who could see it already): as if never made.
    return created ? { kind: 'written', value: created } : { kind: 'missing' };
  }

  async updateBase(
    uid: string,
    update: ProjectBaseUpdate,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<Project>> {
    try {
      const changes = this.changes;
      if (changes) {
        // The common case (the parent as stored): the write, the project after and the event in
        // one statement.
        const event = changes.plan('project.updated');
        const written = await baseUpdateRecording(this.run, uid, update, allowed, event);
        if (written) {
          changes.recorded(event);
          return { kind: 'written', value: written };
        }
        return await this.prisma.$transaction(async (transaction) => {
          const outcome = await baseUpdateWithParent(transaction, uid, update, allowed);
          if (outcome === 'cycle') return { kind: 'cycle' as const };
          const project = await findProject(transaction, uid);
          if (!project) return { kind: 'missing' as const };
          if (outcome === 0) return { kind: 'stale' as const };
          await changes.record(transaction, { type: 'project.updated', project });
          return { kind: 'written' as const, value: project };
        });
      }
      // The common case, the parent as stored: one conditional UPDATE, the parent's equality part
      // of its WHERE (a concurrent move makes it match nothing, and the path below decides).
      const count = await conditionalBaseUpdate(this.prisma, uid, update, allowed);
      if (count > 0) return this.afterConditionalWrite(uid, count);
      const outcome = await this.prisma.$transaction((transaction) =>
        baseUpdateWithParent(transaction, uid, update, allowed),
      );
      if (outcome === 'cycle') return { kind: 'cycle' };
      return this.afterConditionalWrite(uid, outcome);
    } catch (error) {
      return constraintOutcome(error);
    }
  }

  async updateSettings(
    uid: string,
    update: ProjectSettingsUpdate,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<Project>> {
    const changes = this.changes;
    if (changes) {
      for (let attempt = 0; attempt < SETTINGS_ATTEMPTS; attempt += 1) {
        const event = changes.plan('project.settings_updated');
        const outcome = await settingsWriteRecording(this.run, uid, update, allowed, event);
        if (outcome.kind === 'written') {
          changes.recorded(event);
          return { kind: 'written', value: outcome.project };
        }
        if (outcome.kind !== 'overtaken') return outcome;
      }
      // Overtaken again and again (concurrent writes without If-Match): wait for the lock instead.
      return this.prisma.$transaction(async (transaction) => {
        // The settings before, locked: the event's `previous` is exactly what this write replaced.
        const previous = await findProjectForUpdate(transaction, uid);
        if (!previous) return { kind: 'missing' as const };
        // The write and the project after, in one statement (the lock is held already).
        const project = await writeSettingsReturning(transaction, uid, update, allowed);
        if (!project) return { kind: 'stale' as const };
        await changes.record(transaction, { type: 'project.settings_updated', project, previous });
        return { kind: 'written' as const, value: project };
      });
    }
    const count = await writeSettings(this.prisma, uid, update, allowed);
    return this.afterConditionalWrite(uid, count);
  }

  /** After a conditional delete that deleted nothing: the project is still there (stale If-Match) or gone. */
  private async staleOrMissing(uid: string): Promise<DeleteOutcome> {
    return (await this.prisma.project.count({ where: { uid } })) > 0
      ? { kind: 'stale' }
      : { kind: 'missing' };
  }

  private async afterConditionalWrite(uid: string, count: number): Promise<WriteOutcome<Project>> {
    const project = await findProject(this.prisma, uid);
    if (!project) return { kind: 'missing' };
    return count === 0 ? { kind: 'stale' } : { kind: 'written', value: project };
  }

  async delete(uid: string, allowed: AllowedRevisions): Promise<DeleteOutcome> {
    const changes = this.changes;
    if (changes) {
      const event = changes.plan('project.deleted');
      try {
        if (await deleteRecording(this.run, uid, allowed, event)) {
          changes.recorded(event);
          return { kind: 'deleted' };
        }
      } catch (error) {
        if (isForeignKeyConstraintViolation(error)) return { kind: 'has-children' };
        throw error;
      }
      return this.staleOrMissing(uid);
    }
    try {
      const { count } = await this.prisma.project.deleteMany({
        where: { uid, baseRevision: revisionCondition(allowed) },
      });
      if (count > 0) return { kind: 'deleted' };
      return await this.staleOrMissing(uid);
    } catch (error) {
      // The parent foreign key is ON DELETE RESTRICT: children block the delete.
      if (isForeignKeyConstraintViolation(error)) return { kind: 'has-children' };
      throw error;
    }
  }

  visibleKeys(
    caller: Caller,
    filter: ListFilter,
    cursor: ListCursor | undefined,
    limit: number,
  ): Promise<ListCursor[]> {
    return visibleKeysIn(this.run, caller, filter, cursor, limit);
  }

  projectsByUid(uids: string[]): Promise<Project[]> {
    return projectsByUidIn(this.run, uids);
  }

  inSnapshot<T>(work: (reader: ListReader) => Promise<T>): Promise<T> {
    // REPEATABLE READ: every statement of the transaction sees the snapshot its first one took.
    return this.prisma.$transaction(
      (transaction) => {
        const run = statementsOf(transaction);
        return work({
          visibleKeys: (...args) => visibleKeysIn(run, ...args),
          projectsByUid: (uids) => projectsByUidIn(run, uids),
        });
      },
      {
        isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead,
        timeout: SNAPSHOT_TIMEOUT_MS,
        maxWait: SNAPSHOT_TIMEOUT_MS,
      },
    );
  }
}

/** The base write when the parent stays as stored: one conditional UPDATE; the number of rows written. */
async function conditionalBaseUpdate(
  client: PrismaClient | Prisma.TransactionClient,
  uid: string,
  update: ProjectBaseUpdate,
  allowed: AllowedRevisions,
): Promise<number> {
  const { count } = await client.project.updateMany({
    where: { uid, baseRevision: revisionCondition(allowed), parentUid: update.parentUid ?? null },
    data: { ...baseColumns(update), baseRevision: { increment: 1 }, updatedAt: new Date() },
  });
  return count;
}

/**
 * The base write that may move the project (or found the stored parent changed): the cycle check
 * and the conditional UPDATE, in the caller's transaction. The rows written, or 'cycle'.
 */
async function baseUpdateWithParent(
  transaction: Prisma.TransactionClient,
  uid: string,
  update: ProjectBaseUpdate,
  allowed: AllowedRevisions,
): Promise<number | 'cycle'> {
  const [current] = await transaction.$queryRaw<{ parent_uid: string | null }[]>`
    SELECT parent_uid::text AS parent_uid FROM projects WHERE uid = ${uid}::uuid`;
  // Only a move under another project can close a cycle.
  const newParent = update.parentUid;
  const moves = current !== undefined && newParent !== undefined && newParent !== current.parent_uid;
  if (moves) {
    // Moves are serialized: two concurrent moves (A under B, B under A) would each
    // pass a cycle check that only sees the committed tree.
    await transaction.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('project-service:tree-moves'))`;
    const [{ within } = { within: false }] = await transaction.$queryRaw<{ within: boolean }[]>`
      WITH RECURSIVE chain AS (
        SELECT uid, parent_uid, 0 AS depth FROM projects WHERE uid = ${newParent}::uuid
        UNION ALL
        SELECT p.uid, p.parent_uid, c.depth + 1 FROM projects p JOIN chain c ON p.uid = c.parent_uid
        WHERE c.depth < ${MAX_DEPTH}
      )
      SELECT EXISTS (SELECT 1 FROM chain WHERE uid = ${uid}::uuid) AS within`;
    if (within) return 'cycle';
  }
  // The If-Match check is part of the UPDATE's WHERE: check and write are one atomic statement.
  const { count } = await transaction.project.updateMany({
    where: { uid, baseRevision: revisionCondition(allowed) },
    data: {
      ...baseColumns(update),
      parentUid: update.parentUid ?? null,
      baseRevision: { increment: 1 },
      updatedAt: new Date(),
    },
  });
  return count;
}

function constraintOutcome(error: unknown): WriteOutcome<never> {
  if (isUniqueConstraintViolation(error)) return { kind: 'slug-taken' };
  if (isForeignKeyConstraintViolation(error)) return { kind: 'parent-missing' };
  throw error;
}
