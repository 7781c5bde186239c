import { z } from 'zod';
import { actionTypes } from '../domain/records';
import { absentObject, DateTime, emptyList, Int64 } from './primitives';

// The wire format, declared once: requests are validated with these schemas, responses are
// typed by them, the OpenAPI document is generated from them (Gitea's modules/structs), and the
// change events carry the same shapes (src/events). The request bodies are in requests.ts; the
// operations' path and query parameters and headers are HTTP's alone: src/http/parameters.ts,
// src/http/schemas.ts.

export { Int64 } from './primitives';
export * from './requests';

export const APIError = z.object({ message: z.string(), url: z.string() }).openapi('APIError');
export type APIError = z.infer<typeof APIError>;

/** Gitea's ServerVersion: the release number, e.g. `1.23.8`. */
export const ServerVersion = z.object({ version: z.string() }).openapi('ServerVersion');

export const User = z
  .object({
    id: Int64,
    login: z.string(),
    login_name: z.string(),
    source_id: Int64,
    full_name: z.string(),
    email: z.string().openapi({ format: 'email' }),
    avatar_url: z.string(),
    html_url: z.string(),
    language: z.string(),
    is_admin: z.boolean(),
    last_login: DateTime,
    created: DateTime,
    restricted: z.boolean(),
    active: z.boolean(),
    prohibit_login: z.boolean(),
    location: z.string(),
    website: z.string(),
    description: z.string(),
    visibility: z.string(),
    followers_count: Int64,
    following_count: Int64,
    starred_repos_count: Int64,
    username: z.string(),
  })
  .openapi('User');
export type User = z.infer<typeof User>;

export const Organization = z
  .object({
    id: Int64,
    name: z.string(),
    full_name: z.string(),
    email: z.string(),
    avatar_url: z.string(),
    description: z.string(),
    website: z.string(),
    location: z.string(),
    visibility: z.string(),
    repo_admin_change_team_access: z.boolean(),
    username: z.string(),
  })
  .openapi('Organization');
export type Organization = z.infer<typeof Organization>;

export const OrganizationPermissions = z
  .object({
    can_read: z.boolean(),
    can_write: z.boolean(),
    is_admin: z.boolean(),
    is_owner: z.boolean(),
    can_create_repository: z.boolean(),
  })
  .openapi('OrganizationPermissions');
export type OrganizationPermissions = z.infer<typeof OrganizationPermissions>;

export const Team = z
  .object({
    id: Int64,
    name: z.string(),
    description: z.string(),
    organization: Organization,
    includes_all_repositories: z.boolean(),
    permission: z.enum(['none', 'read', 'write', 'admin', 'owner']),
    units: z.array(z.string()),
    units_map: z.record(z.string(), z.string()),
    can_create_org_repo: z.boolean(),
  })
  .openapi('Team');
export type Team = z.infer<typeof Team>;

export const AccessToken = z
  .object({
    id: Int64,
    name: z.string(),
    sha1: z.string(),
    token_last_eight: z.string(),
    scopes: z.array(z.string()),
    created_at: DateTime,
    last_used_at: DateTime,
  })
  .openapi('AccessToken');
export type AccessToken = z.infer<typeof AccessToken>;

export const Permission = z
  .object({ admin: z.boolean(), push: z.boolean(), pull: z.boolean() })
  .openapi('Permission');

export const InternalTracker = z
  .object({
    enable_time_tracker: z.boolean(),
    allow_only_contributors_to_track_time: z.boolean(),
    enable_issue_dependencies: z.boolean(),
  })
  .openapi('InternalTracker');

export const Repository = z
  .object({
    id: Int64,
    owner: User,
    name: z.string(),
    full_name: z.string(),
    description: z.string(),
    empty: z.boolean(),
    private: z.boolean(),
    fork: z.boolean(),
    template: z.boolean(),
    parent: absentObject(),
    mirror: z.boolean(),
    size: Int64,
    language: z.string(),
    languages_url: z.string(),
    html_url: z.string(),
    url: z.string(),
    link: z.string(),
    ssh_url: z.string(),
    clone_url: z.string(),
    original_url: z.string(),
    website: z.string(),
    stars_count: Int64,
    forks_count: Int64,
    watchers_count: Int64,
    open_issues_count: Int64,
    open_pr_counter: Int64,
    release_counter: Int64,
    default_branch: z.string(),
    archived: z.boolean(),
    created_at: DateTime,
    updated_at: DateTime,
    archived_at: DateTime,
    permissions: Permission,
    has_issues: z.boolean(),
    internal_tracker: InternalTracker,
    external_tracker: absentObject(),
    has_wiki: z.boolean(),
    external_wiki: absentObject(),
    wiki_branch: z.string(),
    globally_editable_wiki: z.boolean(),
    has_pull_requests: z.boolean(),
    has_projects: z.boolean(),
    projects_mode: z.string(),
    has_releases: z.boolean(),
    has_packages: z.boolean(),
    has_actions: z.boolean(),
    has_code: z.boolean(),
    ignore_whitespace_conflicts: z.boolean(),
    allow_merge_commits: z.boolean(),
    allow_rebase: z.boolean(),
    allow_rebase_explicit: z.boolean(),
    allow_squash_merge: z.boolean(),
    allow_fast_forward_only_merge: z.boolean(),
    allow_rebase_update: z.boolean(),
    allow_manual_merge: z.boolean(),
    autodetect_manual_merge: z.boolean(),
    default_delete_branch_after_merge: z.boolean(),
    default_merge_style: z.string(),
    default_allow_maintainer_edit: z.boolean(),
    default_target_branch: z.string(),
    avatar_url: z.string(),
    internal: z.boolean(),
    mirror_interval: z.string(),
    object_format_name: z.string(),
    mirror_updated: DateTime,
    repo_transfer: absentObject(),
    topics: z.array(z.string()),
    licenses: z.array(z.string()),
  })
  .openapi('Repository');
export type Repository = z.infer<typeof Repository>;

export const Attachment = z
  .object({
    id: Int64,
    name: z.string(),
    size: Int64,
    download_count: Int64,
    created_at: DateTime,
    uuid: z.string(),
    browser_download_url: z.string(),
  })
  .openapi('Attachment');
export type Attachment = z.infer<typeof Attachment>;

const PullRequestMeta = z
  // Not a named component: a nullable $ref cannot be expressed in OpenAPI 3.0.
  .object({ merged: z.boolean(), merged_at: DateTime.nullable(), draft: z.boolean(), html_url: z.string() });

export const RepositoryMeta = z
  .object({ id: Int64, name: z.string(), owner: z.string(), full_name: z.string() })
  .openapi('RepositoryMeta');
export type RepositoryMeta = z.infer<typeof RepositoryMeta>;

export const Issue = z
  .object({
    id: Int64,
    url: z.string(),
    html_url: z.string(),
    number: Int64,
    user: User,
    original_author: z.string(),
    original_author_id: Int64,
    title: z.string(),
    body: z.string(),
    ref: z.string(),
    assets: z.array(Attachment),
    labels: emptyList(),
    milestone: absentObject(),
    assignee: absentObject(),
    assignees: absentObject(),
    state: z.enum(['open', 'closed']),
    is_locked: z.boolean(),
    comments: Int64,
    created_at: DateTime,
    updated_at: DateTime,
    closed_at: DateTime.nullable(),
    due_date: absentObject(),
    time_estimate: Int64,
    pull_request: PullRequestMeta.nullable(),
    repository: RepositoryMeta,
    pin_order: Int64,
  })
  .openapi('Issue');
export type Issue = z.infer<typeof Issue>;

const PRBranchInfo = z
  .object({ label: z.string(), ref: z.string(), sha: z.string(), repo_id: Int64, repo: Repository })
  .openapi('PRBranchInfo');

export const PullRequest = z
  .object({
    id: Int64,
    url: z.string(),
    number: Int64,
    user: User,
    title: z.string(),
    body: z.string(),
    labels: emptyList(),
    milestone: absentObject(),
    assignee: absentObject(),
    assignees: absentObject(),
    state: z.enum(['open', 'closed']),
    is_locked: z.boolean(),
    comments: Int64,
    html_url: z.string(),
    diff_url: z.string(),
    patch_url: z.string(),
    mergeable: z.boolean(),
    merged: z.boolean(),
    merged_at: absentObject(),
    merge_commit_sha: absentObject(),
    merged_by: absentObject(),
    draft: z.boolean(),
    base: PRBranchInfo,
    head: PRBranchInfo,
    merge_base: z.string(),
    due_date: absentObject(),
    created_at: DateTime,
    updated_at: DateTime,
    closed_at: DateTime.nullable(),
    pin_order: Int64,
  })
  .openapi('PullRequest');
export type PullRequest = z.infer<typeof PullRequest>;

export const Activity = z
  .object({
    id: Int64,
    user_id: Int64,
    op_type: z.enum(actionTypes),
    act_user_id: Int64,
    act_user: User,
    repo_id: Int64,
    repo: Repository,
    comment_id: Int64,
    comment: absentObject(),
    ref_name: z.string(),
    is_private: z.boolean(),
    content: z.string(),
    created: DateTime,
  })
  .openapi('Activity');
export type Activity = z.infer<typeof Activity>;
