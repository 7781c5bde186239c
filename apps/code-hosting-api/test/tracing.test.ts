import { describeTracing, signTestToken } from '@repo/testing';
import { processAdminAuthorization, processAdminToken, serviceHome } from './service-process';

describeTracing({
  serviceHome,
  serviceName: 'code-hosting-api',
  path: '/api/v1/user',
  headers: { Authorization: processAdminAuthorization },
  misplacedCredentials: async (service) => ({
    jwt: signTestToken({ sub: 'misplaced' }, { algorithm: 'HS256', secret: 'not-read-by-this-service' }),
    // A real access token with every scope.
    hexToken: await processAdminToken(service, 'misplaced'),
    collection: '/api/v1/orgs',
    headers: [['Authorization', processAdminAuthorization]],
  }),
});
