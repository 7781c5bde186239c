// Generated from apps/project-service/prisma.config.ts by `npm run sync:copies`: edit that file, not this copy.
import { defineConfig } from 'prisma/config';

// Only `prisma generate` uses the CLI; migrations run through src/db/migrate.ts.
export default defineConfig({ schema: 'prisma/schema.prisma' });
