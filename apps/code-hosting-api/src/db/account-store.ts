import type { AccountChanges, AccountStore } from '../domain/account-store';
import type { AccountRecord } from '../domain/records';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import type { Transaction } from './change-log';
import { fixedStatement } from './prepared-statements';
import { toAccount, type AccountRow } from './row-mappers';
import type { StoreDatabase } from './store-database';
import { unlessNameTaken } from './write-outcome';

/** An account's columns but its password hash, as `a`, named as Prisma names its fields (toAccount's row). */
export const ACCOUNT_COLUMNS = Prisma.sql`
  a.id AS "id", a.name AS "name", a.lower_name AS "lowerName", a.full_name AS "fullName",
  a.email AS "email", a.type AS "type", a.visibility AS "visibility",
  a.description AS "description", a.website AS "website", a.location AS "location",
  a.is_admin AS "isAdmin", a.is_active AS "isActive",
  a.allow_create_organization AS "allowCreateOrganization",
  a.repo_admin_change_team_access AS "repoAdminChangeTeamAccess",
  a.last_login_at AS "lastLoginAt", a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

/** Applies `changes` to a user's account (an organization's edit is organization-store.ts's). */
async function updateAccountRow(
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

/** Most requests name an organization or a user in their path: made once, prepared once per connection. */
const ACCOUNT_BY_NAME = fixedStatement<{ lowerName: string }>(
  'account_by_name',
  (arg) => Prisma.sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.lower_name = ${arg('lowerName')}`,
);

export function accountStore({ prisma, query }: StoreDatabase): AccountStore {
  return {
    async findAccountByName(name) {
      const [row] = await query<AccountRow>(ACCOUNT_BY_NAME.bind({ lowerName: name.toLowerCase() }));
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
