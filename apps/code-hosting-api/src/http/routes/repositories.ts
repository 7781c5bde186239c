import type { z } from 'zod';
import type { NewRepository } from '../../domain/repositories';
import type { ApiServices } from '../api-services';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/** A repository as a create gives it, for the user's own or an organization. */
function newRepositoryOf(body: z.infer<typeof s.CreateRepoOption>): NewRepository {
  return { name: body.name, description: body.description, isPrivate: body.private };
}

/** Repositories and collaborators (Gitea routers/api/v1/repo/repo.go, collaborators.go). */
export function repositoryRoutes(table: RouteTable, { repositories, wire }: ApiServices): void {
  const routes = table.resource({ tag: 'repository', scope: 'repository' });
  routes.add({
    method: 'post',
    path: '/user/repos',
    operationId: 'createCurrentUserRepo',
    summary: 'Create a repository',
    body: s.CreateRepoOption,
    response: { status: 201, description: 'Repository', schema: s.Repository },
    errors: [401, 409, 422],
    async handle({ res, caller, body }) {
      const { repository, level } = await repositories.createForUser(caller, newRepositoryOf(body));
      res.status(201).json(wire.toRepository(repository, level, caller));
    },
  });

  // Gitea keeps the singular path for older clients (createOrgRepoDeprecated); the Go SDK's
  // CreateOrgRepo still posts there. One operation, two paths.
  for (const [path, operationId, deprecated] of [
    ['/orgs/{org}/repos', 'createOrgRepo', false],
    ['/org/{org}/repos', 'createOrgRepoDeprecated', true],
  ] as const) {
    routes.add({
      method: 'post',
      path,
      operationId,
      summary: 'Create a repository in an organization',
      deprecated,
      tag: 'organization',
      body: s.CreateRepoOption,
      auth: { authorize: ({ caller, params }) => repositories.creatableIn(caller, params.org) },
      response: { status: 201, description: 'Repository', schema: s.Repository },
      errors: [401, 403, 404, 409, 422],
      async handle({ res, caller, body, params }) {
        const { repository, level } = await repositories.createForOrganization(
          caller,
          params.org,
          newRepositoryOf(body),
        );
        res.status(201).json(wire.toRepository(repository, level, caller));
      },
    });
  }

  routes.add({
    method: 'get',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoGet',
    summary: 'Get a repository',
    response: { status: 200, description: 'Repository', schema: s.Repository },
    errors: [404],
    async handle({ res, caller, params }) {
      const { repository, level } = await repositories.readable(caller, params.owner, params.repo);
      res.json(wire.toRepository(repository, level, caller));
    },
  });

  routes.add({
    method: 'patch',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoEdit',
    summary: "Edit a repository's properties",
    body: s.EditRepoOption,
    auth: { authorize: ({ caller, params }) => repositories.administered(caller, params.owner, params.repo) },
    response: { status: 200, description: 'Repository', schema: s.Repository },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, caller, body, params }) {
      const { repository, level } = await repositories.edit(caller, params.owner, params.repo, {
        name: body.name,
        description: body.description,
        website: body.website,
        isPrivate: body.private,
        isArchived: body.archived,
      });
      res.json(wire.toRepository(repository, level, caller));
    },
  });

  routes.add({
    method: 'delete',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoDelete',
    // Its attachments' attachment.deleted events.
    xSync: true,
    summary: 'Delete a repository',
    response: { status: 204, description: 'deleted' },
    errors: [401, 403, 404],
    async handle({ res, caller, params, settleSync }) {
      await repositories.remove(caller, params.owner, params.repo);
      await settleSync();
      res.status(204).end();
    },
  });

  routes.add({
    method: 'put',
    path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
    operationId: 'repoAddCollaborator',
    summary: 'Add or update a collaborator',
    body: s.AddCollaboratorOption,
    auth: { authorize: ({ caller, params }) => repositories.administered(caller, params.owner, params.repo) },
    response: { status: 204, description: 'added' },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, caller, body, params }) {
      await repositories.setCollaborator(
        caller,
        params.owner,
        params.repo,
        params.collaborator,
        body.permission ?? 'write',
      );
      res.status(204).end();
    },
  });
}
