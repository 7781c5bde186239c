import http from 'node:http';
import { describeGracefulShutdown, httpRequest } from '@repo/testing';
import { ADMIN_PRINCIPAL, bearer } from './app';
import { serviceHome } from './service-process';

const headers = { Authorization: bearer(ADMIN_PRINCIPAL) };

describeGracefulShutdown({
  serviceHome,
  workload: async (service) => {
    const root = await httpRequest(service.baseUrl, new http.Agent(), 'GET', '/projects?slug=root', {
      headers,
    });
    const rootUid = (JSON.parse(root.body ?? '{}') as { projects: { uid: string }[] }).projects[0]!.uid;
    return {
      create: (slug, index) => ({
        method: 'POST',
        path: '/projects',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ slug, name: `Burst ${index}`, description: '', parent_uid: rootUid }),
      }),
      list: (agent) => httpRequest(service.baseUrl, agent, 'GET', '/projects?page_size=5', { headers }),
    };
  },
  storedAmong: async (service, slugs) => {
    const list = await httpRequest(service.baseUrl, new http.Agent(), 'GET', '/projects?page_size=1000', {
      headers,
    });
    const stored = new Set(
      (JSON.parse(list.body ?? '{}') as { projects: { slug: string }[] }).projects.map((p) => p.slug),
    );
    return slugs.filter((slug) => stored.has(slug));
  },
});
