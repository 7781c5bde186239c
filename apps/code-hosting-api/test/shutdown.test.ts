import http from 'node:http';
import { describeGracefulShutdown, httpRequest } from '@repo/testing';
import { processAdminAuthorization, serviceHome } from './service-process';

const headers = { Authorization: processAdminAuthorization };

describeGracefulShutdown({
  serviceHome,
  workload: async (service) => ({
    create: (slug) => ({
      method: 'POST',
      path: '/api/v1/orgs',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: slug }),
    }),
    list: (agent) => httpRequest(service.baseUrl, agent, 'GET', '/api/v1/orgs?limit=5', { headers }),
  }),
  storedAmong: async (service, names) => {
    const agent = new http.Agent({ keepAlive: true });
    const stored: string[] = [];
    for (const name of names) {
      const read = await httpRequest(service.baseUrl, agent, 'GET', `/api/v1/orgs/${name}`, { headers });
      if (read.status === 200) stored.push(name);
      else if (read.status !== 404) throw new Error(`GET /api/v1/orgs/${name}: ${read.status ?? read.error}`);
    }
    agent.destroy();
    return stored;
  },
});
