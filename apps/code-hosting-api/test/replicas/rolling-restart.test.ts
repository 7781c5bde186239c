import path from 'node:path';
import { describeRollingRestart } from '@repo/testing';
import { processAdmin, processAdminAuthorization } from '../service-process';

// Organizations created, read, edited and listed through two replicas while each is restarted in
// turn (@repo/testing's suite says what must hold).

describeRollingRestart({
  appDir: path.resolve(__dirname, '../..'),
  env: {
    ADMIN_USERNAME: processAdmin.username,
    ADMIN_PASSWORD: processAdmin.password,
    PASSWORD_HASH_COST: '16',
  },
  headers: { Authorization: processAdminAuthorization },
  workload: {
    async create(send, name) {
      const created = await send('POST', '/api/v1/orgs', { username: name, description: 'round 0' });
      return created.status === 201 ? { key: name } : created;
    },
    read: (send, name) => send('GET', `/api/v1/orgs/${name}`),
    update: (send, name, round) => send('PATCH', `/api/v1/orgs/${name}`, { description: `round ${round}` }),
    list: (send) => send('GET', '/api/v1/orgs?limit=5'),
    async storedRound(send, name) {
      const read = await send('GET', `/api/v1/orgs/${name}`);
      if (read.status !== 200) return undefined;
      return Number((JSON.parse(read.body!) as { description: string }).description.replace('round ', ''));
    },
  },
});
