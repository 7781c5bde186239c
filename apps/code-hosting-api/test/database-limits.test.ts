// Generated from apps/project-service/test/database-limits.test.ts by `npm run sync:copies`: edit that file, not this copy.
import { describeDefaultDatabaseLimits } from '@repo/testing';
import { z } from 'zod';
import { defaultDatabaseLimits, READ_TIMEOUT_MARGIN_MS } from '../src/db/database';
import { operationsEnvironmentShape, toOperationsSettings } from '../src/operations-config';

// scripts/fault-test.sh measures the same contract on a real cluster, frozen with SIGSTOP.
describeDefaultDatabaseLimits({
  fromEnvironment: toOperationsSettings(z.object(operationsEnvironmentShape).parse({})).database,
  defaults: defaultDatabaseLimits,
  readTimeoutMarginMs: READ_TIMEOUT_MARGIN_MS,
});
