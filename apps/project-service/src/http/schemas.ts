/**
 * What the routes validate and the OpenAPI document declares: the wire shapes (src/wire), and
 * what is HTTP's alone: the operations' path and query parameters and their headers (X-Sync,
 * If-Match, If-None-Match).
 */
import { z } from '../wire/zod-openapi';
import { CATEGORIES, FIELD_LIMITS, formatted, STAGES, STRINGS_ONLY } from '../wire/schemas';
import { SYNC_HEADER_DESCRIPTION, SYNC_HEADER_VALUES } from './x-sync';

export * from '../wire/schemas';

// Query parameters and headers shared by the operations.
export const VersionParameter = z
  .literal('1')
  .optional()
  .openapi({ description: 'version of the API; only 1' });
export const SyncHeader = z
  .enum(SYNC_HEADER_VALUES)
  .optional()
  .openapi({ description: SYNC_HEADER_DESCRIPTION });
export const UidParameter = formatted('uuid', { allowEmpty: false, description: 'project identifier' });

/** Whether a PostgreSQL text column can hold `text`: anything but NUL (U+0000). */
export function storableText(text: string): boolean {
  return !text.includes('\u0000');
}

/** Query text a column is compared with: its bound, and no NUL, which no text column holds. */
function queryText(maxLength: number) {
  return z.string().max(maxLength, STRINGS_ONLY).refine(storableText, 'must not contain NUL (U+0000)');
}

export const ListProjectsQuery = z.object({
  v: VersionParameter,
  // Out of range, one message whatever the size (past 2^53 too, which int() would also report).
  page_size: z.coerce
    .number()
    .min(1, { abort: true })
    .max(1000, { abort: true })
    .int()
    .optional()
    .openapi({ description: 'page size, 1 to 1000' }),
  page_token: queryText(FIELD_LIMITS.pageToken)
    .min(1)
    .optional()
    .openapi({ description: 'opaque cursor from next_page_token' }),
  parent_uid: formatted('uuid', {
    allowEmpty: false,
    description: 'only children of this project',
  }).optional(),
  slug: queryText(FIELD_LIMITS.slug).optional().openapi({ description: 'only the project with this slug' }),
  stage: z.enum(STAGES).optional().openapi({ description: 'only projects in this stage' }),
  category: z.enum(CATEGORIES).optional().openapi({ description: 'only projects in this category' }),
  public: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'only public (true) or private (false) projects' }),
});
export type ListProjectsQuery = z.infer<typeof ListProjectsQuery>;

/** The query of every operation but the list. */
export const VersionQuery = z.object({ v: VersionParameter });

export const UidPath = z.object({ uid: UidParameter });

export const WriteHeaders = z.object({
  'X-Sync': SyncHeader,
  'If-Match': z
    .string()
    .max(FIELD_LIMITS.etagHeader, STRINGS_ONLY)
    .optional()
    .openapi({ description: 'ETag the write is conditional on (quoted, bare or *)' }),
});

export const ReadHeaders = z.object({
  'If-None-Match': z
    .string()
    .max(FIELD_LIMITS.etagHeader, STRINGS_ONLY)
    .optional()
    .openapi({ description: 'ETag of the copy the client holds; 304 when current' }),
});
