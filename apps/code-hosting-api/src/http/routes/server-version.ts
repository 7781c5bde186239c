import type { ApiServices } from '../api-services';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/**
 * `GET /version` (Gitea routers/api/v1/misc): the Gitea release whose API this service
 * follows. Clients read it before anything else; the Go SDK's NewClient refuses a server
 * that does not answer it.
 */
export function serverVersionRoutes(table: RouteTable, { settings }: ApiServices): void {
  table.add({
    tag: 'miscellaneous',
    auth: { scope: 'misc', unscoped: true },
    method: 'get',
    path: '/version',
    operationId: 'getVersion',
    summary: 'Returns the version of the Gitea application whose API this service follows',
    response: { status: 200, description: 'ServerVersion', schema: s.ServerVersion },
    errors: [],
    async handle({ res }) {
      res.json({ version: settings.giteaVersion });
    },
  });
}
