import path from 'node:path';
import { describeUnusableDatabase } from '@repo/testing';
import { COMMON_TABLES, SERVICE_TABLES } from '../src/db/unusable-database';
import { SERVICE_NAME } from '../src/service-name';

describeUnusableDatabase({
  appDir: path.resolve(__dirname, '..'),
  serviceName: SERVICE_NAME,
  serviceTables: SERVICE_TABLES,
  commonTables: COMMON_TABLES,
  // The token key the service needs to start at all.
  env: { JWT_SECRET: 'unusable-database-test-secret' },
});
