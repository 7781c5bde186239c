import { createMigrationRunner } from './migrate';

/** This service's migrations, serialized across its replicas by its own advisory lock. */
export const migrationRunner = createMigrationRunner('project-service:migrations');
