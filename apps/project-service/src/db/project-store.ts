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
import { writeSettingsReturning } from './project-write';
import type { PlannedEvent } from './outbox';
import { baseColumns } from './row-mappers';

/** How long a list snapshot (gob's two passes over the unpaged list) may stay open, and wait to open. */
const SNAPSHOT_TIMEOUT_MS = 60_000;

function revisionCondition(allowed: AllowedRevisions): { in: number[] } | undefined {
  return allowed === undefined ? undefined : { in: allowed };
}

/**
 * The Prisma implementation of the domain's ProjectStore. Each common write is one statement that
 * also returns the project after and, with a change log (events on), records its event
 * (project-recorded-writes.ts); events on or off, the same path runs.
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
    const event = this.changes?.plan('project.created');
    let created: Project;
    try {
      created = await insertProjectRecording(this.run, project, event);
    } catch (error) {
      return constraintOutcome(error);
    }
    this.recorded(event);
    return { kind: 'written', value: created };
  }

  async updateBase(
    uid: string,
    update: ProjectBaseUpdate,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<Project>> {
    try {
      // The common case (the parent as stored): the write, the project after and (events on) the
      // event in one statement.
      const event = this.changes?.plan('project.updated');
      const written = await baseUpdateRecording(this.run, uid, update, allowed, event);
      if (written) {
        this.recorded(event);
        return { kind: 'written', value: written };
      }
      // A move, a stale revision or a missing project: the transaction that serializes moves.
      return await this.prisma.$transaction(async (transaction) => {
        const outcome = await baseUpdateWithParent(transaction, uid, update, allowed);
        if (outcome === 'cycle') return { kind: 'cycle' as const };
        const project = await findProject(transaction, uid);
        if (!project) return { kind: 'missing' as const };
        if (outcome === 0) return { kind: 'stale' as const };
        await this.changes?.record(transaction, { type: 'project.updated', project });
        return { kind: 'written' as const, value: project };
      });
    } catch (error) {
      return constraintOutcome(error);
    }
  }

  async updateSettings(
    uid: string,
    update: ProjectSettingsUpdate,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<Project>> {
    const event = this.changes?.plan('project.settings_updated');
    const outcome = await settingsWriteRecording(this.run, uid, update, allowed, event);
    if (outcome.kind === 'written') {
      this.recorded(event);
      return { kind: 'written', value: outcome.project };
    }
    if (outcome.kind !== 'overtaken') return outcome;
    // Overtaken: another settings write committed since the statement's snapshot, and this one
    // may still apply (no If-Match, or several revisions). Contended, so wait for the row's lock:
    // trying the statement again would most often be overtaken again.
    return this.prisma.$transaction(async (transaction) => {
      // The settings before, locked: the event's `previous` is exactly what this write replaced.
      const previous = await findProjectForUpdate(transaction, uid);
      if (!previous) return { kind: 'missing' as const };
      // The write and the project after, in one statement (the lock is held already).
      const project = await writeSettingsReturning(transaction, uid, update, allowed);
      if (!project) return { kind: 'stale' as const };
      await this.changes?.record(transaction, { type: 'project.settings_updated', project, previous });
      return { kind: 'written' as const, value: project };
    });
  }

  async delete(uid: string, allowed: AllowedRevisions): Promise<DeleteOutcome> {
    const event = this.changes?.plan('project.deleted');
    try {
      if (await deleteRecording(this.run, uid, allowed, event)) {
        this.recorded(event);
        return { kind: 'deleted' };
      }
    } catch (error) {
      // The parent foreign key is ON DELETE RESTRICT: children block the delete.
      if (isForeignKeyConstraintViolation(error)) return { kind: 'has-children' };
      throw error;
    }
    // Nothing deleted: the project is still there (a stale If-Match) or gone.
    return (await this.prisma.project.count({ where: { uid } })) > 0
      ? { kind: 'stale' }
      : { kind: 'missing' };
  }

  /** A write's statement recorded its planned event (events on): the request waits for it (X-Sync). */
  private recorded(event: PlannedEvent | undefined): void {
    if (event) this.changes?.recorded(event);
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
