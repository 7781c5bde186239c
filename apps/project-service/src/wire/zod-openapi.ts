import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Once, before any schema is declared: adds `.openapi()` so schemas can name
// themselves as components of the generated document.
extendZodWithOpenApi(z);

export { z };
