import type { TokenStore } from '../domain/token-store';
import { Prisma } from '../generated/prisma/client';
import { ACCOUNT_COLUMNS } from './account-store';
import { fixedStatement } from './prepared-statements';
import { toAccount, toToken, type AccountRow, type Int8 } from './row-mappers';
import type { StoreDatabase } from './store-database';
import { unlessNameTaken } from './write-outcome';

/** Every token-authenticated request runs this: one statement, made once (Prisma's include ran two). */
const TOKEN_BY_HASH = fixedStatement<{ tokenHash: string }>(
  'token_by_hash',
  (arg) => Prisma.sql`
    SELECT t.id AS "tokenId", t.name AS "tokenName", t.token_last_eight AS "tokenLastEight",
      t.scopes AS "scopes", t.created_at AS "tokenCreatedAt", t.last_used_at AS "lastUsedAt",
      ${ACCOUNT_COLUMNS}
    FROM access_tokens t JOIN accounts a ON a.id = t.account_id
    WHERE t.token_hash = ${arg('tokenHash')}`,
);

export function tokenStore({ prisma, query }: StoreDatabase): TokenStore {
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
      return row ? toToken(row) : undefined;
    },

    async findTokenById(accountId, id) {
      const row = await prisma.accessToken.findFirst({
        where: { accountId: BigInt(accountId), id: BigInt(id) },
      });
      return row ? toToken(row) : undefined;
    },

    async listTokens(accountId, offset, limit) {
      const where = { accountId: BigInt(accountId) };
      const [rows, total] = await Promise.all([
        prisma.accessToken.findMany({ where, orderBy: [{ id: 'desc' }], skip: offset, take: limit }),
        prisma.accessToken.count({ where }),
      ]);
      return { items: rows.map(toToken), total };
    },

    async findTokenByHash(tokenHash) {
      const [row] = await query<TokenWithAccountRow>(TOKEN_BY_HASH.bind({ tokenHash }));
      if (!row) return undefined;
      const { tokenId, tokenName, tokenLastEight, scopes, tokenCreatedAt, lastUsedAt, ...account } = row;
      return {
        token: toToken({
          id: tokenId,
          accountId: account.id,
          name: tokenName,
          tokenLastEight,
          scopes,
          createdAt: tokenCreatedAt,
          lastUsedAt,
        }),
        account: toAccount(account),
      };
    },

    async touchToken(id, usedAt, usedBefore) {
      // No row matched (a recent use is stored, or the token is gone): nothing written.
      await prisma.accessToken.updateMany({
        where: { id: BigInt(id), OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: usedBefore } }] },
        data: { lastUsedAt: usedAt },
      });
    },

    async deleteToken(id) {
      await prisma.accessToken.delete({ where: { id: BigInt(id) } });
    },
  };
}

/** A token and its account, as findTokenByHash's statement names the columns. */
type TokenWithAccountRow = AccountRow & {
  tokenId: Int8;
  tokenName: string;
  tokenLastEight: string;
  scopes: string;
  tokenCreatedAt: Date;
  lastUsedAt: Date | null;
};
