// The organizations' part of code-hosting-api's soak workload: a few organizations every client
// edits (full_name and description), renames, reads by the name it last saw, and lists. A rename
// makes the old name answer 404, so clients often act on a name that is gone: those are refusals
// (a 404 edit) or a lookup that shows the name is no longer the organization's.
import { ABSENT, type Operation, type SoakApi } from '@repo/testing/soak';
import { isJson, observedOrganization, orgDescription, orgName, type Json } from './registers';

export interface Caller {
  send(api: SoakApi, client: number, request: Parameters<SoakApi['send']>[1]): Promise<Operation>;
  token(what: string): string;
}

interface KnownOrg {
  id: number;
  /** The name last seen (a rename by another client may have changed it since). */
  name: string;
}

const ORGANIZATIONS = 4;

export function organizationSteps(caller: Caller) {
  const orgs: KnownOrg[] = [];
  const { send, token } = caller;

  /** An organization's answer also tells its current name. */
  const learn = (org: KnownOrg, body: unknown) => {
    if (isJson(body) && Number(body['id']) === org.id) org.name = String(body['name']);
  };

  async function create(api: SoakApi, client: number, index: number): Promise<void> {
    const name = `soak-o${index}`;
    const description = token('org');
    const op = await send(api, client, {
      name: 'create-org',
      method: 'POST',
      path: '/api/v1/orgs',
      json: { username: name, full_name: description, description, visibility: 'public' },
    });
    if (op.outcome !== 'ok' || !isJson(op.response)) {
      throw new Error(
        `soak setup: organization ${name}: ${op.status ?? op.error} ${JSON.stringify(op.response)}`,
      );
    }
    const id = Number(op.response['id']);
    op.writes = [
      { register: orgName(id), value: name },
      { register: orgDescription(id), value: description },
    ];
    op.expectsEvent = { type: 'organization.created', resource: `orgs.${id}`, data: op.response };
    orgs.push({ id, name });
  }

  async function edit(api: SoakApi, client: number, org: KnownOrg): Promise<void> {
    const description = token('edit');
    const op = await send(api, client, {
      name: 'edit-org',
      method: 'PATCH',
      path: `/api/v1/orgs/${org.name}`,
      json: { full_name: description, description },
    });
    const ok = op.outcome === 'ok' && isJson(op.response);
    op.writes = [{ register: orgDescription(org.id), value: description }];
    op.expectsEvent = {
      type: 'organization.updated',
      resource: `orgs.${org.id}`,
      ...(ok ? { data: op.response } : {}),
    };
    if (ok) learn(org, op.response);
  }

  async function rename(api: SoakApi, client: number, org: KnownOrg): Promise<void> {
    const newName = `soak-o${org.id}-${token('r').replace(/\D/g, '')}`;
    const op = await send(api, client, {
      name: 'rename-org',
      method: 'POST',
      path: `/api/v1/orgs/${org.name}/rename`,
      json: { new_name: newName },
    });
    op.writes = [{ register: orgName(org.id), value: newName }];
    // 204: the event's data is the organization after the rename, checked as what it shows.
    op.expectsEvent = { type: 'organization.renamed', resource: `orgs.${org.id}` };
    if (op.outcome === 'ok') org.name = newName;
  }

  async function get(api: SoakApi, client: number, org: KnownOrg): Promise<void> {
    const asked = org.name;
    const op = await send(api, client, { name: 'get-org', method: 'GET', path: `/api/v1/orgs/${asked}` });
    if (op.outcome === 'ok' && isJson(op.response)) {
      op.observes = observedOrganization(op.response);
      learn(org, op.response);
    } else if (op.status === 404) {
      // A valid answer: at some moment while it ran, no organization had that name.
      op.outcome = 'ok';
      op.observes = [{ register: orgName(org.id), value: asked, negated: true }];
    }
  }

  /** Every organization in one page: each one's registers (all of them must be there: none is deleted). */
  async function list(api: SoakApi, client: number): Promise<void> {
    const op = await send(api, client, { name: 'list-orgs', method: 'GET', path: '/api/v1/orgs?limit=50' });
    if (op.outcome !== 'ok' || !Array.isArray(op.response)) return;
    const listed = new Map<number, Json>();
    for (const item of op.response) if (isJson(item)) listed.set(Number(item['id']), item);
    op.observes = [];
    for (const org of orgs) {
      const item = listed.get(org.id);
      if (item) {
        op.observes.push(...observedOrganization(item));
        learn(org, item);
      } else {
        op.observes.push({ register: orgName(org.id), value: ABSENT });
      }
    }
  }

  return {
    async setup(api: SoakApi) {
      for (let index = 1; index <= ORGANIZATIONS; index += 1) await create(api, -1, index);
    },
    async step(api: SoakApi, client: number) {
      const org = api.random.pick(orgs);
      const roll = api.random.next();
      if (roll < 0.35) return edit(api, client, org);
      if (roll < 0.45) return rename(api, client, org);
      if (roll < 0.85) return get(api, client, org);
      return list(api, client);
    },
    async finalReads(api: SoakApi) {
      await list(api, -1);
      for (const org of orgs) await get(api, -1, org);
    },
  };
}
