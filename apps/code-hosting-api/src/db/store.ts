import type { Store } from '../domain/store';
import type { PrismaClient } from '../generated/prisma/client';
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
// without it (events off) every write runs exactly as it would with no events at all.
export function createStore(prisma: PrismaClient, changes?: ChangeLog): Store {
  return {
    ...accountStore(prisma),
    ...tokenStore(prisma),
    ...organizationStore(prisma, changes),
    ...repositoryStore(prisma, changes),
    ...issueStore(prisma),
    ...attachmentStore(prisma, changes),
    ...actionStore(prisma),
  };
}
