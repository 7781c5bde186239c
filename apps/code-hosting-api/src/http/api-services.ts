import type { ServiceSettings } from '../config';
import type { AccountService } from '../domain/accounts';
import type { AttachmentService } from '../domain/attachments';
import type { OrganizationService } from '../domain/organizations';
import type { RepositoryService } from '../domain/repositories';
import type { TeamService } from '../domain/teams';
import type { Storage } from '../storage/storage';
import type { Wire } from '../wire/wire';
import type { SyncOptions } from './x-sync';

/** What the route modules in routes/ are given: the use cases and the few things beside them. */
export interface ApiServices {
  accounts: AccountService;
  organizations: OrganizationService;
  teams: TeamService;
  repositories: RepositoryService;
  attachments: AttachmentService;
  /** Attachment bytes: uploads stream into it, downloads out of it. */
  storage: Storage;
  wire: Wire;
  settings: ServiceSettings;
  rootUrl: string;
  /** What X-Sync waits on (the relay; none with events off) and for how long. */
  sync?: SyncOptions;
}
