import type { AccountStore } from '../domain/store';
import type { PrismaClient } from '../generated/prisma/client';
import { toAccount } from './row-mappers';
import { unlessNameTaken } from './write-outcome';

export function accountStore(prisma: PrismaClient): AccountStore {
  return {
    async findAccountByName(name) {
      const row = await prisma.account.findUnique({ where: { lowerName: name.toLowerCase() } });
      return row && toAccount(row);
    },

    async findAccountById(id) {
      const row = await prisma.account.findUnique({ where: { id: BigInt(id) } });
      return row && toAccount(row);
    },

    async findUserCredentials(name) {
      const row = await prisma.account.findUnique({ where: { lowerName: name.toLowerCase() } });
      if (!row || row.type !== 'user') return null;
      return { account: toAccount(row), passwordHash: row.passwordHash };
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

    async renameAccount(id, newName) {
      return unlessNameTaken(async () => {
        const row = await prisma.account.update({
          where: { id: BigInt(id) },
          data: { name: newName, lowerName: newName.toLowerCase() },
        });
        return toAccount(row);
      });
    },
  };
}
