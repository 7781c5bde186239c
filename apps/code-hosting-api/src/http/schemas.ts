import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { actionTypes } from '../domain/records';
import { requestedNumber } from '../domain/requested-number';

// The wire format, declared once: requests are validated with these schemas, responses are
// typed by them, and the OpenAPI document is generated from them (Gitea's modules/structs).

extendZodWithOpenApi(z);

const visibility = z.enum(['public', 'limited', 'private']);
const dateTime = z.string().openapi({ format: 'date-time' });
const int64 = z.number().int().openapi({ format: 'int64' });
/** A Gitea object this service has no data for: always null here (OpenAPI 3.0 needs a type beside nullable). */
const absentObject = () => z.object({}).nullable();
/** A Gitea list this service has no data for (labels): always empty. */
const emptyList = () => z.array(z.unknown().openapi({ type: 'object' }));

/** Gitea's binding ValidUrl: empty, or an http(s) URL. */
const website = z
  .string()
  .max(255)
  .refine(
    (value) => value === '' || /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(value),
    'must be a valid http or https URL',
  );

// ---- requests ---------------------------------------------------------------------------

/**
 * An optional request field as Gitea binds it. `null` is "not given": Go decodes a JSON null into
 * the zero value (a pointer stays nil), and Gitea's clients send null for every unset pointer
 * (gitea-js, the Go SDK's `*string`). With `emptyIsAbsent`, `""` is "not given" too: the fields
 * whose Gitea handler skips an empty value (enums such as `visibility` or `state`, an issue edit's
 * `title`, an edit's `password`, an attachment's new `name`), which the Go SDK sends as `""` when
 * unset. The OpenAPI document says both (nullable; `""` among an enum's values).
 */
function optionalField<T extends z.ZodType>(schema: T, options: { emptyIsAbsent?: boolean } = {}) {
  const field = z.preprocess(
    (value) => (value === null || (options.emptyIsAbsent && value === '') ? undefined : value),
    schema.optional(),
  );
  if (!options.emptyIsAbsent) return field;
  if (schema instanceof z.ZodEnum)
    return field.openapi({ enum: [...(schema.options as string[]), '', null] });
  // A string that must not be empty when given still accepts "" (not given).
  return schema instanceof z.ZodString ? field.openapi({ minLength: 0 }) : field;
}

export const createOrgOption = z
  .object({
    username: z.string().min(1),
    full_name: optionalField(z.string().max(100)),
    email: optionalField(z.string().max(255)),
    description: optionalField(z.string().max(255)),
    website: optionalField(website),
    location: optionalField(z.string().max(50)),
    // Gitea accepts "" for the default.
    visibility: optionalField(visibility, { emptyIsAbsent: true }),
    repo_admin_change_team_access: optionalField(z.boolean()),
  })
  .openapi('CreateOrgOption');

export const editOrgOption = z
  .object({
    // The Go SDK's EditOrgOption has no omitempty: every string the caller leaves unset goes out as
    // "". The seed's rule is that only the fields supplied change, so "" is "not given" here (the
    // spec's "optional strings"); `email: ""` alone clears, as the seed says.
    full_name: optionalField(z.string().max(100), { emptyIsAbsent: true }),
    email: optionalField(z.string().max(255)),
    description: optionalField(z.string().max(255), { emptyIsAbsent: true }),
    website: optionalField(website, { emptyIsAbsent: true }),
    location: optionalField(z.string().max(50), { emptyIsAbsent: true }),
    visibility: optionalField(visibility, { emptyIsAbsent: true }),
    repo_admin_change_team_access: optionalField(z.boolean()),
  })
  .openapi('EditOrgOption');

export const renameOrgOption = z.object({ new_name: z.string().min(1) }).openapi('RenameOrgOption');

export const createUserOption = z
  .object({
    username: z.string().min(1),
    email: z.string().min(1).max(255),
    password: z.string().min(1).max(255),
    full_name: optionalField(z.string().max(100)),
    visibility: optionalField(visibility, { emptyIsAbsent: true }),
    login_name: optionalField(z.string()),
    source_id: optionalField(z.number().int()),
    must_change_password: optionalField(z.boolean()),
    send_notify: optionalField(z.boolean()),
    restricted: optionalField(z.boolean()),
  })
  .openapi('CreateUserOption');

export const editUserOption = z
  .object({
    admin: optionalField(z.boolean()),
    allow_create_organization: optionalField(z.boolean()),
    active: optionalField(z.boolean()),
    // Gitea changes the password only when one is given; the Go SDK always sends the field.
    password: optionalField(z.string().min(1).max(255), { emptyIsAbsent: true }),
    email: optionalField(z.string().max(255)),
    full_name: optionalField(z.string().max(100)),
    visibility: optionalField(visibility, { emptyIsAbsent: true }),
    description: optionalField(z.string().max(255)),
    website: optionalField(website),
    location: optionalField(z.string().max(50)),
    login_name: optionalField(z.string()),
    source_id: optionalField(z.number().int()),
  })
  .openapi('EditUserOption');

export const createAccessTokenOption = z
  .object({ name: z.string().min(1).max(255), scopes: optionalField(z.array(z.string())) })
  .openapi('CreateAccessTokenOption');

const teamPermission = z.enum(['read', 'write', 'admin', 'owner']);

export const createTeamOption = z
  .object({
    name: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[-.\w]+$/, 'must be valid alpha or numeric or dash(-_) or dot characters'),
    description: optionalField(z.string().max(255)),
    permission: optionalField(teamPermission, { emptyIsAbsent: true }),
    can_create_org_repo: optionalField(z.boolean()),
    includes_all_repositories: optionalField(z.boolean()),
    units: optionalField(z.array(z.string())),
    units_map: optionalField(z.record(z.string(), z.string())),
  })
  .openapi('CreateTeamOption');

export const createRepoOption = z
  .object({
    name: z.string().min(1).max(100),
    description: optionalField(z.string().max(2048)),
    private: optionalField(z.boolean()),
    auto_init: optionalField(z.boolean()),
    default_branch: optionalField(z.string()),
    template: optionalField(z.boolean()),
  })
  .openapi('CreateRepoOption');

export const editRepoOption = z
  .object({
    name: optionalField(z.string().min(1).max(100)),
    description: optionalField(z.string().max(2048)),
    website: optionalField(website),
    private: optionalField(z.boolean()),
    archived: optionalField(z.boolean()),
  })
  .openapi('EditRepoOption');

export const addCollaboratorOption = z
  .object({ permission: optionalField(z.enum(['read', 'write', 'admin']), { emptyIsAbsent: true }) })
  .openapi('AddCollaboratorOption');

export const createIssueOption = z
  .object({
    title: z.string().min(1).max(255),
    body: optionalField(z.string()),
    closed: optionalField(z.boolean()),
  })
  .openapi('CreateIssueOption');

export const editIssueOption = z
  .object({
    // An edit's `title` and `body` sent as "" are not given (the spec's "Clients unchanged").
    title: optionalField(z.string().min(1).max(255), { emptyIsAbsent: true }),
    body: optionalField(z.string(), { emptyIsAbsent: true }),
    state: optionalField(z.enum(['open', 'closed']), { emptyIsAbsent: true }),
  })
  .openapi('EditIssueOption');

export const createPullRequestOption = z
  .object({
    title: z.string().min(1).max(255),
    body: optionalField(z.string()),
    head: z.string().min(1),
    base: z.string().min(1),
  })
  .openapi('CreatePullRequestOption');

/**
 * A query value as Gitea's ctx.FormString reads it: the first of repeated parameters, and an
 * empty value (`?state=`) is not given.
 */
function firstValue<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    const first: unknown = Array.isArray(value) ? value[0] : value;
    return first === '' ? undefined : first;
  }, schema.optional());
}

export const listQuery = z.object({
  page: firstValue(z.string()).openapi({
    description: 'page number of results to return (1-based)',
    type: 'integer',
  }),
  limit: firstValue(z.string()).openapi({ description: 'page size of results', type: 'integer' }),
});

export const feedQuery = listQuery.extend({
  date: firstValue(z.string()).openapi({
    type: 'string',
    format: 'date',
    description: 'the date of the activities to be found',
  }),
});

export const issueListQuery = listQuery.extend({
  state: firstValue(z.enum(['open', 'closed', 'all'])).openapi({
    type: 'string',
    enum: ['open', 'closed', 'all'],
  }),
  type: firstValue(z.enum(['issues', 'pulls'])).openapi({ type: 'string', enum: ['issues', 'pulls'] }),
});

export const editAttachmentOptions = z
  .object({ name: optionalField(z.string(), { emptyIsAbsent: true }) })
  .openapi('EditAttachmentOptions');

/** The upload's query: `name`, the display name instead of the uploaded file's own. */
export const attachmentUploadQuery = z.object({
  name: firstValue(z.string()).openapi({ type: 'string', description: 'name of the attachment' }),
});

/** An avatar's query: `size`, its width and height in pixels (Gitea's parameter). */
export const avatarQuery = z.object({
  size: firstValue(z.string()).openapi({ type: 'integer', description: 'width and height in pixels' }),
});

/** The upload's multipart/form-data body (streamed by the handler, documented here). */
export const attachmentUploadForm = z.object({
  attachment: z.string().openapi({ type: 'string', format: 'binary', description: 'attachment to upload' }),
});

// ---- path parameters --------------------------------------------------------------------

/**
 * A team id, issue index or attachment id in the path, read as requested-number.ts reads it.
 * Never refused here: a number no row can have is "not found", which the use case answers after
 * the checks that come first in Gitea (the repository, the caller's access). Documented as
 * Gitea documents it, an int64.
 */
function numberParam(description: string) {
  return z.string().transform(requestedNumber).openapi({ type: 'integer', format: 'int64', description });
}

export const indexParam = numberParam('index of the issue');
export const attachmentIdParam = numberParam('id of the attachment');
export const teamIdParam = numberParam('id of the team');
export const accountIdParam = numberParam('id of the user or organization');

/** `/repos/{owner}/{repo}/issues/{index}…` */
export const issueParams = z.object({ index: indexParam });
/** `/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}` */
export const attachmentParams = issueParams.extend({ attachment_id: attachmentIdParam });
/** `/teams/{id}/…` */
export const teamParams = z.object({ id: teamIdParam });
/** `/avatars/{id}` */
export const avatarParams = z.object({ id: accountIdParam });

// ---- responses --------------------------------------------------------------------------

export const apiError = z.object({ message: z.string(), url: z.string() }).openapi('APIError');

/** Gitea's ServerVersion: the release number, e.g. `1.23.8`. */
export const serverVersion = z.object({ version: z.string() }).openapi('ServerVersion');

export const user = z
  .object({
    id: int64,
    login: z.string(),
    login_name: z.string(),
    source_id: int64,
    full_name: z.string(),
    email: z.string().openapi({ format: 'email' }),
    avatar_url: z.string(),
    html_url: z.string(),
    language: z.string(),
    is_admin: z.boolean(),
    last_login: dateTime,
    created: dateTime,
    restricted: z.boolean(),
    active: z.boolean(),
    prohibit_login: z.boolean(),
    location: z.string(),
    website: z.string(),
    description: z.string(),
    visibility: z.string(),
    followers_count: int64,
    following_count: int64,
    starred_repos_count: int64,
    username: z.string(),
  })
  .openapi('User');

export const organization = z
  .object({
    id: int64,
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

export const organizationPermissions = z
  .object({
    can_read: z.boolean(),
    can_write: z.boolean(),
    is_admin: z.boolean(),
    is_owner: z.boolean(),
    can_create_repository: z.boolean(),
  })
  .openapi('OrganizationPermissions');

export const team = z
  .object({
    id: int64,
    name: z.string(),
    description: z.string(),
    organization: organization,
    includes_all_repositories: z.boolean(),
    permission: z.enum(['none', 'read', 'write', 'admin', 'owner']),
    units: z.array(z.string()),
    units_map: z.record(z.string(), z.string()),
    can_create_org_repo: z.boolean(),
  })
  .openapi('Team');

export const accessToken = z
  .object({
    id: int64,
    name: z.string(),
    sha1: z.string(),
    token_last_eight: z.string(),
    scopes: z.array(z.string()),
    created_at: dateTime,
    last_used_at: dateTime,
  })
  .openapi('AccessToken');

export const permission = z
  .object({ admin: z.boolean(), push: z.boolean(), pull: z.boolean() })
  .openapi('Permission');

export const internalTracker = z
  .object({
    enable_time_tracker: z.boolean(),
    allow_only_contributors_to_track_time: z.boolean(),
    enable_issue_dependencies: z.boolean(),
  })
  .openapi('InternalTracker');

export const repository = z
  .object({
    id: int64,
    owner: user,
    name: z.string(),
    full_name: z.string(),
    description: z.string(),
    empty: z.boolean(),
    private: z.boolean(),
    fork: z.boolean(),
    template: z.boolean(),
    parent: absentObject(),
    mirror: z.boolean(),
    size: int64,
    language: z.string(),
    languages_url: z.string(),
    html_url: z.string(),
    url: z.string(),
    link: z.string(),
    ssh_url: z.string(),
    clone_url: z.string(),
    original_url: z.string(),
    website: z.string(),
    stars_count: int64,
    forks_count: int64,
    watchers_count: int64,
    open_issues_count: int64,
    open_pr_counter: int64,
    release_counter: int64,
    default_branch: z.string(),
    archived: z.boolean(),
    created_at: dateTime,
    updated_at: dateTime,
    archived_at: dateTime,
    permissions: permission,
    has_issues: z.boolean(),
    internal_tracker: internalTracker,
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
    mirror_updated: dateTime,
    repo_transfer: absentObject(),
    topics: z.array(z.string()),
    licenses: z.array(z.string()),
  })
  .openapi('Repository');

export const attachment = z
  .object({
    id: int64,
    name: z.string(),
    size: int64,
    download_count: int64,
    created_at: dateTime,
    uuid: z.string(),
    browser_download_url: z.string(),
  })
  .openapi('Attachment');

const pullRequestMeta = z
  // Not a named component: a nullable $ref cannot be expressed in OpenAPI 3.0.
  .object({ merged: z.boolean(), merged_at: dateTime.nullable(), draft: z.boolean(), html_url: z.string() });

const repositoryMeta = z
  .object({ id: int64, name: z.string(), owner: z.string(), full_name: z.string() })
  .openapi('RepositoryMeta');

export const issue = z
  .object({
    id: int64,
    url: z.string(),
    html_url: z.string(),
    number: int64,
    user: user,
    original_author: z.string(),
    original_author_id: int64,
    title: z.string(),
    body: z.string(),
    ref: z.string(),
    assets: z.array(attachment),
    labels: emptyList(),
    milestone: absentObject(),
    assignee: absentObject(),
    assignees: absentObject(),
    state: z.enum(['open', 'closed']),
    is_locked: z.boolean(),
    comments: int64,
    created_at: dateTime,
    updated_at: dateTime,
    closed_at: dateTime.nullable(),
    due_date: absentObject(),
    time_estimate: int64,
    pull_request: pullRequestMeta.nullable(),
    repository: repositoryMeta,
    pin_order: int64,
  })
  .openapi('Issue');

const branchInfo = z
  .object({ label: z.string(), ref: z.string(), sha: z.string(), repo_id: int64, repo: repository })
  .openapi('PRBranchInfo');

export const pullRequest = z
  .object({
    id: int64,
    url: z.string(),
    number: int64,
    user: user,
    title: z.string(),
    body: z.string(),
    labels: emptyList(),
    milestone: absentObject(),
    assignee: absentObject(),
    assignees: absentObject(),
    state: z.enum(['open', 'closed']),
    is_locked: z.boolean(),
    comments: int64,
    html_url: z.string(),
    diff_url: z.string(),
    patch_url: z.string(),
    mergeable: z.boolean(),
    merged: z.boolean(),
    merged_at: absentObject(),
    merge_commit_sha: absentObject(),
    merged_by: absentObject(),
    draft: z.boolean(),
    base: branchInfo,
    head: branchInfo,
    merge_base: z.string(),
    due_date: absentObject(),
    created_at: dateTime,
    updated_at: dateTime,
    closed_at: dateTime.nullable(),
    pin_order: int64,
  })
  .openapi('PullRequest');

export const activity = z
  .object({
    id: int64,
    user_id: int64,
    op_type: z.enum(actionTypes),
    act_user_id: int64,
    act_user: user,
    repo_id: int64,
    repo: repository,
    comment_id: int64,
    comment: absentObject(),
    ref_name: z.string(),
    is_private: z.boolean(),
    content: z.string(),
    created: dateTime,
  })
  .openapi('Activity');

export type ApiErrorWire = z.infer<typeof apiError>;
export type UserWire = z.infer<typeof user>;
export type OrganizationWire = z.infer<typeof organization>;
export type RepositoryWire = z.infer<typeof repository>;
export type IssueWire = z.infer<typeof issue>;
export type AttachmentWire = z.infer<typeof attachment>;
export type PullRequestWire = z.infer<typeof pullRequest>;
export type ActivityWire = z.infer<typeof activity>;
export type TeamWire = z.infer<typeof team>;
export type AccessTokenWire = z.infer<typeof accessToken>;
export type OrganizationPermissionsWire = z.infer<typeof organizationPermissions>;
