import type { AccessLevel } from '../domain/records';
import type { RepositoryStore } from '../domain/repository-store';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { recordAction } from './action-store';
import type { ChangeLog } from './change-log';
import { toAttachment, toRepositories, toRepository } from './row-mappers';
import { unlessNameTaken } from './write-outcome';

export function repositoryStore(prisma: PrismaClient, changes?: ChangeLog): RepositoryStore {
  return {
    async createRepository(repository, { collaborator, action }) {
      return unlessNameTaken(() =>
        prisma.$transaction(async (tx) => {
          const row = await tx.repository.create({
            data: {
              ownerId: BigInt(repository.ownerId),
              name: repository.name,
              lowerName: repository.name.toLowerCase(),
              description: repository.description,
              website: repository.website,
              isPrivate: repository.isPrivate,
            },
            include: { owner: true },
          });
          if (collaborator) {
            await tx.collaboration.create({
              data: {
                repoId: row.id,
                accountId: BigInt(collaborator.accountId),
                permission: collaborator.permission,
              },
            });
          }
          await recordAction(tx, row.id, action);
          return toRepository(row, { issues: 0, pulls: 0 });
        }),
      );
    },

    async findRepository(ownerName, name) {
      const row = await prisma.repository.findFirst({
        where: { owner: { lowerName: ownerName.toLowerCase() }, lowerName: name.toLowerCase() },
        include: { owner: true },
      });
      return row ? (await toRepositories(prisma, [row]))[0]! : undefined;
    },

    async findRepositoryById(id) {
      const row = await prisma.repository.findUnique({ where: { id: BigInt(id) }, include: { owner: true } });
      return row ? (await toRepositories(prisma, [row]))[0]! : undefined;
    },

    async repositoryNameTaken(ownerId, name) {
      return (
        (await prisma.repository.count({
          where: { ownerId: BigInt(ownerId), lowerName: name.toLowerCase() },
        })) > 0
      );
    },

    async updateRepository(id, changes, { action, feedPrivacy }) {
      return unlessNameTaken(() =>
        prisma.$transaction(async (tx) => {
          const { name, ...rest } = changes;
          const data: Prisma.RepositoryUpdateInput = { ...rest };
          if (name !== undefined) Object.assign(data, { name, lowerName: name.toLowerCase() });
          const row = await tx.repository.update({
            where: { id: BigInt(id) },
            data,
            include: { owner: true },
          });
          if (feedPrivacy !== undefined) {
            await tx.action.updateMany({ where: { repoId: row.id }, data: { isPrivate: feedPrivacy } });
          }
          if (action) await recordAction(tx, row.id, action);
          return (await toRepositories(tx, [row]))[0]!;
        }),
      );
    },

    async deleteRepository(id) {
      if (!changes) {
        await prisma.repository.delete({ where: { id: BigInt(id) } });
        return;
      }
      // The repository's attachments go with it (ON DELETE CASCADE): deleted here first, so each
      // has its attachment.deleted event, as a DELETE of the attachment itself would record.
      await prisma.$transaction(async (tx) => {
        // The repository's row locked first: an upload in flight (its INSERT holds a key-share lock
        // on it) commits before, a later one waits and then finds no repository.
        await tx.$executeRaw`SELECT 1 FROM repositories WHERE id = ${BigInt(id)} FOR UPDATE`;
        const attachments = await tx.attachment.findMany({ where: { repoId: BigInt(id) } });
        await tx.repository.delete({ where: { id: BigInt(id) } });
        // In the snapshot's lock order (the id as text, byte order): the two never wait on each other in a cycle.
        const ordered = attachments.sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
        for (const row of ordered) await changes.attachmentDeleted(tx, toAttachment(row));
      });
    },

    async setCollaborator(repoId, accountId, permission) {
      await prisma.collaboration.upsert({
        where: { repoId_accountId: { repoId: BigInt(repoId), accountId: BigInt(accountId) } },
        create: { repoId: BigInt(repoId), accountId: BigInt(accountId), permission },
        update: { permission },
      });
    },

    async collaboratorLevel(repoId, accountId) {
      const row = await prisma.collaboration.findUnique({
        where: { repoId_accountId: { repoId: BigInt(repoId), accountId: BigInt(accountId) } },
      });
      return (row?.permission as AccessLevel | undefined) ?? 'none';
    },
  };
}
