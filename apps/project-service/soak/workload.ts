// project-service's soak workload: sixteen clients on a shared handful of projects (contention),
// each step one of: PUT base or PUT settings (half of them with If-Match on the ETag last seen),
// GET base, GET settings, the paged list, a create (some with a slug already taken: 409), and a
// delete (a project with children: 409). All as a platform admin. What each operation wrote or
// read is put on it as registers (./registers.ts) for the checker.
import jwt from 'jsonwebtoken';
import { ABSENT, type History, type Operation, type SoakApi, type SoakWorkload } from '@repo/testing/soak';
import {
  baseRegister,
  basePart,
  canonical,
  createWrites,
  isJson,
  observeProjectEvent,
  observed,
  revisionOf,
  settingsPart,
  settingsRegister,
} from './registers';

const JWT_SECRET = 'project-service-soak-secret-0123456789';
const ADMIN = 'soak-admin';
/** The live projects kept between these bounds: few enough that clients collide on them. */
const MIN_LIVE = 5;
const MAX_LIVE = 10;
const SETUP_PROJECTS = 8;

interface Known {
  uid: string;
  slug: string;
  parent: string;
  baseEtag?: string;
  settingsEtag?: string;
  deleted: boolean;
}

export function projectWorkload(): SoakWorkload {
  const headers = {
    Authorization: `Bearer ${jwt.sign({ principal: ADMIN }, JWT_SECRET, { algorithm: 'HS256', expiresIn: '2h' })}`,
  };
  const projects = new Map<string, Known>();
  let root = '';
  let tokens = 0;
  const token = (what: string) => `soak-${what}-${++tokens}`;
  const live = () => [...projects.values()].filter((p) => !p.deleted);

  const send = (api: SoakApi, client: number, request: Parameters<SoakApi['send']>[1]) =>
    api.send(client, { ...request, headers: { ...headers, ...request.headers } });

  /** A 404 from a write or read of a known project: it is gone. */
  const gone = (project: Known, op: Operation) => {
    if (op.status === 404) project.deleted = true;
  };

  async function create(api: SoakApi, client: number, parent: string, duplicateOf?: Known): Promise<void> {
    const value = token('create');
    const slug = duplicateOf?.slug ?? value;
    const op = await send(api, client, {
      name: duplicateOf ? 'create-duplicate' : 'create',
      method: 'POST',
      path: '/projects',
      json: { slug, name: value, description: value, parent_uid: parent, mission_statement: value },
    });
    op.expectsEvent = { type: 'project.created' };
    if (op.outcome !== 'ok' || !isJson(op.response)) return;
    const uid = String(op.response['uid']);
    op.writes = createWrites(uid, value, { full: op.response, ...(op.etag ? { etag: op.etag } : {}) });
    op.expectsEvent = { type: 'project.created', resource: `projects.${uid}`, data: op.response };
    projects.set(uid, { uid, slug, parent, ...(op.etag ? { baseEtag: op.etag } : {}), deleted: false });
  }

  async function putBase(api: SoakApi, client: number, project: Known, conditional: boolean): Promise<void> {
    const value = token('base');
    const ifMatch = conditional && project.baseEtag ? { 'If-Match': project.baseEtag } : undefined;
    const op = await send(api, client, {
      name: ifMatch ? 'put-base-if-match' : 'put-base',
      method: 'PUT',
      path: `/projects/${project.uid}`,
      ...(ifMatch ? { headers: ifMatch } : {}),
      json: { slug: project.slug, name: value, description: value, parent_uid: project.parent },
    });
    const ok = op.outcome === 'ok' && isJson(op.response);
    op.writes = [
      {
        register: baseRegister(project.uid),
        value,
        ...(ok ? { version: revisionOf(op.etag), state: canonical(op.response) } : {}),
      },
    ];
    op.expectsEvent = {
      type: 'project.updated',
      resource: `projects.${project.uid}`,
      ...(ok ? { data: op.response } : {}),
    };
    if (ok && op.etag) project.baseEtag = op.etag;
    gone(project, op);
  }

  async function putSettings(
    api: SoakApi,
    client: number,
    project: Known,
    conditional: boolean,
  ): Promise<void> {
    const value = token('settings');
    const ifMatch = conditional && project.settingsEtag ? { 'If-Match': project.settingsEtag } : undefined;
    const op = await send(api, client, {
      name: ifMatch ? 'put-settings-if-match' : 'put-settings',
      method: 'PUT',
      path: `/projects/${project.uid}/settings`,
      ...(ifMatch ? { headers: ifMatch } : {}),
      json: { mission_statement: value, writers: [{ username: `writer-${client}` }] },
    });
    const ok = op.outcome === 'ok' && isJson(op.response);
    op.writes = [
      {
        register: settingsRegister(project.uid),
        value,
        ...(ok ? { version: revisionOf(op.etag), state: canonical(op.response) } : {}),
      },
    ];
    // `previous` is checked as what the event shows of the settings before (./registers.ts).
    op.expectsEvent = {
      type: 'project.settings_updated',
      resource: `projects.${project.uid}`,
      ...(ok ? { data: op.response, ignoreFields: ['previous'] } : {}),
    };
    if (ok && op.etag) project.settingsEtag = op.etag;
    gone(project, op);
  }

  async function remove(api: SoakApi, client: number, project: Known, conditional: boolean): Promise<void> {
    const value = token('delete');
    const ifMatch = conditional && project.baseEtag ? { 'If-Match': project.baseEtag } : undefined;
    const op = await send(api, client, {
      name: ifMatch ? 'delete-if-match' : 'delete',
      method: 'DELETE',
      path: `/projects/${project.uid}`,
      ...(ifMatch ? { headers: ifMatch } : {}),
    });
    op.writes = [
      { register: baseRegister(project.uid), value, removes: true },
      { register: settingsRegister(project.uid), value, removes: true },
    ];
    op.expectsEvent = { type: 'project.deleted', resource: `projects.${project.uid}` };
    if (op.outcome === 'ok') project.deleted = true;
    gone(project, op);
  }

  async function read(
    api: SoakApi,
    client: number,
    project: Known,
    part: 'base' | 'settings',
  ): Promise<void> {
    const op = await send(api, client, {
      name: `get-${part}`,
      method: 'GET',
      path: part === 'base' ? `/projects/${project.uid}` : `/projects/${project.uid}/settings`,
    });
    const register = part === 'base' ? baseRegister(project.uid) : settingsRegister(project.uid);
    if (op.outcome === 'ok' && isJson(op.response)) {
      op.observes = [observed(part, op.response, { version: revisionOf(op.etag) })];
      if (part === 'base') project.baseEtag = op.etag;
      else project.settingsEtag = op.etag;
    } else if (op.status === 404) {
      // The answer is valid: the project is gone.
      op.outcome = 'ok';
      op.observes = [{ register, value: ABSENT }];
      project.deleted = true;
    }
  }

  /** Every project in one page: each listed one's registers, and ABSENT for each known one not listed. */
  async function list(api: SoakApi, client: number): Promise<void> {
    const known = [...projects.keys()];
    const op = await send(api, client, { name: 'list', method: 'GET', path: '/projects?page_size=1000' });
    const listed =
      isJson(op.response) && Array.isArray(op.response['projects']) ? op.response['projects'] : undefined;
    if (op.outcome !== 'ok' || !listed) return;
    const shown = new Set<string>();
    op.observes = [];
    for (const item of listed) {
      if (!isJson(item) || item['uid'] === root) continue;
      shown.add(String(item['uid']));
      // A list item's updated_at is the later of the two writes': its parts are compared by value only.
      op.observes.push(
        observed('base', basePart(item), { state: undefined }),
        observed('settings', settingsPart(item), { state: undefined }),
      );
    }
    for (const uid of known) {
      if (!shown.has(uid)) {
        op.observes.push(
          { register: baseRegister(uid), value: ABSENT },
          { register: settingsRegister(uid), value: ABSENT },
        );
      }
    }
  }

  return {
    env: { JWT_SECRET, ADMIN_PRINCIPALS: ADMIN },
    stream: 'PROJECTS',

    async setup(api) {
      const op = await send(api, -1, {
        name: 'find-root',
        method: 'GET',
        path: '/projects?slug=root&page_size=10',
      });
      const found =
        isJson(op.response) && Array.isArray(op.response['projects'])
          ? op.response['projects'][0]
          : undefined;
      if (!isJson(found))
        throw new Error(`soak setup: no root project (${op.status} ${JSON.stringify(op.response)})`);
      root = String(found['uid']);
      for (let index = 0; index < SETUP_PROJECTS; index += 1) await create(api, -1, root);
      if (live().length !== SETUP_PROJECTS) throw new Error('soak setup: a project could not be created');
    },

    async step(api, client) {
      const { random } = api;
      const candidates = live();
      const roll = random.next();
      if (candidates.length === 0 || (roll < 0.06 && candidates.length < MAX_LIVE)) {
        const parent = candidates.length > 0 && random.chance(0.25) ? random.pick(candidates).uid : root;
        return create(api, client, parent);
      }
      const project = random.pick(candidates);
      if (roll < 0.07) return create(api, client, root, project);
      if (roll < 0.12)
        return candidates.length > MIN_LIVE
          ? remove(api, client, project, random.chance(0.5))
          : read(api, client, project, 'base');
      if (roll < 0.38) return putBase(api, client, project, random.chance(0.5));
      if (roll < 0.58) return putSettings(api, client, project, random.chance(0.5));
      if (roll < 0.8) return read(api, client, project, 'base');
      if (roll < 0.95) return read(api, client, project, 'settings');
      return list(api, client);
    },

    async finalReads(api) {
      await list(api, -1);
      for (const project of projects.values()) {
        await read(api, -1, project, 'base');
        await read(api, -1, project, 'settings');
      }
    },

    observeEvent: observeProjectEvent,

    resolve(history: History) {
      // A create whose answer never came: its event (if it committed) says which project it made.
      const created = new Map(
        history.events.filter((e) => e.type === 'project.created').map((e) => [e.requestId, e]),
      );
      for (const op of history.operations) {
        if (!op.name.startsWith('create') || op.writes || !isJson(op.request)) continue;
        const event = created.get(op.requestId);
        if (!event || !isJson(event.data)) continue;
        op.writes = createWrites(String(event.data['uid']), String(op.request['description']));
        op.expectsEvent = { type: 'project.created', resource: event.resource };
      }
    },
  };
}
