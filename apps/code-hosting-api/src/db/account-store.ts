import type { AccountChanges, AccountStore } from '../domain/account-store';
import type { AccountRecord } from '../domain/records';
import type { PrismaClient } from '../generated/prisma/client';
import type { Transaction } from './change-log';
import { toAccount } from './row-mappers';
import { unlessNameTaken } from './write-outcome';

/** Applies `changes` to the account; users and organizations alike. */
export async function updateAccountRow(
  client: PrismaClient | Transaction,
  id: number,
  changes: AccountChanges,
): Promise<AccountRecord> {
  return toAccount(await client.account.update({ where: { id: BigInt(id) }, data: changes }));
}

/** Renames the account while it is still named `expectedName` (any case); undefined when it is not. */
export async function renameAccountRow(
  client: PrismaClient | Transaction,
  id: number,
  expectedName: string,
  newName: string,
): Promise<AccountRecord | undefined> {
  // Conditional on the name the caller read: of concurrent renames, the first to
  // lock the row wins; the others re-read it under the lock, find another name
  // and match nothing (PostgreSQL re-evaluates the condition on the new row).
  const [row] = await client.account.updateManyAndReturn({
    where: { id: BigInt(id), lowerName: expectedName.toLowerCase() },
    data: { name: newName, lowerName: newName.toLowerCase() },
  });
  return row ? toAccount(row) : undefined;
}

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
      return updateAccountRow(prisma, id, changes);
    },

    async setPasswordHash(id, passwordHash) {
      await prisma.account.update({ where: { id: BigInt(id) }, data: { passwordHash } });
    },
  };
}
