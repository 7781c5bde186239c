import {
  conflict,
  forbidden,
  isUniqueConstraintViolation,
  locked,
  notFound,
  unprocessableEntity,
} from '@repo/http-errors';
import type { Store } from './store';
import { assertUsableRepositoryName } from './account-names';
import { atLeast, membershipOf, repositoryLevel, visibleAccount } from './access';
import { isSiteAdmin, requireUser, type Caller } from './caller';
import { offsetOf, type ListOptions } from './pagination';
import type { AccessLevel, IssueRecord, Page, RepositoryRecord } from './records';

export interface NewRepository {
  name: string;
  description?: string;
  website?: string;
  isPrivate?: boolean;
}

export interface RepositoryChanges {
  name?: string;
  description?: string;
  website?: string;
  isPrivate?: boolean;
  isArchived?: boolean;
}

export interface NewIssue {
  title: string;
  body?: string;
  closed?: boolean;
}

export interface NewPullRequest {
  title: string;
  body?: string;
  head: string;
  base: string;
}

export interface IssueChanges {
  title?: string;
  body?: string;
  state?: 'open' | 'closed';
}

export interface IssueFilter {
  state: 'open' | 'closed' | 'all';
  kind: 'issues' | 'pulls' | 'all';
}

export function repositoryService(store: Store) {
  /** The repository with the caller's access level; 404 when the caller cannot read it. */
  async function readable(
    caller: Caller,
    owner: string,
    name: string,
  ): Promise<{ repository: RepositoryRecord; level: AccessLevel }> {
    const repository = await store.findRepository(owner, name);
    const level = repository ? await repositoryLevel(store, caller, repository) : 'none';
    if (!repository || level === 'none') throw notFound(`repository ${owner}/${name} does not exist`);
    return { repository, level };
  }

  async function create(
    ownerId: number,
    creatorId: number,
    fields: NewRepository,
    creatorNeedsAccess: boolean,
  ) {
    assertUsableRepositoryName(fields.name);
    if (await store.repositoryNameTaken(ownerId, fields.name))
      throw conflict('The repository with the same name already exists.');
    try {
      return await store.createRepository(
        {
          ownerId,
          name: fields.name,
          description: fields.description ?? '',
          website: fields.website ?? '',
          isPrivate: fields.isPrivate ?? false,
        },
        creatorId,
        creatorNeedsAccess ? 'admin' : undefined,
      );
    } catch (error) {
      if (isUniqueConstraintViolation(error))
        throw conflict('The repository with the same name already exists.');
      throw error;
    }
  }

  function assertNotArchived(repository: RepositoryRecord): void {
    if (repository.isArchived)
      throw locked(`repository ${repository.owner.name}/${repository.name} is archived`);
  }

  return {
    readable,

    /** POST /user/repos. */
    async createForUser(
      caller: Caller,
      fields: NewRepository,
    ): Promise<{ repository: RepositoryRecord; level: AccessLevel }> {
      const user = requireUser(caller);
      return { repository: await create(user.id, user.id, fields, false), level: 'owner' };
    },

    /** POST /orgs/{org}/repos: owners and members of teams that may create repositories. */
    async createForOrganization(caller: Caller, orgName: string, fields: NewRepository) {
      const user = requireUser(caller);
      const org = await visibleAccount(store, caller, 'organization', orgName);
      const membership = await membershipOf(store, org, user.id);
      if (!isSiteAdmin(caller) && (caller.publicOnly || !membership.canCreateRepository)) {
        throw forbidden(`Given user is not allowed to create repository in organization ${org.name}.`);
      }
      // A creator who is not an owner keeps administering what they made, as in Gitea.
      const repository = await create(
        org.id,
        user.id,
        fields,
        membership.level !== 'owner' && !isSiteAdmin(caller),
      );
      return { repository, level: 'admin' as AccessLevel };
    },

    /** PATCH /repos/{owner}/{repo}: repository administrators. */
    async edit(caller: Caller, owner: string, name: string, changes: RepositoryChanges) {
      const user = requireUser(caller);
      const { repository, level } = await readable(caller, owner, name);
      if (!atLeast(level, 'admin')) throw forbidden('must be a repository administrator');
      // An archived repository only accepts being unarchived (or the same settings again).
      if (repository.isArchived && changes.isArchived !== false) {
        const other = Object.entries(changes).some(
          ([key, value]) => key !== 'isArchived' && value !== undefined,
        );
        if (other) assertNotArchived(repository);
      }
      let rename: { actorId: number; oldName: string } | undefined;
      if (changes.name !== undefined && changes.name !== repository.name) {
        assertUsableRepositoryName(changes.name);
        if (
          changes.name.toLowerCase() !== repository.lowerName &&
          (await store.repositoryNameTaken(repository.owner.id, changes.name))
        ) {
          throw unprocessableEntity('name: repository name already exists');
        }
        rename = { actorId: user.id, oldName: repository.name };
      }
      const updated = await store.updateRepository(repository.id, changes, rename);
      return { repository: updated, level };
    },

    /** DELETE /repos/{owner}/{repo}: repository owners (an organization's owners). */
    async remove(caller: Caller, owner: string, name: string): Promise<void> {
      requireUser(caller);
      const { repository, level } = await readable(caller, owner, name);
      if (!atLeast(level, 'owner')) throw forbidden('must be the repository owner');
      await store.deleteRepository(repository.id);
    },

    /** PUT /repos/{owner}/{repo}/collaborators/{collaborator}. */
    async setCollaborator(
      caller: Caller,
      owner: string,
      name: string,
      username: string,
      permission: 'read' | 'write' | 'admin',
    ) {
      requireUser(caller);
      const { repository, level } = await readable(caller, owner, name);
      if (!atLeast(level, 'admin')) throw forbidden('must be a repository administrator');
      assertNotArchived(repository);
      const user = await store.findAccountByName(username);
      if (!user || user.type !== 'user')
        throw unprocessableEntity(`collaborator: user ${username} does not exist`);
      await store.setCollaborator(repository.id, user.id, permission);
    },

    /** POST /repos/{owner}/{repo}/issues: anyone signed in who can read the repository. */
    async createIssue(
      caller: Caller,
      owner: string,
      name: string,
      fields: NewIssue,
    ): Promise<{ issue: IssueRecord; repository: RepositoryRecord }> {
      const user = requireUser(caller);
      const { repository } = await readable(caller, owner, name);
      assertNotArchived(repository);
      let issue = await store.createIssue({
        repoId: repository.id,
        posterId: user.id,
        title: fields.title,
        body: fields.body ?? '',
        isPull: false,
        headBranch: '',
        baseBranch: '',
        isPrivate: repository.isPrivate,
      });
      if (fields.closed)
        issue = await store.updateIssue(
          issue,
          { isClosed: true },
          { actorId: user.id, isPrivate: repository.isPrivate },
        );
      return { issue, repository };
    },

    /** POST /repos/{owner}/{repo}/pulls: an issue flagged as a pull request (no git data behind it). */
    async createPullRequest(caller: Caller, owner: string, name: string, fields: NewPullRequest) {
      const user = requireUser(caller);
      const { repository, level } = await readable(caller, owner, name);
      assertNotArchived(repository);
      if (fields.head === fields.base) throw unprocessableEntity('head: must differ from base');
      const issue = await store.createIssue({
        repoId: repository.id,
        posterId: user.id,
        title: fields.title,
        body: fields.body ?? '',
        isPull: true,
        headBranch: fields.head,
        baseBranch: fields.base,
        isPrivate: repository.isPrivate,
      });
      return { issue, repository, level };
    },

    async listIssues(
      caller: Caller,
      owner: string,
      name: string,
      filter: IssueFilter,
      options: ListOptions,
    ): Promise<{ page: Page<IssueRecord>; repository: RepositoryRecord }> {
      const { repository } = await readable(caller, owner, name);
      return {
        page: await store.listIssues(repository.id, filter, offsetOf(options), options.pageSize),
        repository,
      };
    },

    async getIssue(caller: Caller, owner: string, name: string, index: number) {
      const { repository } = await readable(caller, owner, name);
      const issue = await store.findIssue(repository.id, index);
      if (!issue)
        throw notFound(`issue ${index} does not exist in ${repository.owner.name}/${repository.name}`);
      return { issue, repository };
    },

    /** PATCH /repos/{owner}/{repo}/issues/{index}: the poster or a writer. */
    async editIssue(caller: Caller, owner: string, name: string, index: number, changes: IssueChanges) {
      const user = requireUser(caller);
      const { repository, level } = await readable(caller, owner, name);
      const issue = await store.findIssue(repository.id, index);
      if (!issue)
        throw notFound(`issue ${index} does not exist in ${repository.owner.name}/${repository.name}`);
      if (issue.poster.id !== user.id && !atLeast(level, 'write'))
        throw forbidden('write permission on the issue is required');
      assertNotArchived(repository);
      const updated = await store.updateIssue(
        issue,
        {
          title: changes.title,
          body: changes.body,
          isClosed: changes.state === undefined ? undefined : changes.state === 'closed',
        },
        { actorId: user.id, isPrivate: repository.isPrivate },
      );
      return { issue: updated, repository };
    },
  };
}

export type RepositoryService = ReturnType<typeof repositoryService>;
