import type { AccessLevel } from '../domain/records';
import type { RepositoryStore } from '../domain/repository-store';
import { Prisma } from '../generated/prisma/client';
import { ACCOUNT_COLUMNS } from './account-store';
import { fixedStatement } from './prepared-statements';
import type { StoreDatabase } from './store-database';
import { recordAction } from './action-store';
import { attachmentPlaces } from './attachment-places';
import type { ChangeLog } from './change-log';
import { toAttachment, toRepositories, toRepository, type AccountRow, type Int8 } from './row-mappers';
import { unlessNameTaken } from './write-outcome';

/** Columns of a repository `r`, prefixed, beside its owner's (ACCOUNT_COLUMNS of `a`). */
type RepositoryByNameRow = AccountRow & {
  repoId: Int8;
  repoName: string;
  repoLowerName: string;
  repoDescription: string;
  repoWebsite: string;
  repoIsPrivate: boolean;
  repoIsArchived: boolean;
  repoArchivedAt: Date | null;
  repoCreatedAt: Date;
  repoUpdatedAt: Date;
  openIssues: Int8;
  openPulls: Int8;
};

/**
 * Every request under /repos/{owner}/{repo} finds the repository first: the repository, its owner
 * and its open issue and pull request counts in one named statement (before: three of Prisma's).
 */
const REPOSITORY_BY_NAME = fixedStatement<{ ownerLowerName: string; lowerName: string }>(
  'repository_by_name',
  (arg) => Prisma.sql`
    SELECT ${ACCOUNT_COLUMNS},
      r.id AS "repoId", r.name AS "repoName", r.lower_name AS "repoLowerName",
      r.description AS "repoDescription", r.website AS "repoWebsite", r.is_private AS "repoIsPrivate",
      r.is_archived AS "repoIsArchived", r.archived_at AS "repoArchivedAt",
      r.created_at AS "repoCreatedAt", r.updated_at AS "repoUpdatedAt",
      (SELECT count(*) FROM issues i WHERE i.repo_id = r.id AND NOT i.is_closed AND NOT i.is_pull) AS "openIssues",
      (SELECT count(*) FROM issues i WHERE i.repo_id = r.id AND NOT i.is_closed AND i.is_pull) AS "openPulls"
    FROM accounts a JOIN repositories r ON r.owner_id = a.id
    WHERE a.lower_name = ${arg('ownerLowerName')} AND r.lower_name = ${arg('lowerName')}`,
);

/** A member of an organization's team asks it on every repository request: named. */
const COLLABORATOR_LEVEL = fixedStatement<{ repoId: number; accountId: number }>(
  'collaborator_level',
  (arg) => Prisma.sql`
    SELECT permission AS "permission" FROM collaborations
    WHERE repo_id = ${arg('repoId')}::bigint AND account_id = ${arg('accountId')}::bigint`,
);

function repositoryOfRow(row: RepositoryByNameRow) {
  return toRepository(
    {
      id: row.repoId,
      owner: row,
      name: row.repoName,
      lowerName: row.repoLowerName,
      description: row.repoDescription,
      website: row.repoWebsite,
      isPrivate: row.repoIsPrivate,
      isArchived: row.repoIsArchived,
      archivedAt: row.repoArchivedAt,
      createdAt: row.repoCreatedAt,
      updatedAt: row.repoUpdatedAt,
    },
    { issues: Number(row.openIssues), pulls: Number(row.openPulls) },
  );
}

export function repositoryStore({ prisma, query }: StoreDatabase, changes?: ChangeLog): RepositoryStore {
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
      const [row] = await query<RepositoryByNameRow>(
        REPOSITORY_BY_NAME.bind({ ownerLowerName: ownerName.toLowerCase(), lowerName: name.toLowerCase() }),
      );
      return row ? repositoryOfRow(row) : undefined;
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
        const attachments = (await tx.attachment.findMany({ where: { repoId: BigInt(id) } })).map(
          toAttachment,
        );
        // Where they were, read before the repository and its issues go.
        const places = await attachmentPlaces(tx, attachments);
        await tx.repository.delete({ where: { id: BigInt(id) } });
        // In the snapshot's lock order (the id as text, byte order): the two never wait on each other in a cycle.
        const ordered = attachments
          .map((attachment, index) => ({ attachment, place: places[index]! }))
          .sort((a, b) => (String(a.attachment.id) < String(b.attachment.id) ? -1 : 1));
        for (const { attachment, place } of ordered) await changes.attachmentDeleted(tx, attachment, place);
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
      const [row] = await query<{ permission: AccessLevel }>(COLLABORATOR_LEVEL.bind({ repoId, accountId }));
      return row?.permission ?? 'none';
    },
  };
}
