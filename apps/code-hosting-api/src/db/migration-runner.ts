// Generated from apps/project-service/src/db/migration-runner.ts by `npm run sync:copies`: edit that file, not this copy.
import { createMigrationRunner } from './migrate';
import { SERVICE_NAME } from '../service-name';

/** This service's migrations, serialized across its replicas by its own advisory lock. */
export const migrationRunner = createMigrationRunner(`${SERVICE_NAME}:migrations`);
