// Generated from apps/project-service/test/migrations.test.ts by `npm run sync:copies`: edit that file, not this copy.
import { describeMigrations } from '@repo/testing';
import { createMigration } from '../src/db/create-migration';
import { migrationRunner } from '../src/db/migration-runner';
import { migrationsDir, schemaFile } from '../src/db/schema-engine';

describeMigrations({ ...migrationRunner, createMigration, migrationsDir, schemaFile });
