// Generated from apps/project-service/test/global-teardown.ts by `npm run sync:copies`: edit that file, not this copy.
import { dropDatabaseTemplate } from '@repo/testing';

export default dropDatabaseTemplate;
