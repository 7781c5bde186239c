import type { z } from 'zod';
import type { OrganizationFields } from '../../domain/organizations';
import type { ApiServices } from '../api-services';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/**
 * An organization's settings as a create or an edit gives them (`visibility: ""` is already
 * "not given": the schemas read it so).
 */
function organizationFieldsOf(body: z.infer<typeof s.EditOrgOption>): OrganizationFields {
  return {
    fullName: body.full_name,
    email: body.email,
    description: body.description,
    website: body.website,
    location: body.location,
    visibility: body.visibility,
    repoAdminChangeTeamAccess: body.repo_admin_change_team_access,
  };
}

/** Organizations: the contract's ten operations (Gitea routers/api/v1/org/org.go). */
export function organizationRoutes(table: RouteTable, { organizations, wire }: ApiServices): void {
  const routes = table.resource({ tag: 'organization', scope: 'organization' });
  routes.add({
    method: 'get',
    path: '/user/orgs',
    operationId: 'orgListCurrentUserOrgs',
    summary: "List the current user's organizations",
    query: s.ListQuery,
    response: { status: 200, description: 'OrganizationList', schema: s.Organization, list: true },
    errors: [401, 404],
    async handle({ caller, paging, sendPage }) {
      const page = await organizations.listOwn(caller, paging);
      sendPage(page, (org) => wire.toOrganization(org, caller));
    },
  });

  routes.add({
    method: 'get',
    path: '/users/{username}/orgs',
    operationId: 'orgListUserOrgs',
    summary: "List a user's organizations",
    query: s.ListQuery,
    response: { status: 200, description: 'OrganizationList', schema: s.Organization, list: true },
    errors: [404],
    async handle({ caller, params, paging, sendPage }) {
      const page = await organizations.listOfUser(caller, params.username, paging);
      sendPage(page, (org) => wire.toOrganization(org, caller));
    },
  });

  routes.add({
    method: 'get',
    path: '/users/{username}/orgs/{org}/permissions',
    operationId: 'orgGetUserPermissions',
    summary: 'Get user permissions in organization',
    response: { status: 200, description: 'OrganizationPermissions', schema: s.OrganizationPermissions },
    errors: [401, 403, 404],
    async handle({ res, caller, params }) {
      res.json(wire.toPermissions(await organizations.permissions(caller, params.username, params.org)));
    },
  });

  routes.add({
    method: 'get',
    path: '/orgs',
    operationId: 'orgGetAll',
    summary: 'Get list of organizations',
    query: s.ListQuery,
    response: { status: 200, description: 'OrganizationList', schema: s.Organization, list: true },
    errors: [],
    async handle({ caller, paging, sendPage }) {
      const page = await organizations.listAll(caller, paging);
      sendPage(page, (org) => wire.toOrganization(org, caller));
    },
  });

  routes.add({
    method: 'post',
    path: '/orgs',
    operationId: 'orgCreate',
    xSync: true,
    summary: 'Create an organization',
    body: s.CreateOrgOption,
    auth: { authorize: ({ caller }) => organizations.assertMayCreate(caller) },
    response: { status: 201, description: 'Organization', schema: s.Organization },
    errors: [401, 403, 422],
    async handle({ res, caller, body, settleSync }) {
      const org = await organizations.create(caller, body.username, organizationFieldsOf(body));
      await settleSync();
      res.status(201).json(wire.toOrganization(org, caller));
    },
  });

  routes.add({
    method: 'get',
    path: '/orgs/{org}',
    operationId: 'orgGet',
    summary: 'Get an organization',
    response: { status: 200, description: 'Organization', schema: s.Organization },
    errors: [404],
    async handle({ res, caller, params }) {
      res.json(wire.toOrganization(await organizations.get(caller, params.org), caller));
    },
  });

  routes.add({
    method: 'patch',
    path: '/orgs/{org}',
    operationId: 'orgEdit',
    xSync: true,
    summary: 'Edit an organization',
    body: s.EditOrgOption,
    auth: { authorize: ({ caller, params }) => organizations.ownedOrganization(caller, params.org) },
    response: { status: 200, description: 'Organization', schema: s.Organization },
    errors: [401, 403, 404, 422],
    async handle({ res, caller, body, params, settleSync }) {
      const org = await organizations.edit(caller, params.org, organizationFieldsOf(body));
      await settleSync();
      res.json(wire.toOrganization(org, caller));
    },
  });

  routes.add({
    method: 'post',
    path: '/orgs/{org}/rename',
    operationId: 'renameOrg',
    xSync: true,
    summary: 'Rename an organization',
    body: s.RenameOrgOption,
    auth: { authorize: ({ caller, params }) => organizations.renamableOrganization(caller, params.org) },
    response: { status: 204, description: 'renamed' },
    errors: [401, 403, 404, 422],
    async handle({ res, caller, body, params, settleSync }) {
      await organizations.rename(caller, params.org, body.new_name);
      await settleSync();
      res.status(204).end();
    },
  });

  routes.add({
    method: 'delete',
    path: '/orgs/{org}',
    operationId: 'orgDelete',
    xSync: true,
    summary: 'Delete an organization',
    response: { status: 204, description: 'deleted' },
    errors: [401, 403, 404, 409],
    async handle({ res, caller, params, settleSync }) {
      await organizations.remove(caller, params.org);
      await settleSync();
      res.status(204).end();
    },
  });

  routes.add({
    method: 'get',
    path: '/orgs/{org}/activities/feeds',
    operationId: 'orgListActivityFeeds',
    summary: "List an organization's activity feeds",
    query: s.FeedQuery,
    response: { status: 200, description: 'ActivityFeedsList', schema: s.Activity, list: true },
    errors: [404, 422],
    async handle({ caller, query, params, paging, sendPage }) {
      const page = await organizations.feed(caller, params.org, query.date, paging);
      sendPage(page, ({ action, level }) => wire.toActivity(action, caller, level));
    },
  });
}
