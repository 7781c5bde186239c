import path from 'node:path';
import { describeEndedConnections, httpRequest } from '@repo/testing';
import { ADMIN_PRINCIPAL, TEST_JWT_SECRET, bearer } from '../app';

// Found while the database works, used on every round after: each request below is sent whatever
// the others answered.
let root: string | undefined;
let made = 0;
const moving: { uid: string; slug: string }[] = [];

describeEndedConnections({
  appDir: path.resolve(__dirname, '../..'),
  env: { JWT_SECRET: TEST_JWT_SECRET, ADMIN_PRINCIPALS: ADMIN_PRINCIPAL },
  // Lists (a statement alone; in gob, a transaction), a create, and a move.
  async requests(service, agent) {
    const headers = { Authorization: bearer(ADMIN_PRINCIPAL), 'Content-Type': 'application/json' };
    const call = (method: string, pathname: string, body?: unknown, extra: Record<string, string> = {}) =>
      httpRequest(service.baseUrl, agent, method, pathname, {
        headers: { ...headers, ...extra },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: 15_000,
      });
    const create = async (slug: string, parentUid: string) => {
      const created = await call('POST', '/projects', {
        slug,
        name: slug,
        description: slug,
        parent_uid: parentUid,
      });
      if (created.status === 201) moving.push(JSON.parse(created.body!) as { uid: string; slug: string });
      return created.status;
    };
    const list = await call('GET', '/projects?slug=root');
    root ??=
      list.status === 200
        ? (JSON.parse(list.body!) as { projects: { uid: string }[] }).projects[0]?.uid
        : undefined;
    if (!root) return [{ label: 'list', status: list.status }];
    // Two parents and a child to move between them, made on the first round.
    while (moving.length < 3) await create(`ended-${moving.length}`, root);
    made += 1;
    const outcomes = [
      { label: 'list', status: list.status },
      // In gob, read twice in one snapshot: a transaction.
      {
        label: 'gob list',
        status: (await call('GET', '/projects', undefined, { Accept: 'application/gob' })).status,
      },
      { label: 'create', status: await create(`ended-extra-${made}`, root) },
    ];
    const child = moving[2]!;
    const moved = await call('PUT', `/projects/${child.uid}`, {
      slug: child.slug,
      name: child.slug,
      description: 'moved',
      parent_uid: moving[made % 2]!.uid,
    });
    outcomes.push({ label: 'move', status: moved.status });
    return outcomes;
  },
});
