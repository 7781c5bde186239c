import type { AccountStore } from './account-store';
import type { ActionStore } from './action-store';
import type { AttachmentStore } from './attachment-store';
import type { IssueStore } from './issue-store';
import type { OrganizationStore } from './organization-store';
import type { RepositoryStore } from './repository-store';
import type { TokenStore } from './token-store';

// The persistence the use cases need, stated in src/domain so the domain owns its contract: one
// file per aggregate (account-store.ts, token-store.ts, …), composed here into the one store the
// use cases receive; src/db/store.ts assembles the Prisma implementations of the parts.

export type Store = AccountStore &
  TokenStore &
  OrganizationStore &
  RepositoryStore &
  IssueStore &
  AttachmentStore &
  ActionStore;
