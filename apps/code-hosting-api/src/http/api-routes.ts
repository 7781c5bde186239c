import type { ServiceSettings } from '../config';
import type { AccountService } from '../domain/accounts';
import { requireUser } from '../domain/caller';
import type { OrganizationService } from '../domain/organizations';
import { listOptions } from '../domain/pagination';
import type { RepositoryService } from '../domain/repositories';
import type { TeamService } from '../domain/teams';
import { callerOf } from './authentication';
import { setListHeaders } from './list-headers';
import { RouteTable } from './route-table';
import * as s from './schemas';
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

/**
 * A numeric path id (team id, issue index). Anything that is not a safe integer
 * cannot name a row of ours (ids stay far below 2^53), so it becomes -1: not found.
 */
function indexParam(value: string | undefined): number {
  const id = /^\d+$/.test(value ?? '') ? Number(value) : -1;
  return Number.isSafeInteger(id) ? id : -1;
}

/** Every /api/v1 operation, Gitea's path and shape. */
export function apiRoutes(services: ApiServices): RouteTable {
  const { accounts, organizations, teams, repositories, wire, settings, rootUrl } = services;
  const table = new RouteTable();
  const paging = (query: { page?: string; limit?: string }) => listOptions(query, settings);

  // ---- users and tokens ------------------------------------------------------------------

  table.add({
    method: 'post',
    path: '/admin/users',
    operationId: 'adminCreateUser',
    summary: 'Create a user',
    tag: 'admin',
    scope: 'admin',
    body: s.createUserOption,
    success: { status: 201, description: 'User', schema: s.user },
    errors: [400, 401, 403, 422],
    async handle({ res, body }) {
      const caller = callerOf(res);
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

  table.add({
    method: 'patch',
    path: '/admin/users/{username}',
    operationId: 'adminEditUser',
    summary: 'Edit an existing user',
    tag: 'admin',
    scope: 'admin',
    body: s.editUserOption,
    success: { status: 200, description: 'User', schema: s.user },
    errors: [400, 401, 403, 404, 422],
    async handle({ res, body, params }) {
      const caller = callerOf(res);
      const account = await accounts.adminEditUser(caller, params['username']!, {
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

  table.add({
    method: 'get',
    path: '/user',
    operationId: 'userGetCurrent',
    summary: 'Get the authenticated user',
    tag: 'user',
    scope: 'user',
    success: { status: 200, description: 'User', schema: s.user },
    errors: [401],
    async handle({ res }) {
      const caller = callerOf(res);
      res.json(wire.toUser(requireUser(caller), caller));
    },
  });

  table.add({
    method: 'get',
    path: '/users/{username}',
    operationId: 'userGet',
    summary: 'Get a user',
    tag: 'user',
    scope: 'user',
    success: { status: 200, description: 'User', schema: s.user },
    errors: [404],
    async handle({ res, params }) {
      const caller = callerOf(res);
      res.json(wire.toUser(await accounts.visibleUser(caller, params['username']!), caller));
    },
  });

  table.add({
    method: 'post',
    path: '/users/{username}/tokens',
    operationId: 'userCreateToken',
    summary: 'Create an access token',
    tag: 'user',
    scope: 'user',
    basicAuthOnly: true,
    body: s.createAccessTokenOption,
    success: { status: 201, description: 'AccessToken', schema: s.accessToken },
    errors: [400, 401, 403, 404],
    async handle({ res, body, params }) {
      const { token, secret } = await accounts.createToken(
        callerOf(res),
        params['username']!,
        body.name,
        body.scopes ?? [],
      );
      res.status(201).json(wire.toAccessToken(token, secret));
    },
  });

  table.add({
    method: 'delete',
    path: '/users/{username}/tokens/{token}',
    operationId: 'userDeleteAccessToken',
    summary: 'Delete an access token by id or name',
    tag: 'user',
    scope: 'user',
    basicAuthOnly: true,
    success: { status: 204, description: 'deleted' },
    errors: [401, 403, 404],
    async handle({ res, params }) {
      await accounts.deleteToken(callerOf(res), params['username']!, params['token']!);
      res.status(204).end();
    },
  });

  // ---- organizations (the seed's ten operations) -----------------------------------------

  table.add({
    method: 'get',
    path: '/user/orgs',
    operationId: 'orgListCurrentUserOrgs',
    summary: "List the current user's organizations",
    tag: 'organization',
    scope: 'organization',
    query: s.listQuery,
    success: { status: 200, description: 'OrganizationList', schema: s.organization, list: true },
    errors: [401, 404],
    async handle({ req, res, query }) {
      const caller = callerOf(res);
      const options = paging(query);
      const page = await organizations.listOwn(caller, options);
      setListHeaders(req, res, rootUrl, page.total, options);
      res.json(page.items.map((org) => wire.toOrganization(org, caller)));
    },
  });

  table.add({
    method: 'get',
    path: '/users/{username}/orgs',
    operationId: 'orgListUserOrgs',
    summary: "List a user's organizations",
    tag: 'organization',
    scope: 'organization',
    query: s.listQuery,
    success: { status: 200, description: 'OrganizationList', schema: s.organization, list: true },
    errors: [404],
    async handle({ req, res, query, params }) {
      const caller = callerOf(res);
      const options = paging(query);
      const page = await organizations.listOfUser(caller, params['username']!, options);
      setListHeaders(req, res, rootUrl, page.total, options);
      res.json(page.items.map((org) => wire.toOrganization(org, caller)));
    },
  });

  table.add({
    method: 'get',
    path: '/users/{username}/orgs/{org}/permissions',
    operationId: 'orgGetUserPermissions',
    summary: 'Get user permissions in organization',
    tag: 'organization',
    scope: 'organization',
    success: { status: 200, description: 'OrganizationPermissions', schema: s.organizationPermissions },
    errors: [401, 403, 404],
    async handle({ res, params }) {
      res.json(
        wire.toPermissions(
          await organizations.permissions(callerOf(res), params['username']!, params['org']!),
        ),
      );
    },
  });

  table.add({
    method: 'get',
    path: '/orgs',
    operationId: 'orgGetAll',
    summary: 'Get list of organizations',
    tag: 'organization',
    scope: 'organization',
    query: s.listQuery,
    success: { status: 200, description: 'OrganizationList', schema: s.organization, list: true },
    errors: [],
    async handle({ req, res, query }) {
      const caller = callerOf(res);
      const options = paging(query);
      const page = await organizations.listAll(caller, options);
      setListHeaders(req, res, rootUrl, page.total, options);
      res.json(page.items.map((org) => wire.toOrganization(org, caller)));
    },
  });

  table.add({
    method: 'post',
    path: '/orgs',
    operationId: 'orgCreate',
    summary: 'Create an organization',
    tag: 'organization',
    scope: 'organization',
    body: s.createOrgOption,
    success: { status: 201, description: 'Organization', schema: s.organization },
    errors: [401, 403, 422],
    async handle({ res, body }) {
      const caller = callerOf(res);
      const org = await organizations.create(caller, body.username, {
        fullName: body.full_name,
        email: body.email,
        description: body.description,
        website: body.website,
        location: body.location,
        visibility: body.visibility || undefined,
        repoAdminChangeTeamAccess: body.repo_admin_change_team_access,
      });
      res.status(201).json(wire.toOrganization(org, caller));
    },
  });

  table.add({
    method: 'get',
    path: '/orgs/{org}',
    operationId: 'orgGet',
    summary: 'Get an organization',
    tag: 'organization',
    scope: 'organization',
    success: { status: 200, description: 'Organization', schema: s.organization },
    errors: [404],
    async handle({ res, params }) {
      const caller = callerOf(res);
      res.json(wire.toOrganization(await organizations.get(caller, params['org']!), caller));
    },
  });

  table.add({
    method: 'patch',
    path: '/orgs/{org}',
    operationId: 'orgEdit',
    summary: 'Edit an organization',
    tag: 'organization',
    scope: 'organization',
    body: s.editOrgOption,
    success: { status: 200, description: 'Organization', schema: s.organization },
    errors: [401, 403, 404, 422],
    async handle({ res, body, params }) {
      const caller = callerOf(res);
      const org = await organizations.edit(caller, params['org']!, {
        fullName: body.full_name,
        email: body.email,
        description: body.description,
        website: body.website,
        location: body.location,
        visibility: body.visibility,
        repoAdminChangeTeamAccess: body.repo_admin_change_team_access,
      });
      res.json(wire.toOrganization(org, caller));
    },
  });

  table.add({
    method: 'post',
    path: '/orgs/{org}/rename',
    operationId: 'renameOrg',
    summary: 'Rename an organization',
    tag: 'organization',
    scope: 'organization',
    body: s.renameOrgOption,
    success: { status: 204, description: 'renamed' },
    errors: [401, 403, 404, 422],
    async handle({ res, body, params }) {
      await organizations.rename(callerOf(res), params['org']!, body.new_name);
      res.status(204).end();
    },
  });

  table.add({
    method: 'delete',
    path: '/orgs/{org}',
    operationId: 'orgDelete',
    summary: 'Delete an organization',
    tag: 'organization',
    scope: 'organization',
    success: { status: 204, description: 'deleted' },
    errors: [401, 403, 404, 409],
    async handle({ res, params }) {
      await organizations.remove(callerOf(res), params['org']!);
      res.status(204).end();
    },
  });

  table.add({
    method: 'get',
    path: '/orgs/{org}/activities/feeds',
    operationId: 'orgListActivityFeeds',
    summary: "List an organization's activity feeds",
    tag: 'organization',
    scope: 'organization',
    query: s.feedQuery,
    success: { status: 200, description: 'ActivityFeedsList', schema: s.activity, list: true },
    errors: [404, 422],
    async handle({ req, res, query, params }) {
      const caller = callerOf(res);
      const options = paging(query);
      const page = await organizations.feed(caller, params['org']!, query.date, options);
      setListHeaders(req, res, rootUrl, page.total, options);
      res.json(page.items.map(({ action, level }) => wire.toActivity(action, caller, level)));
    },
  });

  // ---- teams -----------------------------------------------------------------------------

  table.add({
    method: 'post',
    path: '/orgs/{org}/teams',
    operationId: 'orgCreateTeam',
    summary: 'Create a team',
    tag: 'organization',
    scope: 'organization',
    body: s.createTeamOption,
    success: { status: 201, description: 'Team', schema: s.team },
    errors: [401, 403, 404, 422],
    async handle({ res, body, params }) {
      const caller = callerOf(res);
      const { team, org } = await teams.create(caller, params['org']!, {
        name: body.name,
        description: body.description,
        permission: body.permission,
        canCreateOrgRepo: body.can_create_org_repo,
        includesAllRepositories: body.includes_all_repositories,
      });
      res.status(201).json(wire.toTeam(team, org, caller));
    },
  });

  table.add({
    method: 'get',
    path: '/orgs/{org}/teams',
    operationId: 'orgListTeams',
    summary: "List an organization's teams",
    tag: 'organization',
    scope: 'organization',
    query: s.listQuery,
    success: { status: 200, description: 'TeamList', schema: s.team, list: true },
    errors: [401, 403, 404],
    async handle({ req, res, query, params }) {
      const caller = callerOf(res);
      const options = paging(query);
      const { page, org } = await teams.list(caller, params['org']!, options);
      setListHeaders(req, res, rootUrl, page.total, options);
      res.json(page.items.map((team) => wire.toTeam(team, org, caller)));
    },
  });

  table.add({
    method: 'put',
    path: '/teams/{id}/members/{username}',
    operationId: 'orgAddTeamMember',
    summary: 'Add a team member',
    tag: 'organization',
    scope: 'organization',
    success: { status: 204, description: 'added' },
    errors: [401, 403, 404],
    async handle({ res, params }) {
      await teams.addMember(callerOf(res), indexParam(params['id']), params['username']!);
      res.status(204).end();
    },
  });

  table.add({
    method: 'delete',
    path: '/teams/{id}/members/{username}',
    operationId: 'orgRemoveTeamMember',
    summary: 'Remove a team member',
    tag: 'organization',
    scope: 'organization',
    success: { status: 204, description: 'removed' },
    errors: [401, 403, 404, 409],
    async handle({ res, params }) {
      await teams.removeMember(callerOf(res), indexParam(params['id']), params['username']!);
      res.status(204).end();
    },
  });

  // ---- repositories ----------------------------------------------------------------------

  table.add({
    method: 'post',
    path: '/user/repos',
    operationId: 'createCurrentUserRepo',
    summary: 'Create a repository',
    tag: 'repository',
    scope: 'repository',
    body: s.createRepoOption,
    success: { status: 201, description: 'Repository', schema: s.repository },
    errors: [401, 409, 422],
    async handle({ res, body }) {
      const caller = callerOf(res);
      const { repository, level } = await repositories.createForUser(caller, {
        name: body.name,
        description: body.description,
        isPrivate: body.private,
      });
      res.status(201).json(wire.toRepository(repository, level, caller));
    },
  });

  table.add({
    method: 'post',
    path: '/orgs/{org}/repos',
    operationId: 'createOrgRepo',
    summary: 'Create a repository in an organization',
    tag: 'organization',
    scope: 'repository',
    body: s.createRepoOption,
    success: { status: 201, description: 'Repository', schema: s.repository },
    errors: [401, 403, 404, 409, 422],
    async handle({ res, body, params }) {
      const caller = callerOf(res);
      const { repository, level } = await repositories.createForOrganization(caller, params['org']!, {
        name: body.name,
        description: body.description,
        isPrivate: body.private,
      });
      res.status(201).json(wire.toRepository(repository, level, caller));
    },
  });

  table.add({
    method: 'get',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoGet',
    summary: 'Get a repository',
    tag: 'repository',
    scope: 'repository',
    success: { status: 200, description: 'Repository', schema: s.repository },
    errors: [404],
    async handle({ res, params }) {
      const caller = callerOf(res);
      const { repository, level } = await repositories.readable(caller, params['owner']!, params['repo']!);
      res.json(wire.toRepository(repository, level, caller));
    },
  });

  table.add({
    method: 'patch',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoEdit',
    summary: "Edit a repository's properties",
    tag: 'repository',
    scope: 'repository',
    body: s.editRepoOption,
    success: { status: 200, description: 'Repository', schema: s.repository },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, body, params }) {
      const caller = callerOf(res);
      const { repository, level } = await repositories.edit(caller, params['owner']!, params['repo']!, {
        name: body.name,
        description: body.description,
        website: body.website,
        isPrivate: body.private,
        isArchived: body.archived,
      });
      res.json(wire.toRepository(repository, level, caller));
    },
  });

  table.add({
    method: 'delete',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoDelete',
    summary: 'Delete a repository',
    tag: 'repository',
    scope: 'repository',
    success: { status: 204, description: 'deleted' },
    errors: [401, 403, 404],
    async handle({ res, params }) {
      await repositories.remove(callerOf(res), params['owner']!, params['repo']!);
      res.status(204).end();
    },
  });

  table.add({
    method: 'put',
    path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
    operationId: 'repoAddCollaborator',
    summary: 'Add or update a collaborator',
    tag: 'repository',
    scope: 'repository',
    body: s.addCollaboratorOption,
    success: { status: 204, description: 'added' },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, body, params }) {
      await repositories.setCollaborator(
        callerOf(res),
        params['owner']!,
        params['repo']!,
        params['collaborator']!,
        body.permission ?? 'write',
      );
      res.status(204).end();
    },
  });

  // ---- issues and pull requests ----------------------------------------------------------

  table.add({
    method: 'get',
    path: '/repos/{owner}/{repo}/issues',
    operationId: 'issueListIssues',
    summary: "List a repository's issues",
    tag: 'issue',
    scope: 'issue',
    query: s.issueListQuery,
    success: { status: 200, description: 'IssueList', schema: s.issue, list: true },
    errors: [404],
    async handle({ req, res, query, params }) {
      const caller = callerOf(res);
      const options = paging(query);
      const { page, repository } = await repositories.listIssues(
        caller,
        params['owner']!,
        params['repo']!,
        { state: query.state ?? 'open', kind: query.type ?? 'all' },
        options,
      );
      setListHeaders(req, res, rootUrl, page.total, options);
      res.json(page.items.map((issue) => wire.toIssue(issue, repository, caller)));
    },
  });

  table.add({
    method: 'post',
    path: '/repos/{owner}/{repo}/issues',
    operationId: 'issueCreateIssue',
    summary: 'Create an issue',
    tag: 'issue',
    scope: 'issue',
    body: s.createIssueOption,
    success: { status: 201, description: 'Issue', schema: s.issue },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, body, params }) {
      const caller = callerOf(res);
      const { issue, repository } = await repositories.createIssue(
        caller,
        params['owner']!,
        params['repo']!,
        body,
      );
      res.status(201).json(wire.toIssue(issue, repository, caller));
    },
  });

  table.add({
    method: 'get',
    path: '/repos/{owner}/{repo}/issues/{index}',
    operationId: 'issueGetIssue',
    summary: 'Get an issue',
    tag: 'issue',
    scope: 'issue',
    success: { status: 200, description: 'Issue', schema: s.issue },
    errors: [404],
    async handle({ res, params }) {
      const caller = callerOf(res);
      const { issue, repository } = await repositories.getIssue(
        caller,
        params['owner']!,
        params['repo']!,
        indexParam(params['index']),
      );
      res.json(wire.toIssue(issue, repository, caller));
    },
  });

  table.add({
    method: 'patch',
    path: '/repos/{owner}/{repo}/issues/{index}',
    operationId: 'issueEditIssue',
    summary: 'Edit an issue',
    tag: 'issue',
    scope: 'issue',
    body: s.editIssueOption,
    success: { status: 201, description: 'Issue', schema: s.issue },
    errors: [401, 403, 404, 423],
    async handle({ res, body, params }) {
      const caller = callerOf(res);
      const { issue, repository } = await repositories.editIssue(
        caller,
        params['owner']!,
        params['repo']!,
        indexParam(params['index']),
        body,
      );
      // Gitea answers an issue edit with 201.
      res.status(201).json(wire.toIssue(issue, repository, caller));
    },
  });

  table.add({
    method: 'post',
    path: '/repos/{owner}/{repo}/pulls',
    operationId: 'repoCreatePullRequest',
    summary: 'Create a pull request',
    tag: 'repository',
    scope: 'repository',
    body: s.createPullRequestOption,
    success: { status: 201, description: 'PullRequest', schema: s.pullRequest },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, body, params }) {
      const caller = callerOf(res);
      const { issue, repository, level } = await repositories.createPullRequest(
        caller,
        params['owner']!,
        params['repo']!,
        body,
      );
      res.status(201).json(wire.toPullRequest(issue, repository, level, caller));
    },
  });

  return table;
}
