import { describeTracing } from '@repo/testing';
import { ADMIN_PRINCIPAL, bearer } from './app';
import { serviceHome } from './service-process';

describeTracing({
  serviceHome,
  serviceName: 'project-service',
  path: '/projects?slug=root',
  headers: { Authorization: bearer(ADMIN_PRINCIPAL) },
});
