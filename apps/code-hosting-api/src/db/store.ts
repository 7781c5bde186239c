import type { Store } from '../domain/store';
import type { Database } from './database';
import { accountStore } from './account-store';
import type { ChangeLog } from './change-log';
import { actionStore } from './action-store';
import { attachmentStore } from './attachment-store';
import { issueStore } from './issue-store';
import { organizationStore } from './organization-store';
import { repositoryStore } from './repository-store';
import { tokenStore } from './token-store';

// Data access: Prisma queries in, plain records out, one file per aggregate. The rules live
// in src/domain, which states this contract; these parts only execute what it decides.

// `changes`: the change events the writes record in their transactions (src/db/change-log.ts);
// without it (events off) every write runs exactly as it would with no events at all. The hottest
// reads (a token, an account by name, a user's teams) run straight on pg (Database.query).
/** What the stores use of the database: Prisma, and Database.query for the hottest reads. */
export type StoreDatabase = Pick<Database, 'prisma' | 'query'>;

export function createStore(database: StoreDatabase, changes?: ChangeLog): Store {
  const { prisma } = database;
  return {
    ...accountStore(database),
    ...tokenStore(database),
    ...organizationStore(database, changes),
    ...repositoryStore(database, changes),
    ...issueStore(database),
    ...attachmentStore(database, changes),
    ...actionStore(prisma),
  };
}
