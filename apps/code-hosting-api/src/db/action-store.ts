import type { ActionType } from '../domain/records';
import type { ActionStore } from '../domain/store';
import type { Account, Action, Prisma, PrismaClient } from '../generated/prisma/client';
import { toAccount, toRepositories } from './row-mappers';

export function actionStore(prisma: PrismaClient): ActionStore {
  return {
    /** Feed of the organization's repositories, newest first. */
    async listOrganizationFeed(orgId, filter, offset, limit) {
      const where: Prisma.ActionWhereInput = { repository: { ownerId: BigInt(orgId) } };
      if (!filter.includePrivate) where.isPrivate = false;
      if (filter.from && filter.to) where.createdAt = { gte: filter.from, lt: filter.to };
      const [rows, total] = await Promise.all([
        prisma.action.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: offset,
          take: limit,
          include: { actUser: true, repository: { include: { owner: true } } },
        }),
        prisma.action.count({ where }),
      ]);
      const repositories = await toRepositories(
        prisma,
        rows.map((row) => row.repository),
      );
      return {
        items: rows.map((row: Action & { actUser: Account }, position) => ({
          id: Number(row.id),
          actUser: toAccount(row.actUser),
          opType: row.opType as ActionType,
          repository: repositories[position]!,
          isPrivate: row.isPrivate,
          content: row.content,
          refName: row.refName,
          createdAt: row.createdAt,
        })),
        total,
      };
    },
  };
}
