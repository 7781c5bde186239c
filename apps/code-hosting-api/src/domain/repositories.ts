import { conflict, forbidden, notFound, unprocessableEntity } from '@repo/http-errors';
import type { NewAction } from './action-store';
import type { IssueInsert } from './issue-store';
import type { Store } from './store';
import { assertUsableRepositoryName } from './account-names';
import { atLeast, membershipOf, repositoryLevel, visibleOrganization } from './access';
import { isSiteAdmin, requireUser, type Caller } from './caller';
import { assertMayWriteIssue, assertNotArchived, existingIssue } from './repository-rules';
import { offsetOf, type ListOptions } from './pagination';
import type { AccessLevel, ActionType, IssueRecord, Page, RepositoryRecord } from './records';
import type { RequestedNumber } from './requested-number';

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

const nameExists = () => unprocessableEntity('name: repository name already exists');

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
  ): Promise<RepositoryRecord> {
    assertUsableRepositoryName(fields.name);
    const taken = () => conflict('The repository with the same name already exists.');
    if (await store.repositoryNameTaken(ownerId, fields.name)) throw taken();
    const isPrivate = fields.isPrivate ?? false;
    const created = await store.createRepository(
      {
        ownerId,
        name: fields.name,
        description: fields.description ?? '',
        website: fields.website ?? '',
        isPrivate,
      },
      {
        collaborator: creatorNeedsAccess ? { accountId: creatorId, permission: 'admin' } : undefined,
        action: { actUserId: creatorId, opType: 'create_repo', isPrivate, content: '' },
      },
    );
    // A concurrent creation of the same name may have won since the check above.
    if (created.kind === 'name-taken') throw taken();
    return created.value;
  }

  /** Opens an issue or pull request; its feed entry names the index the store allocates. */
  function openIssue(repository: RepositoryRecord, issue: IssueInsert): Promise<IssueRecord> {
    const opType: ActionType = issue.isPull ? 'create_pull_request' : 'create_issue';
    return store.createIssue(issue, (index) => ({
      actUserId: issue.posterId,
      opType,
      isPrivate: repository.isPrivate,
      content: `${index}|${issue.title}`,
    }));
  }

  /** Applies the changes; a change of state stamps closedAt and records a close/reopen feed entry. */
  function updateIssue(
    repository: RepositoryRecord,
    issue: IssueRecord,
    actorId: number,
    changes: { title?: string; body?: string; isClosed?: boolean },
  ): Promise<IssueRecord> {
    if (changes.isClosed === undefined || changes.isClosed === issue.isClosed)
      return store.updateIssue(issue, changes, undefined);
    const verb = changes.isClosed ? 'close' : 'reopen';
    const action: NewAction = {
      actUserId: actorId,
      opType: `${verb}_${issue.isPull ? 'pull_request' : 'issue'}`,
      isPrivate: repository.isPrivate,
      content: `${issue.index}|`,
    };
    return store.updateIssue(issue, { ...changes, closedAt: changes.isClosed ? new Date() : null }, action);
  }

  /** The organization the caller may create repositories in: owners and teams that may. */
  async function creatableIn(caller: Caller, orgName: string) {
    const user = requireUser(caller);
    const org = await visibleOrganization(store, caller, orgName);
    const membership = await membershipOf(store, org, user.id);
    if (!isSiteAdmin(caller) && (caller.publicOnly || !membership.canCreateRepository)) {
      throw forbidden(`Given user is not allowed to create repository in organization ${org.name}.`);
    }
    return { user, org, membership };
  }

  /** The repository when the caller administers it (settings, collaborators). */
  async function administered(caller: Caller, owner: string, name: string) {
    const user = requireUser(caller);
    const found = await readable(caller, owner, name);
    if (!atLeast(found.level, 'admin')) throw forbidden('must be a repository administrator');
    return { user, ...found };
  }

  /** The repository when a signed-in caller may read it (and so open issues and pull requests). */
  async function readableBySignedIn(caller: Caller, owner: string, name: string) {
    const user = requireUser(caller);
    return { user, ...(await readable(caller, owner, name)) };
  }

  /** The issue when the caller may edit it: its poster or a writer. */
  async function editableIssue(caller: Caller, owner: string, name: string, index: RequestedNumber) {
    const { user, repository, level } = await readableBySignedIn(caller, owner, name);
    const issue = await existingIssue(store, repository, index);
    assertMayWriteIssue(caller, issue, level);
    return { user, repository, issue };
  }

  return {
    readable,
    creatableIn,
    administered,
    readableBySignedIn,
    editableIssue,

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
      const { user, org, membership } = await creatableIn(caller, orgName);
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
      const { user, repository, level } = await administered(caller, owner, name);
      // An archived repository only accepts being unarchived (or the same settings again).
      if (repository.isArchived && changes.isArchived !== false) {
        const other = Object.entries(changes).some(
          ([key, value]) => key !== 'isArchived' && value !== undefined,
        );
        if (other) assertNotArchived(repository);
      }
      let action: NewAction | undefined;
      if (changes.name !== undefined && changes.name !== repository.name) {
        assertUsableRepositoryName(changes.name);
        if (
          changes.name.toLowerCase() !== repository.lowerName &&
          (await store.repositoryNameTaken(repository.owner.id, changes.name))
        ) {
          throw nameExists();
        }
        const isPrivate = changes.isPrivate ?? repository.isPrivate;
        action = { actUserId: user.id, opType: 'rename_repo', isPrivate, content: repository.name };
      }
      const updated = await store.updateRepository(
        repository.id,
        {
          name: changes.name,
          description: changes.description,
          website: changes.website,
          isPrivate: changes.isPrivate,
          isArchived: changes.isArchived,
          ...(changes.isArchived === undefined ? {} : { archivedAt: changes.isArchived ? new Date() : null }),
        },
        // Feed entries follow the repository's privacy, so a repository made private hides its history.
        { action, feedPrivacy: changes.isPrivate },
      );
      // A concurrent rename to the same name may have won since the check above.
      if (updated.kind === 'name-taken') throw nameExists();
      return { repository: updated.value, level };
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
      const { repository } = await administered(caller, owner, name);
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
      const { user, repository } = await readableBySignedIn(caller, owner, name);
      assertNotArchived(repository);
      let issue = await openIssue(repository, {
        repoId: repository.id,
        posterId: user.id,
        title: fields.title,
        body: fields.body ?? '',
        isPull: false,
        headBranch: '',
        baseBranch: '',
      });
      if (fields.closed) issue = await updateIssue(repository, issue, user.id, { isClosed: true });
      return { issue, repository };
    },

    /** POST /repos/{owner}/{repo}/pulls: an issue flagged as a pull request (no git data behind it). */
    async createPullRequest(caller: Caller, owner: string, name: string, fields: NewPullRequest) {
      const { user, repository, level } = await readableBySignedIn(caller, owner, name);
      assertNotArchived(repository);
      if (fields.head === fields.base) throw unprocessableEntity('head: must differ from base');
      const issue = await openIssue(repository, {
        repoId: repository.id,
        posterId: user.id,
        title: fields.title,
        body: fields.body ?? '',
        isPull: true,
        headBranch: fields.head,
        baseBranch: fields.base,
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

    async getIssue(caller: Caller, owner: string, name: string, index: RequestedNumber) {
      const { repository } = await readable(caller, owner, name);
      const issue = await existingIssue(store, repository, index);
      return { issue, repository };
    },

    /** PATCH /repos/{owner}/{repo}/issues/{index}: the poster or a writer. */
    async editIssue(
      caller: Caller,
      owner: string,
      name: string,
      index: RequestedNumber,
      changes: IssueChanges,
    ) {
      const { user, repository, issue } = await editableIssue(caller, owner, name, index);
      assertNotArchived(repository);
      const updated = await updateIssue(repository, issue, user.id, {
        title: changes.title,
        body: changes.body,
        isClosed: changes.state === undefined ? undefined : changes.state === 'closed',
      });
      return { issue: updated, repository };
    },
  };
}

export type RepositoryService = ReturnType<typeof repositoryService>;
