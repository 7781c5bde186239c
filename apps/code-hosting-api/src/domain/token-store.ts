import type { AccountRecord, Page, TokenRecord } from './records';
import type { WriteOutcome } from './write-outcome';

/** A user's access tokens, stored hashed. */
export interface TokenStore {
  createToken(token: {
    accountId: number;
    name: string;
    tokenHash: string;
    tokenLastEight: string;
    scopes: string[];
  }): Promise<WriteOutcome<TokenRecord>>;
  findTokenNamed(accountId: number, name: string): Promise<TokenRecord | undefined>;
  findTokenById(accountId: number, id: number): Promise<TokenRecord | undefined>;
  /** A page of the account's tokens, newest first. */
  listTokens(accountId: number, offset: number, limit: number): Promise<Page<TokenRecord>>;
  findTokenByHash(tokenHash: string): Promise<
    | {
        token: TokenRecord;
        account: AccountRecord;
      }
    | undefined
  >;
  /** Stores `usedAt` as the token's last use, unless the stored one is later than `usedBefore` (one interval earlier). */
  touchToken(id: number, usedAt: Date, usedBefore: Date): Promise<void>;
  deleteToken(id: number): Promise<void>;
}
