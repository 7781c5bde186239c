import type { ApiServices } from '../api-services';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/** Issues and pull requests (Gitea routers/api/v1/repo/issue.go, pull.go). */
export function issueRoutes(table: RouteTable, { repositories, wire }: ApiServices): void {
  const routes = table.resource({ tag: 'issue', scope: 'issue' });
  routes.add({
    method: 'get',
    path: '/repos/{owner}/{repo}/issues',
    operationId: 'issueListIssues',
    summary: "List a repository's issues",
    query: s.IssueListQuery,
    response: { status: 200, description: 'IssueList', schema: s.Issue, list: true },
    errors: [404],
    async handle({ caller, query, params, paging, sendPage }) {
      const { page, repository } = await repositories.listIssues(
        caller,
        params.owner,
        params.repo,
        { state: query.state ?? 'open', kind: query.type ?? 'all' },
        paging,
      );
      sendPage(page, (issue) => wire.toIssue(issue, repository, caller));
    },
  });

  routes.add({
    method: 'post',
    path: '/repos/{owner}/{repo}/issues',
    operationId: 'issueCreateIssue',
    summary: 'Create an issue',
    body: s.CreateIssueOption,
    auth: {
      authorize: ({ caller, params }) => repositories.readableBySignedIn(caller, params.owner, params.repo),
    },
    response: { status: 201, description: 'Issue', schema: s.Issue },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, caller, body, params }) {
      const { issue, repository } = await repositories.createIssue(caller, params.owner, params.repo, body);
      res.status(201).json(wire.toIssue(issue, repository, caller));
    },
  });

  routes.add({
    method: 'get',
    path: '/repos/{owner}/{repo}/issues/{index}',
    params: s.IssueParams,
    operationId: 'issueGetIssue',
    summary: 'Get an issue',
    response: { status: 200, description: 'Issue', schema: s.Issue },
    errors: [404],
    async handle({ res, caller, params }) {
      const { issue, repository } = await repositories.getIssue(
        caller,
        params.owner,
        params.repo,
        params.index,
      );
      res.json(wire.toIssue(issue, repository, caller));
    },
  });

  routes.add({
    method: 'patch',
    path: '/repos/{owner}/{repo}/issues/{index}',
    params: s.IssueParams,
    operationId: 'issueEditIssue',
    summary: 'Edit an issue',
    body: s.EditIssueOption,
    auth: {
      authorize: ({ caller, params }) =>
        repositories.editableIssue(caller, params.owner, params.repo, params.index),
    },
    response: { status: 201, description: 'Issue', schema: s.Issue },
    errors: [401, 403, 404, 423],
    async handle({ res, caller, body, params }) {
      const { issue, repository } = await repositories.editIssue(
        caller,
        params.owner,
        params.repo,
        params.index,
        body,
      );
      // Gitea answers an issue edit with 201.
      res.status(201).json(wire.toIssue(issue, repository, caller));
    },
  });

  routes.add({
    method: 'post',
    path: '/repos/{owner}/{repo}/pulls',
    operationId: 'repoCreatePullRequest',
    summary: 'Create a pull request',
    tag: 'repository',
    body: s.CreatePullRequestOption,
    auth: {
      scope: 'repository',
      authorize: ({ caller, params }) => repositories.readableBySignedIn(caller, params.owner, params.repo),
    },
    response: { status: 201, description: 'PullRequest', schema: s.PullRequest },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, caller, body, params }) {
      const { issue, repository, level } = await repositories.createPullRequest(
        caller,
        params.owner,
        params.repo,
        body,
      );
      res.status(201).json(wire.toPullRequest(issue, repository, level, caller));
    },
  });
}
