import { describeHealthSurface } from '@repo/testing';
import { appWithUnreachableDatabase, useProjectService } from './app';

describeHealthSurface({
  service: useProjectService(),
  withUnreachableDatabase: appWithUnreachableDatabase,
  notFoundBody: { code: '404', message: expect.any(String) },
});
