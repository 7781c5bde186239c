import { describeApiDocsBrowser } from '@repo/testing';
import { createUser } from './actors';
import { useCodeHostingApi } from './app';

// ROOT_URL is the service's own address, so the document's server is the page's origin.
const service = useCodeHostingApi({}, { rootUrlIsServer: true });

describeApiDocsBrowser({
  service,
  appName: 'code-hosting-api',
  pagePath: '/api/swagger',
  documentPath: '/swagger.v1.json',
  checkOperationCount: (count) => expect(count).toBeGreaterThan(30),
  securityScheme: 'AuthorizationHeaderToken',
  credentialName: 'token',
  tryOut: { documentedPath: '/user', requestedPath: '/api/v1/user' },
  caller: async () => {
    const user = await createUser(service, 'reader');
    return { credential: `token ${user.token}`, answerShows: `"login": "${user.username}"` };
  },
});
