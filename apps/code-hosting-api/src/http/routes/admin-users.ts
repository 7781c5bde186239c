import type { ApiServices } from '../api-services';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/** Site administration of users (Gitea routers/api/v1/admin/user.go). */
export function adminUserRoutes(table: RouteTable, { accounts, wire }: ApiServices): void {
  const routes = table.resource({ tag: 'admin', scope: 'admin' });
  routes.add({
    method: 'post',
    path: '/admin/users',
    operationId: 'adminCreateUser',
    summary: 'Create a user',
    body: s.CreateUserOption,
    auth: { authorize: ({ caller }) => accounts.requireSiteAdmin(caller) },
    response: { status: 201, description: 'User', schema: s.User },
    errors: [400, 401, 403, 422],
    async handle({ res, caller, body }) {
      const account = await accounts.adminCreateUser(caller, {
        username: body.username,
        email: body.email,
        password: body.password,
        fullName: body.full_name,
        visibility: body.visibility,
      });
      res.status(201).json(wire.toUser(account, caller));
    },
  });

  routes.add({
    method: 'patch',
    path: '/admin/users/{username}',
    operationId: 'adminEditUser',
    summary: 'Edit an existing user',
    body: s.EditUserOption,
    auth: { authorize: ({ caller }) => accounts.requireSiteAdmin(caller) },
    response: { status: 200, description: 'User', schema: s.User },
    errors: [400, 401, 403, 404, 422],
    async handle({ res, caller, body, params }) {
      const account = await accounts.adminEditUser(caller, params.username, {
        isAdmin: body.admin,
        allowCreateOrganization: body.allow_create_organization,
        active: body.active,
        email: body.email,
        password: body.password,
        fullName: body.full_name,
        visibility: body.visibility,
        description: body.description,
        website: body.website,
        location: body.location,
      });
      res.json(wire.toUser(account, caller));
    },
  });
}
