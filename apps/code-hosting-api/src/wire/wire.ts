import { atLeast } from '../domain/access';
import type { Caller } from '../domain/caller';
// The domain's permissions under an alias: the wire shape of the same name is imported below.
import type { OrganizationPermissions as DomainOrganizationPermissions } from '../domain/organizations';
import type {
  AccessLevel,
  AccountRecord,
  ActionRecord,
  AttachmentPlace,
  AttachmentRecord,
  IssueRecord,
  RepositoryRecord,
  TeamRecord,
  TokenRecord,
} from '../domain/records';
import type {
  AccessToken,
  Activity,
  Attachment,
  Issue,
  Organization,
  OrganizationPermissions,
  PullRequest,
  Repository,
  RepositoryMeta,
  Team,
  User,
} from './schemas';

// services/convert: storage records → Gitea's wire structs. Every field is always present.

const epoch = new Date(0);

/** Go's time.Time JSON for second-precision timestamps, as Gitea emits them. */
export function goTime(date: Date | undefined): string {
  return (date ?? epoch).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function createWire(rootUrl: string) {
  const host = new URL(rootUrl).hostname;
  const avatarUrl = (account: AccountRecord) => `${rootUrl}avatars/${account.id}`;

  function toUser(account: AccountRecord, caller: Caller): User {
    const privileged = caller.user !== undefined && (caller.user.isAdmin || caller.user.id === account.id);
    return {
      id: account.id,
      login: account.name,
      login_name: '',
      source_id: 0,
      full_name: account.fullName,
      // Others see Gitea's placeholder address, never the real one.
      email: privileged && account.email ? account.email : `${account.lowerName}@noreply.${host}`,
      avatar_url: avatarUrl(account),
      html_url: `${rootUrl}${account.name}`,
      language: '',
      is_admin: privileged ? account.isAdmin : false,
      last_login: goTime(privileged ? account.lastLoginAt : undefined),
      created: goTime(account.createdAt),
      restricted: false,
      active: account.isActive,
      prohibit_login: false,
      location: account.location,
      website: account.website,
      description: account.description,
      visibility: account.visibility,
      followers_count: 0,
      following_count: 0,
      starred_repos_count: 0,
      username: account.name,
    };
  }

  function toOrganization(org: AccountRecord, caller: Caller): Organization {
    return organizationAsSeen(org, caller.user !== undefined);
  }

  /** The organization as any signed-in caller sees it (every write's caller; the change events' `data`). */
  function toSignedInOrganization(org: AccountRecord): Organization {
    return organizationAsSeen(org, true);
  }

  function organizationAsSeen(org: AccountRecord, signedIn: boolean): Organization {
    return {
      id: org.id,
      name: org.name,
      full_name: org.fullName,
      // Organization rule 3: the email is emptied for anonymous readers.
      email: signedIn ? org.email : '',
      avatar_url: avatarUrl(org),
      description: org.description,
      website: org.website,
      location: org.location,
      visibility: org.visibility,
      repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
      username: org.name,
    };
  }

  function toPermissions(permissions: DomainOrganizationPermissions): OrganizationPermissions {
    return {
      can_read: permissions.canRead,
      can_write: permissions.canWrite,
      is_admin: permissions.isAdmin,
      is_owner: permissions.isOwner,
      can_create_repository: permissions.canCreateRepository,
    };
  }

  function toTeam(team: TeamRecord, org: AccountRecord, caller: Caller): Team {
    const unitLevel = team.permission === 'owner' ? 'owner' : team.permission;
    const units = [
      'repo.code',
      'repo.issues',
      'repo.ext_issues',
      'repo.wiki',
      'repo.pulls',
      'repo.releases',
      'repo.projects',
      'repo.ext_wiki',
    ];
    return {
      id: team.id,
      name: team.name,
      description: team.description,
      organization: toOrganization(org, caller),
      includes_all_repositories: team.includesAllRepositories,
      permission: team.permission,
      units,
      units_map: Object.fromEntries(units.map((unit) => [unit, unitLevel])),
      can_create_org_repo: team.canCreateOrgRepo,
    };
  }

  function repositoryPath(repository: RepositoryRecord): string {
    return `${repository.owner.name}/${repository.name}`;
  }

  /** Gitea's RepositoryMeta: which repository an issue (or an attachment's event) belongs to. */
  function toRepositoryMeta({ id, owner, name }: AttachmentPlace['repository']): RepositoryMeta {
    return { id, name, owner, full_name: `${owner}/${name}` };
  }

  function toRepository(repository: RepositoryRecord, level: AccessLevel, caller: Caller): Repository {
    const path = repositoryPath(repository);
    const apiUrl = `${rootUrl}api/v1/repos/${path}`;
    return {
      id: repository.id,
      owner: toUser(repository.owner, caller),
      name: repository.name,
      full_name: path,
      description: repository.description,
      empty: true,
      private: repository.isPrivate,
      fork: false,
      template: false,
      parent: null,
      mirror: false,
      size: 0,
      language: '',
      languages_url: `${apiUrl}/languages`,
      html_url: `${rootUrl}${path}`,
      url: apiUrl,
      link: '',
      ssh_url: `git@${host}:${path}.git`,
      clone_url: `${rootUrl}${path}.git`,
      original_url: '',
      website: repository.website,
      stars_count: 0,
      forks_count: 0,
      watchers_count: 0,
      open_issues_count: repository.openIssueCount,
      open_pr_counter: repository.openPullCount,
      release_counter: 0,
      default_branch: 'main',
      archived: repository.isArchived,
      created_at: goTime(repository.createdAt),
      updated_at: goTime(repository.updatedAt),
      archived_at: goTime(repository.archivedAt),
      permissions: {
        admin: atLeast(level, 'admin'),
        push: atLeast(level, 'write'),
        pull: atLeast(level, 'read'),
      },
      has_issues: true,
      internal_tracker: {
        enable_time_tracker: true,
        allow_only_contributors_to_track_time: true,
        enable_issue_dependencies: true,
      },
      external_tracker: null,
      has_wiki: true,
      external_wiki: null,
      wiki_branch: 'main',
      globally_editable_wiki: false,
      has_pull_requests: true,
      has_projects: true,
      projects_mode: 'all',
      has_releases: true,
      has_packages: true,
      has_actions: true,
      has_code: true,
      ignore_whitespace_conflicts: false,
      allow_merge_commits: true,
      allow_rebase: true,
      allow_rebase_explicit: true,
      allow_squash_merge: true,
      allow_fast_forward_only_merge: true,
      allow_rebase_update: true,
      allow_manual_merge: false,
      autodetect_manual_merge: false,
      default_delete_branch_after_merge: false,
      default_merge_style: 'merge',
      default_allow_maintainer_edit: false,
      default_target_branch: 'main',
      avatar_url: '',
      internal: repository.owner.visibility === 'limited',
      mirror_interval: '',
      object_format_name: 'sha1',
      mirror_updated: goTime(undefined),
      repo_transfer: null,
      topics: [],
      licenses: [],
    };
  }

  function toAttachment(attachment: AttachmentRecord): Attachment {
    return {
      id: attachment.id,
      name: attachment.name,
      size: attachment.size,
      download_count: attachment.downloadCount,
      created_at: goTime(attachment.createdAt),
      uuid: attachment.uuid,
      browser_download_url: `${rootUrl}attachments/${attachment.uuid}`,
    };
  }

  function toIssue(issue: IssueRecord, repository: RepositoryRecord, caller: Caller): Issue {
    const path = repositoryPath(repository);
    const htmlUrl = `${rootUrl}${path}/${issue.isPull ? 'pulls' : 'issues'}/${issue.index}`;
    return {
      id: issue.id,
      url: `${rootUrl}api/v1/repos/${path}/issues/${issue.index}`,
      html_url: htmlUrl,
      number: issue.index,
      user: toUser(issue.poster, caller),
      original_author: '',
      original_author_id: 0,
      title: issue.title,
      body: issue.body,
      ref: '',
      assets: issue.attachments.map(toAttachment),
      labels: [],
      milestone: null,
      assignee: null,
      assignees: null,
      state: issue.isClosed ? 'closed' : 'open',
      is_locked: false,
      comments: 0,
      created_at: goTime(issue.createdAt),
      updated_at: goTime(issue.updatedAt),
      closed_at: issue.closedAt ? goTime(issue.closedAt) : null,
      due_date: null,
      time_estimate: 0,
      pull_request: issue.isPull ? { merged: false, merged_at: null, draft: false, html_url: htmlUrl } : null,
      repository: toRepositoryMeta({
        id: repository.id,
        owner: repository.owner.name,
        name: repository.name,
      }),
      pin_order: 0,
    };
  }

  function toPullRequest(
    issue: IssueRecord,
    repository: RepositoryRecord,
    level: AccessLevel,
    caller: Caller,
  ): PullRequest {
    const path = repositoryPath(repository);
    const htmlUrl = `${rootUrl}${path}/pulls/${issue.index}`;
    const repo = toRepository(repository, level, caller);
    const branch = (ref: string) => ({ label: ref, ref, sha: '', repo_id: repository.id, repo });
    return {
      id: issue.id,
      url: htmlUrl,
      number: issue.index,
      user: toUser(issue.poster, caller),
      title: issue.title,
      body: issue.body,
      labels: [],
      milestone: null,
      assignee: null,
      assignees: null,
      state: issue.isClosed ? 'closed' : 'open',
      is_locked: false,
      comments: 0,
      html_url: htmlUrl,
      diff_url: `${htmlUrl}.diff`,
      patch_url: `${htmlUrl}.patch`,
      mergeable: false,
      merged: false,
      merged_at: null,
      merge_commit_sha: null,
      merged_by: null,
      draft: false,
      base: branch(issue.baseBranch),
      head: branch(issue.headBranch),
      merge_base: '',
      due_date: null,
      created_at: goTime(issue.createdAt),
      updated_at: goTime(issue.updatedAt),
      closed_at: issue.closedAt ? goTime(issue.closedAt) : null,
      pin_order: 0,
    };
  }

  function toActivity(action: ActionRecord, caller: Caller, level: AccessLevel): Activity {
    return {
      id: action.id,
      user_id: action.repository.owner.id,
      op_type: action.opType,
      act_user_id: action.actUser.id,
      act_user: toUser(action.actUser, caller),
      repo_id: action.repository.id,
      repo: toRepository(action.repository, level, caller),
      comment_id: 0,
      comment: null,
      ref_name: action.refName,
      is_private: action.isPrivate,
      content: action.content,
      created: goTime(action.createdAt),
    };
  }

  function toAccessToken(token: TokenRecord, secret: string): AccessToken {
    return {
      id: token.id,
      name: token.name,
      sha1: secret,
      token_last_eight: token.tokenLastEight,
      scopes: token.scopes,
      created_at: goTime(token.createdAt),
      last_used_at: goTime(token.lastUsedAt),
    };
  }

  return {
    toUser,
    toOrganization,
    toSignedInOrganization,
    toPermissions,
    toTeam,
    toRepository,
    toIssue,
    toAttachment,
    toRepositoryMeta,
    toPullRequest,
    toActivity,
    toAccessToken,
  };
}

export type Wire = ReturnType<typeof createWire>;
