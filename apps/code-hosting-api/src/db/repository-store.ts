import type { AccessLevel } from '../domain/records';
import type { RepositoryStore } from '../domain/store';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { toRepositories, toRepository } from './row-mappers';

export function repositoryStore(prisma: PrismaClient): RepositoryStore {
  return {
    async createRepository(repository, creatorId, creatorCollaboration) {
      return prisma.$transaction(async (tx) => {
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
        if (creatorCollaboration) {
          await tx.collaboration.create({
            data: { repoId: row.id, accountId: BigInt(creatorId), permission: creatorCollaboration },
          });
        }
        await tx.action.create({
          data: {
            actUserId: BigInt(creatorId),
            opType: 'create_repo',
            repoId: row.id,
            isPrivate: row.isPrivate,
          },
        });
        return toRepository(row, { issues: 0, pulls: 0 });
      });
    },

    async findRepository(ownerName, name) {
      const row = await prisma.repository.findFirst({
        where: { owner: { lowerName: ownerName.toLowerCase() }, lowerName: name.toLowerCase() },
        include: { owner: true },
      });
      return row && (await toRepositories(prisma, [row]))[0]!;
    },

    async repositoryNameTaken(ownerId, name) {
      return (
        (await prisma.repository.count({
          where: { ownerId: BigInt(ownerId), lowerName: name.toLowerCase() },
        })) > 0
      );
    },

    async updateRepository(id, changes, rename) {
      return prisma.$transaction(async (tx) => {
        const data: Prisma.RepositoryUpdateInput = {
          description: changes.description,
          website: changes.website,
          isPrivate: changes.isPrivate,
        };
        if (changes.name !== undefined) {
          data.name = changes.name;
          data.lowerName = changes.name.toLowerCase();
        }
        if (changes.isArchived !== undefined) {
          data.isArchived = changes.isArchived;
          data.archivedAt = changes.isArchived ? new Date() : null;
        }
        const row = await tx.repository.update({ where: { id: BigInt(id) }, data, include: { owner: true } });
        // Entries follow the repository's privacy, so a repository made private hides its history.
        if (changes.isPrivate !== undefined) {
          await tx.action.updateMany({ where: { repoId: row.id }, data: { isPrivate: changes.isPrivate } });
        }
        if (rename) {
          await tx.action.create({
            data: {
              actUserId: BigInt(rename.actorId),
              opType: 'rename_repo',
              repoId: row.id,
              isPrivate: row.isPrivate,
              content: rename.oldName,
            },
          });
        }
        return (await toRepositories(tx, [row]))[0]!;
      });
    },

    async deleteRepository(id) {
      await prisma.repository.delete({ where: { id: BigInt(id) } });
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
