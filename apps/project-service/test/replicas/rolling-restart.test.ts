import path from 'node:path';
import { describeRollingRestart, type Send } from '@repo/testing';
import { ADMIN_PRINCIPAL, bearer, TEST_JWT_SECRET } from '../app';

// Projects created, read, updated (If-Match on the last acknowledged ETag) and listed through two
// replicas while each is restarted in turn (@repo/testing's suite says what must hold).

/** Each project's ETag after its last acknowledged update. */
const etags = new Map<string, string>();
let root: string | undefined;

async function rootUid(send: Send): Promise<string> {
  if (root) return root;
  const answer = await send('GET', '/projects?slug=root');
  root = (JSON.parse(answer.body ?? '{}') as { projects: { uid: string }[] }).projects[0]!.uid;
  return root;
}

describeRollingRestart({
  appDir: path.resolve(__dirname, '../..'),
  env: { JWT_SECRET: TEST_JWT_SECRET, ADMIN_PRINCIPALS: ADMIN_PRINCIPAL },
  headers: { Authorization: bearer(ADMIN_PRINCIPAL) },
  workload: {
    async create(send, name) {
      const created = await send('POST', '/projects', {
        slug: name,
        name,
        description: 'round 0',
        parent_uid: await rootUid(send),
      });
      if (created.status !== 201) return created;
      const { uid } = JSON.parse(created.body!) as { uid: string };
      etags.set(uid, String(created.headers?.['etag']));
      return { key: uid };
    },
    read: (send, uid) => send('GET', `/projects/${uid}`),
    async update(send, uid, round) {
      const current = JSON.parse((await send('GET', `/projects/${uid}`)).body ?? '{}') as Record<
        string,
        unknown
      >;
      const updated = await send(
        'PUT',
        `/projects/${uid}`,
        {
          slug: current['slug'],
          name: current['name'],
          parent_uid: current['parent_uid'],
          description: `round ${round}`,
        },
        { 'If-Match': etags.get(uid) ?? '*' },
      );
      if (updated.status === 200) etags.set(uid, String(updated.headers?.['etag']));
      return updated;
    },
    list: (send) => send('GET', '/projects?page_size=20'),
    async storedRound(send, uid) {
      const read = await send('GET', `/projects/${uid}`);
      if (read.status !== 200) return undefined;
      return Number((JSON.parse(read.body!) as { description: string }).description.replace('round ', ''));
    },
  },
});
