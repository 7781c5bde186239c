import type { AccountStore } from '../domain/account-store';
import type { PrismaClient } from '../generated/prisma/client';
import { toAccount } from './row-mappers';
import { unlessNameTaken } from './write-outcome';

export function accountStore(prisma: PrismaClient): AccountStore {
  return {
    async findAccountByName(name) {
      const row = await prisma.account.findUnique({ where: { lowerName: name.toLowerCase() } });
      return row ? toAccount(row) : undefined;
    },

    async findAccountById(id) {
      const row = await prisma.account.findUnique({ where: { id: BigInt(id) } });
      return row ? toAccount(row) : undefined;
    },

    async findUserCredentials(name) {
      const row = await prisma.account.findUnique({ where: { lowerName: name.toLowerCase() } });
      if (!row || row.type !== 'user') return undefined;
      return { account: toAccount(row), passwordHash: row.passwordHash ?? undefined };
    },

    async anyAdminExists() {
      return (await prisma.account.count({ where: { isAdmin: true, type: 'user' } })) > 0;
    },

    async createUser(account) {
      return unlessNameTaken(async () =>
        toAccount(
          await prisma.account.create({ data: { ...account, lowerName: account.name.toLowerCase() } }),
        ),
      );
    },

    async recordLogin(accountId) {
      await prisma.account.update({ where: { id: BigInt(accountId) }, data: { lastLoginAt: new Date() } });
    },

    async updateAccount(id, changes) {
      const row = await prisma.account.update({ where: { id: BigInt(id) }, data: changes });
      return toAccount(row);
    },

    async setPasswordHash(id, passwordHash) {
      await prisma.account.update({ where: { id: BigInt(id) }, data: { passwordHash } });
    },

    async renameAccount(id, expectedName, newName) {
      return unlessNameTaken(async () => {
        // Conditional on the name the caller read: of concurrent renames, the first to
        // lock the row wins; the others re-read it under the lock, find another name
        // and match nothing (PostgreSQL re-evaluates the condition on the new row).
        const [row] = await prisma.account.updateManyAndReturn({
          where: { id: BigInt(id), lowerName: expectedName.toLowerCase() },
          data: { name: newName, lowerName: newName.toLowerCase() },
        });
        return row ? toAccount(row) : undefined;
      });
    },
  };
}
