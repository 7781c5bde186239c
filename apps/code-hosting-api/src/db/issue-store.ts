import type { IssueStore } from '../domain/issue-store';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { recordAction } from './action-store';
import { issueInclude, toIssue } from './row-mappers';

export function issueStore(prisma: PrismaClient): IssueStore {
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
      const row = await prisma.issue.findUnique({
        where: { repoId_index: { repoId: BigInt(repoId), index: BigInt(index) } },
        include: issueInclude,
      });
      return row ? toIssue(row) : undefined;
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
