import { randomBytes } from 'node:crypto';
import { describeTracing } from '@repo/testing';
import { ADMIN_PRINCIPAL, bearer } from './app';
import { serviceHome } from './service-process';

describeTracing({
  serviceHome,
  serviceName: 'project-service',
  path: '/projects?slug=root',
  headers: { Authorization: bearer(ADMIN_PRINCIPAL) },
  misplacedCredentials: () => {
    const authorization = bearer(ADMIN_PRINCIPAL);
    return Promise.resolve({
      jwt: authorization.replace(/^Bearer /, ''),
      hexToken: randomBytes(20).toString('hex'),
      collection: '/projects',
      headers: [['Authorization', authorization]],
    });
  },
});
