import type { Store } from '../domain/store';
import type { EventRecorder } from '../events/service-events';
import type { PrismaClient } from '../generated/prisma/client';
import { accountStore } from './account-store';
import { actionStore } from './action-store';
import { attachmentStore } from './attachment-store';
import { issueStore } from './issue-store';
import { organizationStore } from './organization-store';
import { repositoryStore } from './repository-store';
import { tokenStore } from './token-store';

// Data access: Prisma queries in, plain records out, one file per aggregate. The rules live
// in src/domain, which states this contract; these parts only execute what it decides.

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- recorder: used once the stores record events
export function createStore(prisma: PrismaClient, recorder?: EventRecorder): Store {
  return {
    ...accountStore(prisma),
    ...tokenStore(prisma),
    ...organizationStore(prisma),
    ...repositoryStore(prisma),
    ...issueStore(prisma),
    ...attachmentStore(prisma),
    ...actionStore(prisma),
  };
}
