import { z } from 'zod';
import { Visibility, Website } from './primitives';

// The request bodies, as Gitea's modules/structs declare them (its *Option structs): the route
// table validates each body with one before the handler runs.

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

export const CreateOrgOption = z
  .object({
    username: z.string().min(1),
    full_name: optionalField(z.string().max(100)),
    email: optionalField(z.string().max(255)),
    description: optionalField(z.string().max(255)),
    website: optionalField(Website),
    location: optionalField(z.string().max(50)),
    // Gitea accepts "" for the default.
    visibility: optionalField(Visibility, { emptyIsAbsent: true }),
    repo_admin_change_team_access: optionalField(z.boolean()),
  })
  .openapi('CreateOrgOption');

export const EditOrgOption = z
  .object({
    // The Go SDK's EditOrgOption has no omitempty: every string the caller leaves unset goes out as
    // "". Organization rule 6 is that only the fields supplied change, so "" is "not given" here
    // (the contract's "Clients unchanged"); `email: ""` alone clears, as the rule says.
    full_name: optionalField(z.string().max(100), { emptyIsAbsent: true }),
    email: optionalField(z.string().max(255)),
    description: optionalField(z.string().max(255), { emptyIsAbsent: true }),
    website: optionalField(Website, { emptyIsAbsent: true }),
    location: optionalField(z.string().max(50), { emptyIsAbsent: true }),
    visibility: optionalField(Visibility, { emptyIsAbsent: true }),
    repo_admin_change_team_access: optionalField(z.boolean()),
  })
  .openapi('EditOrgOption');

export const RenameOrgOption = z.object({ new_name: z.string().min(1) }).openapi('RenameOrgOption');

export const CreateUserOption = z
  .object({
    username: z.string().min(1),
    email: z.string().min(1).max(255),
    password: z.string().min(1).max(255),
    full_name: optionalField(z.string().max(100)),
    visibility: optionalField(Visibility, { emptyIsAbsent: true }),
    login_name: optionalField(z.string()),
    source_id: optionalField(z.number().int()),
    must_change_password: optionalField(z.boolean()),
    send_notify: optionalField(z.boolean()),
    restricted: optionalField(z.boolean()),
  })
  .openapi('CreateUserOption');

export const EditUserOption = z
  .object({
    admin: optionalField(z.boolean()),
    allow_create_organization: optionalField(z.boolean()),
    active: optionalField(z.boolean()),
    // Gitea changes the password only when one is given; the Go SDK always sends the field.
    password: optionalField(z.string().min(1).max(255), { emptyIsAbsent: true }),
    email: optionalField(z.string().max(255)),
    full_name: optionalField(z.string().max(100)),
    visibility: optionalField(Visibility, { emptyIsAbsent: true }),
    description: optionalField(z.string().max(255)),
    website: optionalField(Website),
    location: optionalField(z.string().max(50)),
    login_name: optionalField(z.string()),
    source_id: optionalField(z.number().int()),
  })
  .openapi('EditUserOption');

export const CreateAccessTokenOption = z
  .object({ name: z.string().min(1).max(255), scopes: optionalField(z.array(z.string())) })
  .openapi('CreateAccessTokenOption');

const TeamPermission = z.enum(['read', 'write', 'admin', 'owner']);

export const CreateTeamOption = z
  .object({
    name: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[-.\w]+$/, 'must be valid alpha or numeric or dash(-_) or dot characters'),
    description: optionalField(z.string().max(255)),
    permission: optionalField(TeamPermission, { emptyIsAbsent: true }),
    can_create_org_repo: optionalField(z.boolean()),
    includes_all_repositories: optionalField(z.boolean()),
    units: optionalField(z.array(z.string())),
    units_map: optionalField(z.record(z.string(), z.string())),
  })
  .openapi('CreateTeamOption');

export const CreateRepoOption = z
  .object({
    name: z.string().min(1).max(100),
    description: optionalField(z.string().max(2048)),
    private: optionalField(z.boolean()),
    auto_init: optionalField(z.boolean()),
    default_branch: optionalField(z.string()),
    template: optionalField(z.boolean()),
  })
  .openapi('CreateRepoOption');

export const EditRepoOption = z
  .object({
    name: optionalField(z.string().min(1).max(100)),
    description: optionalField(z.string().max(2048)),
    website: optionalField(Website),
    private: optionalField(z.boolean()),
    archived: optionalField(z.boolean()),
  })
  .openapi('EditRepoOption');

export const AddCollaboratorOption = z
  .object({ permission: optionalField(z.enum(['read', 'write', 'admin']), { emptyIsAbsent: true }) })
  .openapi('AddCollaboratorOption');

export const CreateIssueOption = z
  .object({
    title: z.string().min(1).max(255),
    body: optionalField(z.string()),
    closed: optionalField(z.boolean()),
  })
  .openapi('CreateIssueOption');

export const EditIssueOption = z
  .object({
    // An edit's `title` and `body` sent as "" are not given (the contract's "Clients unchanged").
    title: optionalField(z.string().min(1).max(255), { emptyIsAbsent: true }),
    body: optionalField(z.string(), { emptyIsAbsent: true }),
    state: optionalField(z.enum(['open', 'closed']), { emptyIsAbsent: true }),
  })
  .openapi('EditIssueOption');

export const CreatePullRequestOption = z
  .object({
    title: z.string().min(1).max(255),
    body: optionalField(z.string()),
    head: z.string().min(1),
    base: z.string().min(1),
  })
  .openapi('CreatePullRequestOption');

export const EditAttachmentOptions = z
  .object({ name: optionalField(z.string(), { emptyIsAbsent: true }) })
  .openapi('EditAttachmentOptions');

/** The upload's multipart/form-data body (streamed by the handler, documented here). */
export const AttachmentUploadForm = z.object({
  attachment: z.string().openapi({ type: 'string', format: 'binary', description: 'attachment to upload' }),
});
