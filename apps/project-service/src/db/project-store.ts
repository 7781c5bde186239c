import { isForeignKeyConstraintViolation, isUniqueConstraintViolation } from '@repo/http-errors';
import type { ChainMembership } from '../domain/access';
import type { Caller } from '../domain/caller';
import type { DeleteOutcome, ListReader, ProjectStore, WriteOutcome } from '../domain/project-store';
import type {
  ListCursor,
  ListFilter,
  NewProject,
  Project,
  ProjectBaseUpdate,
  ProjectSettingsUpdate,
} from '../domain/records';
import type { AllowedRevisions } from '../domain/revisions';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import {
  baseColumns,
  memberRows,
  newProjectData,
  projectOf,
  settingsColumns,
  withMembers,
} from './row-mappers';

// A guard against walking forever should a cycle ever reach the table.
const MAX_DEPTH = 1000;

/** How long a list snapshot (gob's two passes over the unpaged list) may stay open, and wait to open. */
const SNAPSHOT_TIMEOUT_MS = 60_000;

function revisionCondition(allowed: AllowedRevisions): { in: number[] } | undefined {
  return allowed === undefined ? undefined : { in: allowed };
}

interface MembershipRow {
  found: bigint | number;
  is_public: boolean | null;
  writer_of_chain: boolean | null;
  writer_of_ancestors: boolean | null;
  auditor_of_chain: boolean | null;
}

/** The Prisma implementation of the domain's ProjectStore. */
export class PrismaProjectStore implements ProjectStore {
  constructor(private readonly prisma: PrismaClient) {}

  async membership(uid: string, principal: string): Promise<ChainMembership | undefined> {
    // The whole ancestor chain and the caller's roles along it, in one statement.
    const rows = await this.prisma.$queryRaw<MembershipRow[]>`
      WITH RECURSIVE chain AS (
        SELECT uid, parent_uid, public, 0 AS depth FROM projects WHERE uid = ${uid}::uuid
        UNION ALL
        SELECT p.uid, p.parent_uid, p.public, c.depth + 1
        FROM projects p JOIN chain c ON p.uid = c.parent_uid
        WHERE c.depth < ${MAX_DEPTH}
      )
      SELECT
        count(*) AS found,
        bool_or(c.depth = 0 AND c.public) AS is_public,
        coalesce(bool_or(m.role = 'writer'), false) AS writer_of_chain,
        coalesce(bool_or(m.role = 'writer' AND c.depth > 0), false) AS writer_of_ancestors,
        coalesce(bool_or(m.role = 'auditor'), false) AS auditor_of_chain
      FROM chain c
      LEFT JOIN project_members m
        ON m.project_uid = c.uid AND m.username = ${principal} AND m.role IN ('writer', 'auditor')`;
    const row = rows[0];
    if (!row || Number(row.found) === 0) return undefined;
    return {
      isPublic: row.is_public === true,
      writerOfChain: row.writer_of_chain === true,
      writerOfAncestors: row.writer_of_ancestors === true,
      auditorOfChain: row.auditor_of_chain === true,
    };
  }

  async find(uid: string): Promise<Project | undefined> {
    const row = await this.prisma.project.findUnique({ where: { uid }, include: withMembers });
    return row ? projectOf(row) : undefined;
  }

  async create(project: NewProject): Promise<WriteOutcome<Project>> {
    try {
      const row = await this.prisma.project.create({ data: newProjectData(project), include: withMembers });
      return { kind: 'written', value: projectOf(row) };
    } catch (error) {
      return constraintOutcome(error);
    }
  }

  async updateBase(
    uid: string,
    update: ProjectBaseUpdate,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<Project>> {
    try {
      const outcome = await this.prisma.$transaction(async (transaction) => {
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
          if (within) return 'cycle' as const;
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
      });
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
    const count = await this.prisma.$transaction(async (transaction) => {
      // The conditional UPDATE locks the row, so a concurrent writer with the same
      // If-Match waits, then sees the new revision and updates nothing.
      const { count: updated } = await transaction.project.updateMany({
        where: { uid, settingsRevision: revisionCondition(allowed) },
        data: {
          ...settingsColumns(update),
          settingsRevision: { increment: 1 },
          settingsUpdatedAt: new Date(),
        },
      });
      if (updated === 0) return 0;
      await transaction.projectMember.deleteMany({ where: { projectUid: uid } });
      await transaction.projectMember.createMany({
        data: memberRows(update).map((member) => ({ projectUid: uid, ...member })),
      });
      return updated;
    });
    return this.afterConditionalWrite(uid, count);
  }

  private async afterConditionalWrite(uid: string, count: number): Promise<WriteOutcome<Project>> {
    const project = await this.find(uid);
    if (!project) return { kind: 'missing' };
    return count === 0 ? { kind: 'stale' } : { kind: 'written', value: project };
  }

  async delete(uid: string, allowed: AllowedRevisions): Promise<DeleteOutcome> {
    try {
      const { count } = await this.prisma.project.deleteMany({
        where: { uid, baseRevision: revisionCondition(allowed) },
      });
      if (count > 0) return { kind: 'deleted' };
      return (await this.prisma.project.count({ where: { uid } })) > 0
        ? { kind: 'stale' }
        : { kind: 'missing' };
    } catch (error) {
      // The parent foreign key is ON DELETE RESTRICT: children block the delete.
      if (isForeignKeyConstraintViolation(error)) return { kind: 'has-children' };
      throw error;
    }
  }

  listVisible(
    caller: Caller,
    filter: ListFilter,
    cursor: ListCursor | undefined,
    limit: number,
  ): Promise<Project[]> {
    return listVisibleIn(this.prisma, caller, filter, cursor, limit);
  }

  inSnapshot<T>(work: (reader: ListReader) => Promise<T>): Promise<T> {
    // REPEATABLE READ: every statement of the transaction sees the snapshot its first one took.
    return this.prisma.$transaction(
      (transaction) => work({ listVisible: (...args) => listVisibleIn(transaction, ...args) }),
      {
        isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead,
        timeout: SNAPSHOT_TIMEOUT_MS,
        maxWait: SNAPSHOT_TIMEOUT_MS,
      },
    );
  }
}

/** One page of the projects the caller may view, in list order, after `cursor`. */
async function listVisibleIn(
  client: Prisma.TransactionClient,
  caller: Caller,
  filter: ListFilter,
  cursor: ListCursor | undefined,
  limit: number,
): Promise<Project[]> {
  const conditions: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (!caller.isAdmin) conditions.push(Prisma.sql`(p.public OR p.uid IN (SELECT uid FROM granted))`);
  if (filter.parentUid !== undefined) conditions.push(Prisma.sql`p.parent_uid = ${filter.parentUid}::uuid`);
  if (filter.slug !== undefined) conditions.push(Prisma.sql`p.slug = ${filter.slug}`);
  if (filter.stage !== undefined) conditions.push(Prisma.sql`p.stage = ${filter.stage}`);
  if (filter.category !== undefined) conditions.push(Prisma.sql`p.category = ${filter.category}`);
  if (filter.public !== undefined) conditions.push(Prisma.sql`p.public = ${filter.public}`);
  if (cursor) {
    // Keyset pagination in the list order; "C" collation makes the order identical on every server.
    conditions.push(
      Prisma.sql`(p.name COLLATE "C" > ${cursor.name} COLLATE "C" OR (p.name = ${cursor.name} AND p.uid > ${cursor.uid}::uuid))`,
    );
  }
  // `granted`: the projects where the caller is a writer or auditor, and all their
  // descendants (roles flow down). Viewer = public or in granted: the SQL form of accessOf().view.
  const rows = await client.$queryRaw<{ uid: string }[]>`
    WITH RECURSIVE granted AS (
      SELECT project_uid AS uid FROM project_members
      WHERE username = ${caller.principal} AND role IN ('writer', 'auditor')
      UNION
      SELECT child.uid FROM projects child JOIN granted g ON child.parent_uid = g.uid
    )
    SELECT p.uid::text AS uid FROM projects p
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY p.name COLLATE "C", p.uid
    LIMIT ${limit}`;
  if (rows.length === 0) return [];
  const uids = rows.map((row) => row.uid);
  const projects = await client.project.findMany({
    where: { uid: { in: uids } },
    include: withMembers,
  });
  const byUid = new Map(projects.map((row) => [row.uid, row]));
  // A row deleted between the two queries is simply left out.
  return uids.flatMap((uid) => {
    const row = byUid.get(uid);
    return row ? [projectOf(row)] : [];
  });
}

function constraintOutcome(error: unknown): WriteOutcome<never> {
  if (isUniqueConstraintViolation(error)) return { kind: 'slug-taken' };
  if (isForeignKeyConstraintViolation(error)) return { kind: 'parent-missing' };
  throw error;
}
