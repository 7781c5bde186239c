import { defineConfig } from 'prisma/config';

// Only `prisma generate` uses the CLI; migrations run through src/db/migrate.ts.
export default defineConfig({ schema: 'prisma/schema.prisma' });
