// code-hosting-api's soak workload: sixteen clients, each step on the organizations
// (./organizations.ts: edits, renames, reads, lists) or on the attachments of a repository's issues
// (./attachments.ts: uploads, renames, deletes, reads, lists), all as the site administrator with
// an `all`-scope token. What each operation wrote or read is put on it as registers (./registers.ts).
import type { SoakApi, SoakWorkload } from '@repo/testing/soak';
import { attachmentSteps, REPOSITORY } from './attachments';
import { organizationSteps, type Caller } from './organizations';
import { observeCodeHostingEvent } from './registers';

const ADMIN = 'soak-admin';
const PASSWORD = 'soak-admin-password';

export function codeHostingWorkload(): SoakWorkload {
  let authorization = `Basic ${Buffer.from(`${ADMIN}:${PASSWORD}`).toString('base64')}`;
  let tokens = 0;
  const caller: Caller = {
    send: (api, client, request) =>
      api.send(client, { ...request, headers: { Authorization: authorization, ...request.headers } }),
    token: (what) => `soak-${what}-${++tokens}`,
  };
  const organizations = organizationSteps(caller);
  const attachments = attachmentSteps(caller, ADMIN);

  const setupStep = async (api: SoakApi, name: string, path: string, json: unknown) => {
    const op = await caller.send(api, -1, { name, method: 'POST', path, json });
    if (op.outcome !== 'ok')
      throw new Error(`soak setup: ${name}: ${op.status ?? op.error} ${JSON.stringify(op.response)}`);
    return op.response;
  };

  return {
    env: {
      ADMIN_USERNAME: ADMIN,
      ADMIN_PASSWORD: PASSWORD,
      // Only the token is made with the password: the cheapest hash will do.
      PASSWORD_HASH_COST: '16',
      // One public URL for every replica (the download URLs in the answers and events name it).
      ROOT_URL: 'http://code-hosting.soak/',
    },
    stream: 'CODE_HOSTING',

    async setup(api) {
      const made = await setupStep(api, 'create-token', `/api/v1/users/${ADMIN}/tokens`, {
        name: 'soak',
        scopes: ['all'],
      });
      authorization = `token ${String((made as { sha1?: unknown }).sha1)}`;
      await organizations.setup(api);
      const repository = await setupStep(api, 'create-repository', '/api/v1/user/repos', {
        name: REPOSITORY,
      });
      await attachments.setup(api, repository);
    },

    step: (api, client) =>
      api.random.chance(0.5) ? organizations.step(api, client) : attachments.step(api, client),

    async finalReads(api) {
      await organizations.finalReads(api);
      await attachments.finalReads(api);
    },

    observeEvent: observeCodeHostingEvent,
    resolve: (history) => attachments.resolve(history),
  };
}
