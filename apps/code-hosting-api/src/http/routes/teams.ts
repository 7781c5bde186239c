import type { ApiServices } from '../api-services';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/** Teams and their members (Gitea routers/api/v1/org/team.go). */
export function teamRoutes(table: RouteTable, { teams, wire }: ApiServices): void {
  const routes = table.resource({ tag: 'organization', scope: 'organization' });
  routes.add({
    method: 'post',
    path: '/orgs/{org}/teams',
    operationId: 'orgCreateTeam',
    summary: 'Create a team',
    body: s.CreateTeamOption,
    auth: { authorize: ({ caller, params }) => teams.ownedOrganization(caller, params.org) },
    response: { status: 201, description: 'Team', schema: s.Team },
    errors: [401, 403, 404, 422],
    async handle({ res, caller, body, params }) {
      const { team, org } = await teams.create(caller, params.org, {
        name: body.name,
        description: body.description,
        permission: body.permission,
        canCreateOrgRepo: body.can_create_org_repo,
        includesAllRepositories: body.includes_all_repositories,
      });
      res.status(201).json(wire.toTeam(team, org, caller));
    },
  });

  routes.add({
    method: 'get',
    path: '/orgs/{org}/teams',
    operationId: 'orgListTeams',
    summary: "List an organization's teams",
    query: s.ListQuery,
    response: { status: 200, description: 'TeamList', schema: s.Team, list: true },
    errors: [401, 403, 404],
    async handle({ caller, params, paging, sendPage }) {
      const { page, org } = await teams.list(caller, params.org, paging);
      sendPage(page, (team) => wire.toTeam(team, org, caller));
    },
  });

  routes.add({
    method: 'put',
    path: '/teams/{id}/members/{username}',
    params: s.TeamParams,
    operationId: 'orgAddTeamMember',
    summary: 'Add a team member',
    response: { status: 204, description: 'added' },
    errors: [401, 403, 404],
    async handle({ res, caller, params }) {
      await teams.addMember(caller, params.id, params.username);
      res.status(204).end();
    },
  });

  routes.add({
    method: 'delete',
    path: '/teams/{id}/members/{username}',
    params: s.TeamParams,
    operationId: 'orgRemoveTeamMember',
    summary: 'Remove a team member',
    response: { status: 204, description: 'removed' },
    errors: [401, 403, 404, 409],
    async handle({ res, caller, params }) {
      await teams.removeMember(caller, params.id, params.username);
      res.status(204).end();
    },
  });
}
