/**
 * The API design: every request and response representation of the interface,
 * declared once. Requests are validated with these schemas, responses are
 * shaped by them, the OpenAPI document is generated from them, and the change
 * events carry the same shapes (src/events). The operations' path and query
 * parameters and headers are HTTP's alone: src/http/schemas.ts.
 */
import { z } from './zod-openapi';

export const CATEGORIES = [
  'Active',
  'Adopted',
  'Archived',
  'At-Large',
  'Early Adoption',
  'Emeritus',
  'Graduated',
  'Growth',
  'Idle',
  'Impact',
  'Incubating',
  'Neutral-2',
  'Mature',
  'Pre-NEUTRAL',
  'Sandbox',
  'SIG',
  'Standards',
  'TAC',
  'Working Group',
  'TAG',
  'NONE',
] as const;

export const STAGES = [
  'Formation - Exploratory',
  'Formation - Engaged',
  'Active',
  'Archived',
  'Formation - On Hold',
  'Formation - Disengaged',
  'Formation - Confidential',
  'Prospect',
] as const;

export const LEGAL_ENTITY_TYPES = [
  'Subproject',
  'Incorporated Entity',
  'Series LLC',
  'Unofficial Subproject',
  'Internal Allocation',
  'None',
] as const;

export const FUNDING_MODELS = ['Crowdfunding', 'Membership', 'Alternate Funding'] as const;

// Spelled exactly as the contract, so the 400 message quotes the contract's pattern.
// eslint-disable-next-line no-useless-escape
export const SLUG_PATTERN = /^[a-z][a-z0-9_\-]*[a-z0-9]$/;

/**
 * The bound of every string and array a request may carry (strings in characters, i.e. UTF-16
 * code units as zod counts them; arrays in items). Past one: 400 naming the field and the bound.
 * They keep one project's stored size, and so a streamed list's batches, small; the README lists them.
 */
export const FIELD_LIMITS = {
  name: 255,
  slug: 100,
  description: 8_000,
  missionStatement: 8_000,
  legalEntityName: 255,
  uri: 2_048,
  email: 254,
  userName: 255,
  username: 255,
  /** writers, auditors and meeting_coordinators, each. */
  members: 300,
  /** Each of the three values at most once. */
  fundingModels: FUNDING_MODELS.length,
  pageToken: 2_048,
  /** If-Match / If-None-Match: an ETag or a short list of them. */
  etagHeader: 1_024,
} as const;

/*
 * zod runs a length check even after the type check failed, so a string sent for an array would
 * read "expected array; must be at most 3 characters". Its `when` option (which zod's types for
 * max() leave out) keeps each bound to values of its own type.
 */
type StringMaxParams = Parameters<z.ZodString['max']>[1];
type ArrayMaxParams = Parameters<z.ZodArray<z.ZodString>['max']>[1];
export const STRINGS_ONLY = {
  when: (payload: { value: unknown }) => typeof payload.value === 'string',
} as unknown as StringMaxParams;
const ARRAYS_ONLY = {
  when: (payload: { value: unknown }) => Array.isArray(payload.value),
} as unknown as ArrayMaxParams;

/** The fixed-size formats have their size as bound; a uri or email its own. */
const FORMAT_MAX_LENGTHS = { uuid: 36, date: 10, uri: FIELD_LIMITS.uri, email: FIELD_LIMITS.email } as const;

// The formats, as plain predicates so that "" can be allowed beside them.
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
// Same rule as ajv-formats' "email", so what we accept the document accepts.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function isAbsoluteUri(value: string): boolean {
  // An absolute URI has a scheme; URL.canParse alone accepts nothing relative either.
  return /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(value) && URL.canParse(value);
}

const FORMAT_CHECKS = {
  uuid: (value: string) => UUID_PATTERN.test(value),
  date: isCalendarDate,
  uri: isAbsoluteUri,
  email: (value: string) => EMAIL.test(value),
} as const;

type FormatName = keyof typeof FORMAT_CHECKS;

/** A string in `format`; with `allowEmpty`, `""` (never set) too. */
export function formatted(format: FormatName, options: { allowEmpty: boolean; description: string }) {
  const check = FORMAT_CHECKS[format];
  const maxLength = FORMAT_MAX_LENGTHS[format];
  const schema = z
    .string()
    .max(maxLength, STRINGS_ONLY)
    .superRefine((value, context) => {
      if (options.allowEmpty && value === '') return;
      // Too long is reported by max(); no pattern matching over an oversized value.
      if (value.length > maxLength) return;
      if (!check(value)) {
        // An invalid_format issue, so the error message reads "must be a valid <format>".
        context.addIssue({
          code: 'invalid_format',
          format,
          input: value,
          message: `must be a valid ${format}`,
        } as never);
      }
    });
  return options.allowEmpty
    ? schema.openapi({ description: options.description, anyOf: [{ format }, { const: '' }] } as never)
    : schema.openapi({ description: options.description, format });
}

/** An enum whose unset value is "": a client can PUT back what it GETs. */
function enumOrEmpty<const Values extends readonly [string, ...string[]]>(
  values: Values,
  description: string,
) {
  return z.enum([...values, ''] as unknown as [...Values, '']).openapi({ description });
}

/*
 * An optional field has two forms. In a request, absent and "" (or []) both mean unset, and a
 * value must be in its format. In a response, as LFX's own service answers (Goa's omitempty), an
 * unset field is left out, so a field that is present is always in its format: LFX's generated
 * client checks the format of every field present and refuses a whole answer over one "".
 */
interface OptionalField<Request extends z.ZodType, Response extends z.ZodType> {
  request: Request;
  response: Response;
}

function optionalFormatted(format: FormatName, description: string) {
  return {
    request: formatted(format, { allowEmpty: true, description }).default(''),
    response: formatted(format, { allowEmpty: false, description }).optional(),
  };
}

function optionalEnum<const Values extends readonly [string, ...string[]]>(
  values: Values,
  description: string,
) {
  return {
    request: enumOrEmpty(values, description).default(''),
    response: z
      .enum(values)
      .optional()
      .openapi({ description: `${description}; absent when unset` }),
  };
}

function optionalText(maxLength: number, description: string) {
  return {
    request: z.string().max(maxLength, STRINGS_ONLY).openapi({ description }).default(''),
    response: z
      .string()
      .min(1)
      .max(maxLength)
      .optional()
      .openapi({ description: `${description}; absent when unset` }),
  };
}

function optionalList<Request extends z.ZodArray, Response extends z.ZodArray>(
  request: Request,
  response: Response,
  description: string,
) {
  return {
    request: request.openapi({ description }).default([] as never),
    response: response
      .min(1)
      .optional()
      .openapi({ description: `${description}; absent when empty` }),
  };
}

/** One form of each field of a table of optional fields. */
function formsOf<
  Fields extends Record<string, OptionalField<z.ZodType, z.ZodType>>,
  Form extends 'request' | 'response',
>(fields: Fields, form: Form): { [Name in keyof Fields]: Fields[Name][Form] } {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field[form]])) as {
    [Name in keyof Fields]: Fields[Name][Form];
  };
}

const userInfoFields = {
  avatar: optionalFormatted('uri', 'avatar URL of the user'),
  email: optionalFormatted('email', 'email address of the user'),
  name: optionalText(FIELD_LIMITS.userName, 'full name of the user'),
  username: optionalText(FIELD_LIMITS.username, 'login name of the user'),
};

/** UserInfo in responses: its unset fields left out. */
export const UserInfo = z
  .object(formsOf(userInfoFields, 'response'))
  .openapi('UserInfo', { description: 'User information' });
export type UserInfo = z.infer<typeof UserInfo>;

/** UserInfo in requests: every field optional, missing ones become "". */
const UserInfoInput = z.object(formsOf(userInfoFields, 'request'));
export type UserInfoInput = z.infer<typeof UserInfoInput>;

/** The project fields that may be unset. */
const optionalCommonFields = {
  category: optionalEnum(CATEGORIES, 'project category'),
  charter_url: optionalFormatted('uri', 'charter document'),
  entity_dissolution_date: optionalFormatted('date', 'date the project entity was dissolved'),
  entity_formation_document_url: optionalFormatted('uri', 'entity formation document'),
  formation_date: optionalFormatted('date', 'date the project was formed'),
  funding_model: optionalList(
    z.array(z.enum(FUNDING_MODELS)).max(FIELD_LIMITS.fundingModels, ARRAYS_ONLY),
    z.array(z.enum(FUNDING_MODELS)).max(FIELD_LIMITS.fundingModels),
    'funding models',
  ),
  legal_entity_name: optionalText(FIELD_LIMITS.legalEntityName, 'legal entity name'),
  legal_entity_type: optionalEnum(LEGAL_ENTITY_TYPES, 'legal entity type'),
  legal_parent_uid: optionalFormatted('uuid', 'legal parent entity'),
  logo_url: optionalFormatted('uri', 'logo'),
  repository_url: optionalFormatted('uri', 'repository'),
  stage: optionalEnum(STAGES, 'project stage'),
  website_url: optionalFormatted('uri', 'website'),
};

/** The flags: always present in responses, false when absent from a request. */
const flagFields = {
  autojoin_enabled: z.boolean().openapi({ description: 'whether autojoin is enabled' }),
  is_foundation: z.boolean().openapi({ description: 'whether the project is a foundation' }),
  public: z.boolean().openapi({ description: 'whether the project is public' }),
};

/** Required in requests and always present in responses (a description may be ""). */
const requiredCommonFields = {
  description: z
    .string()
    .max(FIELD_LIMITS.description, STRINGS_ONLY)
    .openapi({ description: 'project description' }),
  name: z
    .string()
    .max(FIELD_LIMITS.name, STRINGS_ONLY)
    .openapi({ description: 'display name of the project' }),
  slug: z
    .string()
    .max(FIELD_LIMITS.slug, STRINGS_ONLY)
    .regex(SLUG_PATTERN)
    .openapi({ description: 'short slugified name' }),
};

const optionalResponse = formsOf(optionalCommonFields, 'response');

/** The common project fields, as responses carry them (in the order of the wire forms). */
const commonFields = {
  autojoin_enabled: flagFields.autojoin_enabled,
  category: optionalResponse.category,
  charter_url: optionalResponse.charter_url,
  description: requiredCommonFields.description,
  entity_dissolution_date: optionalResponse.entity_dissolution_date,
  entity_formation_document_url: optionalResponse.entity_formation_document_url,
  formation_date: optionalResponse.formation_date,
  funding_model: optionalResponse.funding_model,
  is_foundation: flagFields.is_foundation,
  legal_entity_name: optionalResponse.legal_entity_name,
  legal_entity_type: optionalResponse.legal_entity_type,
  legal_parent_uid: optionalResponse.legal_parent_uid,
  logo_url: optionalResponse.logo_url,
  name: requiredCommonFields.name,
  // Absent only for the root project.
  parent_uid: formatted('uuid', {
    allowEmpty: false,
    description: 'parent project; absent for the root project',
  }).optional(),
  public: flagFields.public,
  repository_url: optionalResponse.repository_url,
  slug: requiredCommonFields.slug,
  stage: optionalResponse.stage,
  website_url: optionalResponse.website_url,
};

const serverSetFields = {
  uid: formatted('uuid', { allowEmpty: false, description: 'the project identifier' }),
  created_at: z.string().openapi({ format: 'date-time', description: 'when the project was created' }),
  updated_at: z.string().openapi({
    format: 'date-time',
    description: 'when the base (PUT /projects/{uid}) last changed; the creation time until then',
  }),
};

/** The settings' own time of change (ProjectSettings). */
const settingsUpdatedAt = z.string().openapi({
  format: 'date-time',
  description: 'when the settings (PUT /projects/{uid}/settings) last changed; the creation time until then',
});

/** The full representation's: it changed when either part did. */
const fullUpdatedAt = z.string().openapi({
  format: 'date-time',
  description:
    "the later of the base's and the settings' updated_at (GET /projects/{uid} and GET /projects/{uid}/settings show each)",
});

/** A member list: writers, auditors or meeting coordinators. */
const members = (description: string) =>
  optionalList(
    z.array(UserInfoInput).max(FIELD_LIMITS.members, ARRAYS_ONLY),
    z.array(UserInfo).max(FIELD_LIMITS.members),
    description,
  );

/** The settings, every one of which may be unset. */
const optionalSettingsFields = {
  announcement_date: optionalFormatted('date', 'date the project was announced'),
  auditors: members('project auditors'),
  meeting_coordinators: members('project meeting coordinators'),
  mission_statement: optionalText(FIELD_LIMITS.missionStatement, 'mission statement'),
  writers: members('project writers'),
};

const settingsFields = formsOf(optionalSettingsFields, 'response');

export const ProjectBase = z.object({ ...commonFields, ...serverSetFields }).openapi('ProjectBase');
export type ProjectBase = z.infer<typeof ProjectBase>;

export const ProjectFull = z
  .object({ ...commonFields, ...serverSetFields, ...settingsFields, updated_at: fullUpdatedAt })
  .openapi('ProjectFull');
export type ProjectFull = z.infer<typeof ProjectFull>;

export const ProjectSettings = z
  .object({
    ...settingsFields,
    uid: serverSetFields.uid,
    created_at: serverSetFields.created_at,
    updated_at: settingsUpdatedAt,
  })
  .openapi('ProjectSettings');
export type ProjectSettings = z.infer<typeof ProjectSettings>;

export const ProjectList = z
  .object({
    projects: z.array(ProjectFull),
    next_page_token: z
      .string()
      .optional()
      .openapi({ description: 'cursor of the next page; absent on the last page' }),
  })
  .openapi('Projects');
export type ProjectList = z.infer<typeof ProjectList>;

export const ErrorBody = z
  .object({
    code: z.string().openapi({ description: 'the HTTP status, as a string', example: '400' }),
    message: z.string().openapi({ description: 'what went wrong' }),
  })
  .openapi('Error');
export type ErrorBody = z.infer<typeof ErrorBody>;

const optionalRequest = formsOf(optionalCommonFields, 'request');

/** The common fields of a request: absent optional ones mean "" / false / []. */
const requestCommonFields = {
  autojoin_enabled: flagFields.autojoin_enabled.default(false),
  category: optionalRequest.category,
  charter_url: optionalRequest.charter_url,
  entity_dissolution_date: optionalRequest.entity_dissolution_date,
  entity_formation_document_url: optionalRequest.entity_formation_document_url,
  formation_date: optionalRequest.formation_date,
  funding_model: optionalRequest.funding_model,
  is_foundation: flagFields.is_foundation.default(false),
  legal_entity_name: optionalRequest.legal_entity_name,
  legal_entity_type: optionalRequest.legal_entity_type,
  legal_parent_uid: optionalRequest.legal_parent_uid,
  logo_url: optionalRequest.logo_url,
  public: flagFields.public.default(false),
  repository_url: optionalRequest.repository_url,
  stage: optionalRequest.stage,
  website_url: optionalRequest.website_url,
  slug: requiredCommonFields.slug,
  description: requiredCommonFields.description,
  name: z
    .string()
    .min(1)
    .max(FIELD_LIMITS.name, STRINGS_ONLY)
    .openapi({ description: 'display name of the project' }),
};

// Object schemas strip unknown keys: unknown request fields are ignored.
export const CreateProjectRequest = z
  .object({
    ...requestCommonFields,
    parent_uid: formatted('uuid', { allowEmpty: false, description: 'parent project' }),
    ...formsOf(optionalSettingsFields, 'request'),
  })
  .openapi('CreateProjectRequest');
export type CreateProjectRequest = z.infer<typeof CreateProjectRequest>;

export const UpdateProjectBaseRequest = z
  .object({
    ...requestCommonFields,
    // "" or absent (as a GET of the root answers) only for the root project; the domain checks that.
    parent_uid: formatted('uuid', {
      allowEmpty: true,
      description: 'parent project; "" or absent only for the root project',
    }).default(''),
  })
  .openapi('UpdateProjectBaseRequest');
export type UpdateProjectBaseRequest = z.infer<typeof UpdateProjectBaseRequest>;

export const UpdateProjectSettingsRequest = z
  .object(formsOf(optionalSettingsFields, 'request'))
  .openapi('UpdateProjectSettingsRequest');
export type UpdateProjectSettingsRequest = z.infer<typeof UpdateProjectSettingsRequest>;
