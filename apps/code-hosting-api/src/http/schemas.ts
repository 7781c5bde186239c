import { z } from 'zod';
import { SYNC_HEADER_DESCRIPTION, SYNC_HEADER_VALUES } from './x-sync';

// What the routes validate and the OpenAPI document declares: the wire shapes (src/wire), the
// operations' path and query parameters, and the X-Sync header.
export * from '../wire/schemas';
export * from './parameters';

/** The X-Sync request header of the writes that record change events (src/http/x-sync.ts). */
export const SyncHeaders = z.object({
  'X-Sync': z.enum(SYNC_HEADER_VALUES).optional().openapi({ description: SYNC_HEADER_DESCRIPTION }),
});
