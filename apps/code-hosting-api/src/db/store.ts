import type { Store } from '../domain/store';
import { accountStore } from './account-store';
import type { ChangeLog } from './change-log';
import type { StoreDatabase } from './store-database';
import { actionStore } from './action-store';
import { attachmentStore } from './attachment-store';
import { issueStore } from './issue-store';
import { organizationStore } from './organization-store';
import { repositoryStore } from './repository-store';
import { tokenStore } from './token-store';

// Data access: Prisma queries in, plain records out, one file per aggregate. The rules live
// in src/domain, which states this contract; these parts only execute what it decides.

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
