import { useCodeHostingApi } from './app';
import { adminToken, api, auth, createOrg, createTeam, addToTeam, createToken, createUser } from './actors';

const service = useCodeHostingApi();

type Caller =
  | 'anonymous'
  | 'public-only token'
  | 'signed-in'
  | 'member'
  | 'member with public-only token'
  | 'admin'
  | 'admin with public-only token';
type Visibility = 'public' | 'limited' | 'private';

const tokens = new Map<Caller, string | undefined>();
const orgs = new Map<Visibility, string>();
let ownerName: string;

beforeAll(async () => {
  const owner = await createUser(service, 'owner');
  ownerName = owner.username;
  const member = await createUser(service, 'member');
  const stranger = await createUser(service, 'stranger');
  for (const visibility of ['public', 'limited', 'private'] as const) {
    const org = await createOrg(service, owner, { visibility });
    orgs.set(visibility, org.name);
    await addToTeam(service, owner.token, await createTeam(service, owner.token, org.name), member.username);
  }
  tokens.set('anonymous', undefined);
  tokens.set('public-only token', await createToken(service, stranger, ['read:organization', 'public-only']));
  tokens.set('signed-in', stranger.token);
  tokens.set('member', member.token);
  tokens.set(
    'member with public-only token',
    await createToken(service, member, ['read:organization', 'public-only']),
  );
  tokens.set('admin', await adminToken(service));
  tokens.set('admin with public-only token', await adminToken(service, ['all', 'public-only']));
});

function withCaller(request: ReturnType<typeof service.request.get>, caller: Caller) {
  const token = tokens.get(caller);
  return token ? request.set(...auth(token)) : request;
}

const matrix: [Caller, Visibility[]][] = [
  ['anonymous', ['public']],
  ['public-only token', ['public']],
  ['signed-in', ['public', 'limited']],
  ['member', ['public', 'limited', 'private']],
  ['member with public-only token', ['public']],
  ['admin', ['public', 'limited', 'private']],
  ['admin with public-only token', ['public']],
];

describe('rule 1: GET /orgs lists the organizations the caller may see', () => {
  it.each(matrix)('%s sees %j organizations', async (caller, visible) => {
    const response = await withCaller(service.request.get(`${api}/orgs`), caller).expect(200);
    const listed = (response.body as { name: string; visibility: string }[])
      .map((org) => org.visibility)
      .sort();
    expect(listed).toEqual([...visible].sort());
    expect(response.headers['x-total-count']).toBe(String(visible.length));
  });
});

describe("GET /users/{username}/orgs lists the owner's organizations the caller may see", () => {
  it.each(matrix)('%s sees %j organizations', async (caller, visible) => {
    const response = await withCaller(service.request.get(`${api}/users/${ownerName}/orgs`), caller).expect(
      200,
    );
    const listed = (response.body as { visibility: string }[]).map((org) => org.visibility).sort();
    expect(listed).toEqual([...visible].sort());
    expect(response.headers['x-total-count']).toBe(String(visible.length));
  });
});

describe('GET /user/orgs through a public-only token', () => {
  it("lists only the member's public organizations", async () => {
    const response = await withCaller(
      service.request.get(`${api}/user/orgs`),
      'member with public-only token',
    ).expect(200);
    expect(response.body.map((org: { visibility: string }) => org.visibility)).toEqual(['public']);
  });
});

describe('rule 3: GET /orgs/{org} answers 404 for an organization the caller may not see', () => {
  const cases = matrix.flatMap(([caller, visible]) =>
    (['public', 'limited', 'private'] as const).map(
      (visibility) => [caller, visibility, visible.includes(visibility)] as const,
    ),
  );
  const readable = cases
    .filter(([, , visible]) => visible)
    .map(([caller, visibility]) => [caller, visibility] as const);
  const hidden = cases
    .filter(([, , visible]) => !visible)
    .map(([caller, visibility]) => [caller, visibility] as const);

  it.each(readable)('%s reads a %s organization: 200', async (caller, visibility) => {
    const response = await withCaller(
      service.request.get(`${api}/orgs/${orgs.get(visibility)}`),
      caller,
    ).expect(200);
    expect(response.body.visibility).toBe(visibility);
  });

  it.each(hidden)('%s reading a %s organization: 404', async (caller, visibility) => {
    const response = await withCaller(
      service.request.get(`${api}/orgs/${orgs.get(visibility)}`),
      caller,
    ).expect(404);
    expect(response.body.message).toMatch(/does not exist/);
  });
});

describe('the same visibility for the feed, permissions and teams', () => {
  it.each([
    ['anonymous', 'limited', 404],
    ['signed-in', 'limited', 200],
    ['signed-in', 'private', 404],
    ['member', 'private', 200],
    ['admin', 'private', 200],
  ] as const)('%s reading the feed of a %s organization: %i', async (caller, visibility, status) => {
    await withCaller(
      service.request.get(`${api}/orgs/${orgs.get(visibility)}/activities/feeds`),
      caller,
    ).expect(status);
  });
});

describe('an organization the caller may not see is the same 404 on every route that names it', () => {
  it('signed-in stranger on a private organization: get, feed, teams, new team, new repository', async () => {
    const org = orgs.get('private') as string;
    const expected = { status: 404, message: `organization ${org} does not exist` };
    const token = tokens.get('signed-in') as string;
    const requests = [
      service.request.get(`${api}/orgs/${org}`),
      service.request.get(`${api}/orgs/${org}/activities/feeds`),
      service.request.get(`${api}/orgs/${org}/teams`),
      service.request.post(`${api}/orgs/${org}/teams`).send({ name: 'hidden-team', permission: 'read' }),
      service.request.post(`${api}/orgs/${org}/repos`).send({ name: 'hidden-repo' }),
    ];
    for (const request of requests) {
      const response = await request.set(...auth(token));
      expect({ status: response.status, message: response.body.message }).toEqual(expected);
    }
  });
});
