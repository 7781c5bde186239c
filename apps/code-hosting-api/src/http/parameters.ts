import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { requestedNumber } from '../domain/requested-number';

// The operations' path and query parameters, one schema per kind, each bounded by what the column
// it reaches can hold: the route table checks them before the handler runs, so no statement is
// sent a value its column refuses (the database's own refusal, packages/http-errors' generic 422,
// is left for what nobody foresaw). Query values reach these as Gitea reads them: one string per
// name, the first (query-string.ts).

extendZodWithOpenApi(z);

/** Why a text no column can hold is refused, after the parameter's name. */
export const NUL_REFUSAL = 'must not contain NUL (U+0000)';

/** Whether a PostgreSQL text column can hold `text`: anything but NUL (U+0000). */
export function storableText(text: string): boolean {
  return !text.includes('\u0000');
}

/**
 * A name or other text: an account, organization, repository or token name, an attachment uuid,
 * a display name. Every path parameter not declared otherwise is one (route-table.ts).
 */
export const TextParam = z.string().refine(storableText, NUL_REFUSAL);

/** A day as Gitea's "2006-01-02" layout reads it, within what PostgreSQL's timestamptz holds. */
const CALENDAR_DATE = /^(?!0000)\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(text: string): boolean {
  if (!CALENDAR_DATE.test(text)) return false;
  // A month or day out of range is no date at all (2024-13-45), or another day (2023-02-29).
  const start = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(start.getTime()) && start.toISOString().slice(0, 10) === text;
}

/**
 * A date of the query: YYYY-MM-DD, from 0001-01-01 to 9999-12-31 (PostgreSQL has no year 0, and
 * other year forms are not Gitea's layout), a day its month has; read as the UTC midnight it
 * starts at.
 */
export const CalendarDate = z
  .string()
  .refine(isCalendarDate, 'must be a date in the form YYYY-MM-DD, from 0001-01-01 to 9999-12-31')
  .transform((text) => new Date(`${text}T00:00:00.000Z`));

// ---- query parameters -------------------------------------------------------------------

/** A query value as Gitea's ctx.FormString reads it: an empty value (`?state=`) is not given. */
function formValue<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
}

/** `page` and `limit`, read as Gitea's ctx.FormInt reads them (domain/pagination.ts): never refused. */
export const ListQuery = z.object({
  page: formValue(z.string()).openapi({
    description: 'page number of results to return (1-based)',
    type: 'integer',
  }),
  limit: formValue(z.string()).openapi({ description: 'page size of results', type: 'integer' }),
});

export const FeedQuery = ListQuery.extend({
  date: formValue(CalendarDate).openapi({
    type: 'string',
    format: 'date',
    description: 'the date of the activities to be found',
  }),
});

export const IssueListQuery = ListQuery.extend({
  state: formValue(z.enum(['open', 'closed', 'all'])).openapi({
    type: 'string',
    enum: ['open', 'closed', 'all'],
  }),
  type: formValue(z.enum(['issues', 'pulls'])).openapi({ type: 'string', enum: ['issues', 'pulls'] }),
});

/** The upload's query: `name`, the display name instead of the uploaded file's own. */
export const AttachmentUploadQuery = z.object({
  name: formValue(TextParam).openapi({ type: 'string', description: 'name of the attachment' }),
});

/** An avatar's query: `size`, its width and height in pixels (Gitea's parameter), clamped by the handler. */
export const AvatarQuery = z.object({
  size: formValue(z.string()).openapi({ type: 'integer', description: 'width and height in pixels' }),
});

// ---- path parameters --------------------------------------------------------------------

/**
 * A team id, issue index or attachment id in the path, read as requested-number.ts reads it: a
 * number only up to 2^53, which ids of int64 columns handed out one by one never pass. Never
 * refused here: a number no row can have is "not found", which the use case answers after the
 * checks that come first in Gitea (the repository, the caller's access). Documented as Gitea
 * documents it, an int64.
 */
function numberParam(description: string) {
  return z.string().transform(requestedNumber).openapi({ type: 'integer', format: 'int64', description });
}

export const IndexParam = numberParam('index of the issue');
export const AttachmentIdParam = numberParam('id of the attachment');
export const TeamIdParam = numberParam('id of the team');
export const AccountIdParam = numberParam('id of the user or organization');

/**
 * A token to delete, by id or else by name (Gitea's DeleteAccessToken): an id as numberParam reads
 * it, so digits past 2^53 (past int64 too) are looked up as a name only, and without a token of
 * that name are "not found", as on Gitea (whose ParseInt saturates at an id no token has).
 */
export const TokenParam = TextParam.transform(requestedNumber).openapi({
  type: 'string',
  description: 'token to be deleted, identified by ID and if not available by name',
});

/** `/repos/{owner}/{repo}/issues/{index}…` */
export const IssueParams = z.object({ index: IndexParam });
/** `/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}` */
export const AttachmentParams = IssueParams.extend({ attachment_id: AttachmentIdParam });
/** `/teams/{id}/…` */
export const TeamParams = z.object({ id: TeamIdParam });
/** `/avatars/{id}` */
export const AvatarParams = z.object({ id: AccountIdParam });
/** `/users/{username}/tokens/{token}` */
export const TokenParams = z.object({ token: TokenParam });
