import type { ServiceSettings } from '../config';
import type { AccountService } from '../domain/accounts';
import type { OrganizationService } from '../domain/organizations';
import type { RepositoryService } from '../domain/repositories';
import type { TeamService } from '../domain/teams';
import { RouteTable } from './route-table';
import { adminUserRoutes } from './routes/admin-users';
import { issueRoutes } from './routes/issues';
import { organizationRoutes } from './routes/organizations';
import { repositoryRoutes } from './routes/repositories';
import { teamRoutes } from './routes/teams';
import { userRoutes } from './routes/users';
import type { Wire } from './wire';

export interface ApiServices {
  accounts: AccountService;
  organizations: OrganizationService;
  teams: TeamService;
  repositories: RepositoryService;
  wire: Wire;
  settings: ServiceSettings;
  rootUrl: string;
}

/** Every /api/v1 operation, Gitea's path and shape, registered resource by resource in this order. */
export function apiRoutes(services: ApiServices): RouteTable {
  const table = new RouteTable({ rootUrl: services.rootUrl, paging: services.settings });
  adminUserRoutes(table, services);
  userRoutes(table, services);
  organizationRoutes(table, services);
  teamRoutes(table, services);
  repositoryRoutes(table, services);
  issueRoutes(table, services);
  return table;
}
