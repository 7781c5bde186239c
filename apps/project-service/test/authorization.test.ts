import { signTestToken } from '@repo/testing';
import { ADMIN_GROUP, bearer, useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();

// The tree every case works in:
//   root
//   ├── org     (private; writers: wanda, auditors: otto)
//   │   └── child (private; writers: cwen) ← created fresh per case
//   └── pub     (public; no members)
const actors = {
  admin: () => admin(),
  'admin by group claim': () => bearer('gina', { groups: [ADMIN_GROUP] }),
  'writer of the project': () => bearer('cwen'),
  'inherited writer': () => bearer('wanda'),
  'inherited auditor': () => bearer('otto'),
  stranger: () => bearer('sam'),
} as const;
type Actor = keyof typeof actors;

let root: string;
let org: string;
let pub: string;
beforeAll(async () => {
  root = await rootUid(service);
  org = (
    await createProject(service, {
      parent_uid: root,
      writers: [{ username: 'wanda' }],
      auditors: [{ username: 'otto' }],
    })
  ).uid;
  pub = (await createProject(service, { parent_uid: root, public: true })).uid;
});

async function freshChild(parent = org): Promise<{ uid: string; slug: string; parent: string }> {
  const child = await createProject(service, { parent_uid: parent, writers: [{ username: 'cwen' }] });
  return { uid: child.uid, slug: child.slug, parent };
}

type Operation = (token: string, target: { uid: string; slug: string; parent: string }) => Promise<number>;
// An empty token means: send no Authorization header at all.
const withToken = <T extends { set(name: string, value: string): T }>(request: T, token: string): T =>
  token === '' ? request : request.set('Authorization', token);

const operations: Record<string, Operation> = {
  list: async (token) => (await withToken(service.request.get('/projects'), token)).status,
  'get base': async (token, target) =>
    (await withToken(service.request.get(`/projects/${target.uid}`), token)).status,
  'get settings': async (token, target) =>
    (await withToken(service.request.get(`/projects/${target.uid}/settings`), token)).status,
  'update base': async (token, target) =>
    (
      await withToken(service.request.put(`/projects/${target.uid}`), token).send({
        slug: target.slug,
        name: 'renamed',
        description: 'd',
        parent_uid: target.parent,
      })
    ).status,
  'update settings': async (token, target) =>
    (
      await withToken(service.request.put(`/projects/${target.uid}/settings`), token).send({
        writers: [{ username: 'cwen' }],
      })
    ).status,
  delete: async (token, target) =>
    (await withToken(service.request.delete(`/projects/${target.uid}`), token)).status,
  'create under it': async (token, target) =>
    (
      await withToken(service.request.post('/projects'), token).send({
        slug: uniqueSlug(),
        name: 'n',
        description: 'd',
        parent_uid: target.uid,
      })
    ).status,
};

// Expected status per operation on a private child of org, by actor.
const onPrivateChild: Record<string, Record<Actor, number>> = {
  'get base': {
    admin: 200,
    'admin by group claim': 200,
    'writer of the project': 200,
    'inherited writer': 200,
    'inherited auditor': 200,
    stranger: 404,
  },
  'get settings': {
    admin: 200,
    'admin by group claim': 200,
    'writer of the project': 200,
    'inherited writer': 200,
    'inherited auditor': 200,
    stranger: 404,
  },
  'update base': {
    admin: 200,
    'admin by group claim': 200,
    'writer of the project': 200,
    'inherited writer': 200,
    'inherited auditor': 403,
    stranger: 404,
  },
  'update settings': {
    admin: 200,
    'admin by group claim': 200,
    'writer of the project': 200,
    'inherited writer': 200,
    'inherited auditor': 403,
    stranger: 404,
  },
  // Delete needs the writer of the parent (the owner) or an admin.
  delete: {
    admin: 204,
    'admin by group claim': 204,
    'writer of the project': 403,
    'inherited writer': 204,
    'inherited auditor': 403,
    stranger: 404,
  },
  // Create needs the writer of the parent; a parent the caller views but may not write is 403,
  // one they may not view is no parent for them (400 invalid parent project, as a missing one).
  'create under it': {
    admin: 201,
    'admin by group claim': 201,
    'writer of the project': 201,
    'inherited writer': 201,
    'inherited auditor': 403,
    stranger: 400,
  },
};

const cases = Object.entries(onPrivateChild).flatMap(([operation, byActor]) =>
  (Object.entries(byActor) as [Actor, number][]).map(
    ([actor, status]) => [operation, actor, status] as const,
  ),
);

describe('authorization on a private project', () => {
  it.each(cases)('%s by %s answers %i', async (operation, actor, status) => {
    const target = await freshChild();
    expect(await operations[operation]!(actors[actor](), target)).toBe(status);
  });
});

describe('authorization on a public project for a caller with no role', () => {
  it.each([
    ['get base', 200],
    ['get settings', 403],
    ['update base', 403],
    ['update settings', 403],
    ['delete', 403],
    ['create under it', 403],
  ] as const)('%s answers %i', async (operation, status) => {
    const target = await createProject(service, { parent_uid: pub, public: true });
    expect(
      await operations[operation]!(bearer('sam'), { uid: target.uid, slug: target.slug, parent: pub }),
    ).toBe(status);
  });

  it('lets a stranger read a public project whose parent is private', async () => {
    const target = await createProject(service, { parent_uid: org, public: true });
    await service.request.get(`/projects/${target.uid}`).set('Authorization', bearer('sam')).expect(200);
  });
});

describe('authentication', () => {
  const expired = `Bearer ${signTestToken({ principal: 'sam' }, { algorithm: 'HS256', secret: 'project-service-test-secret-0123456789' }, { expiresIn: -10 })}`;
  const wrongSecret = `Bearer ${signTestToken({ principal: 'sam' }, { algorithm: 'HS256', secret: 'some-other-secret-of-enough-length' })}`;
  const noPrincipal = `Bearer ${signTestToken({}, { algorithm: 'HS256', secret: 'project-service-test-secret-0123456789' })}`;

  it.each([
    ['no token', undefined],
    ['a malformed token', 'Bearer not.a.jwt'],
    ['an expired token', expired],
    ['a token signed with another secret', wrongSecret],
    ['a token without principal or sub', noPrincipal],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 for %s on every operation', async (_label, authorization) => {
    const target = await freshChild();
    for (const operation of Object.values(operations)) {
      const status = await operation(authorization ?? '', target);
      expect(status).toBe(401);
    }
  });

  it('answers 401 with a {code, message} body and a Bearer challenge', async () => {
    const response = await service.request.get('/projects').expect(401);
    expect(response.body).toEqual({ code: '401', message: 'missing Authorization header' });
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('accepts a bare token without the Bearer prefix', async () => {
    const target = await freshChild();
    await service.request
      .get(`/projects/${target.uid}`)
      .set('Authorization', admin().replace('Bearer ', ''))
      .expect(200);
  });

  it('takes the caller from sub when there is no principal claim', async () => {
    const target = await freshChild();
    const token = signTestToken(
      { sub: 'wanda' },
      { algorithm: 'HS256', secret: 'project-service-test-secret-0123456789' },
    );
    await service.request
      .get(`/projects/${target.uid}/settings`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
  });

  it('refuses an unsigned (alg none) token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ principal: 'admin-alice' })).toString('base64url');
    await service.request.get('/projects').set('Authorization', `Bearer ${header}.${payload}.`).expect(401);
  });
});

describe('list visibility', () => {
  async function visibleUids(token: string): Promise<Set<string>> {
    const response = await service.request.get('/projects').set('Authorization', token).expect(200);
    return new Set((response.body.projects as { uid: string }[]).map((project) => project.uid));
  }

  it('lists only what the caller may view', async () => {
    const child = await freshChild();
    const publicGrandchild = await createProject(service, { parent_uid: child.uid, public: true });
    const stranger = await visibleUids(bearer('sam'));
    expect(stranger.has(pub)).toBe(true);
    expect(stranger.has(publicGrandchild.uid)).toBe(true);
    expect(stranger.has(org)).toBe(false);
    expect(stranger.has(child.uid)).toBe(false);
    expect(stranger.has(root)).toBe(false);

    const auditor = await visibleUids(bearer('otto'));
    expect([org, child.uid, pub].every((uid) => auditor.has(uid))).toBe(true);
    expect(auditor.has(root)).toBe(false);

    const childWriter = await visibleUids(bearer('cwen'));
    expect(childWriter.has(child.uid)).toBe(true);
    expect(childWriter.has(org)).toBe(false);

    const everyone = await visibleUids(admin());
    expect([root, org, child.uid, pub].every((uid) => everyone.has(uid))).toBe(true);
  });
});
