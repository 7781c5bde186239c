import type { TokenStore } from '../domain/store';
import type { PrismaClient } from '../generated/prisma/client';
import { toAccount, toToken } from './row-mappers';
import { unlessNameTaken } from './write-outcome';

export function tokenStore(prisma: PrismaClient): TokenStore {
  return {
    async createToken(token) {
      return unlessNameTaken(async () => {
        const row = await prisma.accessToken.create({
          data: { ...token, accountId: BigInt(token.accountId), scopes: token.scopes.join(',') },
        });
        return toToken(row);
      });
    },

    async findTokenNamed(accountId, name) {
      const row = await prisma.accessToken.findUnique({
        where: { accountId_name: { accountId: BigInt(accountId), name } },
      });
      return row && toToken(row);
    },

    async findTokenById(accountId, id) {
      const row = await prisma.accessToken.findFirst({
        where: { accountId: BigInt(accountId), id: BigInt(id) },
      });
      return row && toToken(row);
    },

    async findTokenByHash(tokenHash) {
      const row = await prisma.accessToken.findUnique({ where: { tokenHash }, include: { account: true } });
      return row && { token: toToken(row), account: toAccount(row.account) };
    },

    async touchToken(id, usedBefore) {
      // No row matched (a recent use is stored, or the token is gone): nothing written.
      await prisma.accessToken.updateMany({
        where: { id: BigInt(id), OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: usedBefore } }] },
        data: { lastUsedAt: new Date() },
      });
    },

    async deleteToken(id) {
      await prisma.accessToken.delete({ where: { id: BigInt(id) } });
    },
  };
}
