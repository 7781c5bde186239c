import type { ApiServices } from '../api-services';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/** Site administration of organizations (Gitea routers/api/v1/admin/org.go). */
export function adminOrganizationRoutes(table: RouteTable, { organizations, wire }: ApiServices): void {
  const routes = table.resource({ tag: 'admin', scope: 'admin' });
  routes.add({
    method: 'get',
    path: '/admin/orgs',
    operationId: 'adminGetAllOrgs',
    summary: 'List all organizations',
    query: s.ListQuery,
    response: { status: 200, description: 'OrganizationList', schema: s.Organization, list: true },
    errors: [401, 403],
    async handle({ caller, paging, sendPage }) {
      const page = await organizations.adminListAll(caller, paging);
      sendPage(page, (org) => wire.toOrganization(org, caller));
    },
  });
}
