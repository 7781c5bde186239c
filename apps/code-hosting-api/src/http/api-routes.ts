import type { RequestHandler } from 'express';
import type { ServiceSettings } from '../config';
import type { AccountService } from '../domain/accounts';
import type { AttachmentService } from '../domain/attachments';
import type { OrganizationService } from '../domain/organizations';
import type { RepositoryService } from '../domain/repositories';
import type { TeamService } from '../domain/teams';
import type { Storage } from '../storage/storage';
import { RouteTable } from './route-table';
import { adminOrganizationRoutes } from './routes/admin-organizations';
import { adminUserRoutes } from './routes/admin-users';
import { attachmentRoutes } from './routes/attachments';
import { avatarRoutes } from './routes/avatars';
import { issueRoutes } from './routes/issues';
import { organizationRoutes } from './routes/organizations';
import { repositoryRoutes } from './routes/repositories';
import { serverVersionRoutes } from './routes/server-version';
import { teamRoutes } from './routes/teams';
import { userRoutes } from './routes/users';
import type { Wire } from './wire';

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
}

/**
 * Every /api/v1 operation, Gitea's path and shape, registered resource by resource in this order,
 * and the site-root ones (attachment downloads) behind `siteMiddleware`.
 */
export function apiRoutes(services: ApiServices, siteMiddleware: RequestHandler[] = []): RouteTable {
  const table = new RouteTable({ rootUrl: services.rootUrl, paging: services.settings, siteMiddleware });
  serverVersionRoutes(table, services);
  adminUserRoutes(table, services);
  adminOrganizationRoutes(table, services);
  userRoutes(table, services);
  organizationRoutes(table, services);
  teamRoutes(table, services);
  repositoryRoutes(table, services);
  issueRoutes(table, services);
  attachmentRoutes(table, services);
  avatarRoutes(table);
  table.completePaths();
  return table;
}
