import type { IssueStore } from '../domain/issue-store';
import { Prisma } from '../generated/prisma/client';
import { ACCOUNT_COLUMNS } from './account-store';
import { fixedStatement } from './prepared-statements';
import type { StoreDatabase } from './store-database';
import { recordAction } from './action-store';
import { issueInclude, toIssue, toIssueOfRow, type IssueRow } from './row-mappers';

/**
 * An issue by its repository and index, with its poster (ACCOUNT_COLUMNS of `a`) and its
 * attachments oldest first, in one named statement (before: three of Prisma's). Every issue and
 * attachment request under /repos/{owner}/{repo}/issues/{index} reads it.
 */
const ISSUE_BY_INDEX = fixedStatement<{ repoId: number; index: number }>(
  'issue_by_index',
  (arg) => Prisma.sql`
    SELECT i.id AS "id", i.repo_id AS "repoId", i.index AS "index", i.title AS "title", i.body AS "body",
      i.is_closed AS "isClosed", i.is_pull AS "isPull", i.head_branch AS "headBranch",
      i.base_branch AS "baseBranch", i.closed_at AS "closedAt", i.created_at AS "createdAt",
      i.updated_at AS "updatedAt",
      (SELECT row_to_json(p) FROM (SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = i.poster_id) p) AS "poster",
      (SELECT coalesce(json_agg(json_build_object(
          'id', t.id, 'uuid', t.uuid, 'repoId', t.repo_id, 'issueId', t.issue_id, 'uploaderId', t.uploader_id,
          'name', t.name, 'contentType', t.content_type, 'size', t.size, 'downloadCount', t.download_count,
          'createdAt', t.created_at) ORDER BY t.id), '[]'::json)
        FROM attachments t WHERE t.issue_id = i.id) AS "attachments"
    FROM issues i
    WHERE i.repo_id = ${arg('repoId')}::bigint AND i.index = ${arg('index')}::bigint`,
);

export function issueStore({ prisma, query }: StoreDatabase): IssueStore {
  return {
    async createIssue(issue, action) {
      return prisma.$transaction(async (tx) => {
        // Row-locking increment: concurrent creations get distinct, gap-free indexes.
        const repository = await tx.repository.update({
          where: { id: BigInt(issue.repoId) },
          data: { lastIssueIndex: { increment: 1 } },
          select: { lastIssueIndex: true },
        });
        const row = await tx.issue.create({
          data: {
            repoId: BigInt(issue.repoId),
            index: repository.lastIssueIndex,
            posterId: BigInt(issue.posterId),
            title: issue.title,
            body: issue.body,
            isPull: issue.isPull,
            headBranch: issue.headBranch,
            baseBranch: issue.baseBranch,
          },
          include: issueInclude,
        });
        await recordAction(tx, issue.repoId, action(Number(repository.lastIssueIndex)));
        return toIssue(row);
      });
    },

    async findIssue(repoId, index) {
      const [row] = await query<IssueRow>(ISSUE_BY_INDEX.bind({ repoId, index }));
      return row ? toIssueOfRow(row) : undefined;
    },

    async listIssues(repoId, filter, offset, limit) {
      const where: Prisma.IssueWhereInput = { repoId: BigInt(repoId) };
      if (filter.state !== 'all') where.isClosed = filter.state === 'closed';
      if (filter.kind !== 'all') where.isPull = filter.kind === 'pulls';
      const [rows, total] = await Promise.all([
        prisma.issue.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: offset,
          take: limit,
          include: issueInclude,
        }),
        prisma.issue.count({ where }),
      ]);
      return { items: rows.map(toIssue), total };
    },

    async updateIssue(issue, changes, action) {
      return prisma.$transaction(async (tx) => {
        const row = await tx.issue.update({
          where: { id: BigInt(issue.id) },
          data: changes,
          include: issueInclude,
        });
        if (action) await recordAction(tx, issue.repoId, action);
        return toIssue(row);
      });
    },
  };
}
