import path from 'node:path';
import { describeEndedConnections, httpRequest } from '@repo/testing';
import { processAdmin, processAdminAuthorization } from '../service-process';

let made = 0;
const ORGANIZATION = 'ended-connections';

describeEndedConnections({
  appDir: path.resolve(__dirname, '../..'),
  // Cheap password hashing: the requests authenticate with the administrator's password.
  env: {
    ADMIN_USERNAME: processAdmin.username,
    ADMIN_PASSWORD: processAdmin.password,
    PASSWORD_HASH_COST: '16',
  },
  // Organizations and repositories created, read and edited (transactions and statements alone),
  // each sent whatever the others answered.
  async requests(service, agent) {
    const headers = { Authorization: processAdminAuthorization, 'Content-Type': 'application/json' };
    const call = (method: string, pathname: string, body?: unknown) =>
      httpRequest(service.baseUrl, agent, method, pathname, {
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: 15_000,
      });
    if (made === 0) {
      const first = await call('POST', '/api/v1/orgs', { username: ORGANIZATION });
      if (first.status !== 201) return [{ label: 'create the organization', status: first.status }];
    }
    made += 1;
    return [
      {
        label: 'create organization',
        status: (await call('POST', '/api/v1/orgs', { username: `ended-${made}` })).status,
      },
      { label: 'read organization', status: (await call('GET', `/api/v1/orgs/${ORGANIZATION}`)).status },
      {
        label: 'edit organization',
        status: (await call('PATCH', `/api/v1/orgs/${ORGANIZATION}`, { description: `edit ${made}` })).status,
      },
      {
        label: 'create repository',
        status: (await call('POST', `/api/v1/orgs/${ORGANIZATION}/repos`, { name: `repository-${made}` }))
          .status,
      },
    ];
  },
});
