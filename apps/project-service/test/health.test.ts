import { describeHealthSurface } from '@repo/testing';
import { appWithUnreachableDatabase, useProjectService } from './app';

describeHealthSurface({
  service: useProjectService(),
  withUnreachableDatabase: appWithUnreachableDatabase,
  notFoundBody: { code: '404', message: expect.any(String) },
  // As LFX's design declares them, so that its generated client reads them.
  readyAnswer: { contentType: /^text\/plain/, body: 'OK' },
  unreachableDatabaseBody: { code: '503', message: 'database unavailable' },
});
