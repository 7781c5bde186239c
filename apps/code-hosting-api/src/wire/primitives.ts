import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// The building blocks of the wire shapes (schemas.ts, requests.ts), and zod's OpenAPI extension,
// which every schema of the API needs before it is declared.

extendZodWithOpenApi(z);

export const Visibility = z.enum(['public', 'limited', 'private']);
export const DateTime = z.string().openapi({ format: 'date-time' });
export const Int64 = z.number().int().openapi({ format: 'int64' });
/** A Gitea object this service has no data for: always null here (OpenAPI 3.0 needs a type beside nullable). */
export const absentObject = () => z.object({}).nullable();
/** A Gitea list this service has no data for (labels): always empty. */
export const emptyList = () => z.array(z.unknown().openapi({ type: 'object' }));

/** Gitea's binding ValidUrl: empty, or an http(s) URL. */
export const Website = z
  .string()
  .max(255)
  .refine(
    (value) => value === '' || /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(value),
    'must be a valid http or https URL',
  );
