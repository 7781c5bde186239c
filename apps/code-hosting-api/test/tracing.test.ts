import { describeTracing } from '@repo/testing';
import { processAdminAuthorization, serviceHome } from './service-process';

describeTracing({
  serviceHome,
  serviceName: 'code-hosting-api',
  path: '/api/v1/user',
  headers: { Authorization: processAdminAuthorization },
});
