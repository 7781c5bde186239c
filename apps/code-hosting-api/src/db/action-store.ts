import type { AccessLevel, ActionType } from '../domain/records';
import type { ActionStore, NewAction } from '../domain/action-store';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { toAccount, toRepositories, type Client } from './row-mappers';

/** Records a feed entry of the repository, inside the caller's transaction. */
export async function recordAction(
  client: Client,
  repoId: number | bigint,
  action: NewAction,
): Promise<void> {
  await client.action.create({
    data: { ...action, actUserId: BigInt(action.actUserId), repoId: BigInt(repoId) },
  });
}

export function actionStore(prisma: PrismaClient): ActionStore {
  return {
    /** Feed of the organization's repositories, newest first, with the viewer's collaborations. */
    async listOrganizationFeed(orgId, filter, viewerId, offset, limit) {
      const where: Prisma.ActionWhereInput = { repository: { ownerId: BigInt(orgId) } };
      if (!filter.includePrivate) where.isPrivate = false;
      if (filter.from && filter.to) where.createdAt = { gte: filter.from, lt: filter.to };
      // The viewer's collaborations load with the page (one statement for all its repositories).
      const collaborations =
        viewerId === undefined ? (false as const) : { where: { accountId: BigInt(viewerId) } };
      const [rows, total] = await Promise.all([
        prisma.action.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: offset,
          take: limit,
          include: { actUser: true, repository: { include: { owner: true, collaborations } } },
        }),
        prisma.action.count({ where }),
      ]);
      const repositories = await toRepositories(
        prisma,
        rows.map((row) => row.repository),
      );
      return {
        items: rows.map((row, position) => ({
          action: {
            id: Number(row.id),
            actUser: toAccount(row.actUser),
            opType: row.opType as ActionType,
            repository: repositories[position]!,
            isPrivate: row.isPrivate,
            content: row.content,
            refName: row.refName,
            createdAt: row.createdAt,
          },
          viewerCollaboration:
            (row.repository.collaborations?.[0]?.permission as AccessLevel | undefined) ?? 'none',
        })),
        total,
      };
    },
  };
}
