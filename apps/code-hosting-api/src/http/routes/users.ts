import { requireUser } from '../../domain/caller';
import type { ApiServices } from '../api-services';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/** Users and their access tokens (Gitea routers/api/v1/user). */
export function userRoutes(table: RouteTable, { accounts, wire }: ApiServices): void {
  const routes = table.resource({ tag: 'user', scope: 'user' });
  routes.add({
    method: 'get',
    path: '/user',
    operationId: 'userGetCurrent',
    summary: 'Get the authenticated user',
    response: { status: 200, description: 'User', schema: s.User },
    errors: [401],
    async handle({ res, caller }) {
      res.json(wire.toUser(requireUser(caller), caller));
    },
  });

  routes.add({
    method: 'get',
    path: '/users/{username}',
    operationId: 'userGet',
    summary: 'Get a user',
    response: { status: 200, description: 'User', schema: s.User },
    errors: [404],
    async handle({ res, caller, params }) {
      res.json(wire.toUser(await accounts.visibleUser(caller, params.username), caller));
    },
  });

  routes.add({
    method: 'post',
    path: '/users/{username}/tokens',
    operationId: 'userCreateToken',
    summary: 'Create an access token',
    body: s.CreateAccessTokenOption,
    auth: {
      scheme: 'basic',
      authorize: ({ caller, params }) => accounts.selfOrAdmin(caller, params.username),
    },
    response: { status: 201, description: 'AccessToken', schema: s.AccessToken },
    errors: [400, 401, 403, 404],
    async handle({ res, caller, body, params }) {
      const { token, secret } = await accounts.createToken(
        caller,
        params.username,
        body.name,
        body.scopes ?? [],
      );
      res.status(201).json(wire.toAccessToken(token, secret));
    },
  });

  routes.add({
    method: 'get',
    path: '/users/{username}/tokens',
    operationId: 'userGetTokens',
    summary: "List a user's access tokens (their secrets are never shown again)",
    auth: { scheme: 'basic' },
    query: s.ListQuery,
    response: { status: 200, description: 'AccessTokenList', schema: s.AccessToken, list: true },
    errors: [401, 403, 404],
    async handle({ caller, params, paging, sendPage }) {
      const page = await accounts.listTokens(caller, params.username, paging);
      sendPage(page, (token) => wire.toAccessToken(token, ''));
    },
  });

  routes.add({
    method: 'delete',
    path: '/users/{username}/tokens/{token}',
    operationId: 'userDeleteAccessToken',
    summary: 'Delete an access token by id or name',
    params: s.TokenParams,
    auth: { scheme: 'basic' },
    response: { status: 204, description: 'deleted' },
    errors: [401, 403, 404],
    async handle({ res, caller, params }) {
      await accounts.deleteToken(caller, params.username, params.token);
      res.status(204).end();
    },
  });
}
