import type { RequestHandler } from 'express';
import type { ApiServices } from './api-services';
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

/**
 * Every /api/v1 operation, Gitea's path and shape, registered resource by resource in this order,
 * and the site-root ones (attachment downloads) behind `siteMiddleware`.
 */
export function apiRoutes(services: ApiServices, siteMiddleware: RequestHandler[] = []): RouteTable {
  const table = new RouteTable({
    rootUrl: services.rootUrl,
    paging: services.settings,
    siteMiddleware,
    sync: services.sync,
  });
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
