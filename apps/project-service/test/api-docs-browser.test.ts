import { describeApiDocsBrowser } from '@repo/testing';
import { useProjectService } from './app';
import { admin, rootUid } from './project-fixtures';

const service = useProjectService();

describeApiDocsBrowser({
  service,
  appName: 'project-service',
  pagePath: '/_projects/docs',
  documentPath: '/_projects/openapi3.json',
  checkOperationCount: (count) => expect(count).toBe(7),
  securityScheme: 'jwt_header_Authorization',
  credentialName: 'JWT',
  tryOut: { documentedPath: '/projects', requestedPath: '/projects' },
  // The admin's token, pasted without its scheme; the answer lists the root project.
  caller: async () => ({ credential: admin().replace(/^Bearer /, ''), answerShows: await rootUid(service) }),
});
