import { useTestApp } from '@repo/testing';
import { createTestApp, testSettings } from './app';
import {
  adminAuthorization,
  adminToken,
  api,
  createOrg,
  createToken,
  createUser,
  uniqueName,
  type Actor,
} from './actors';
import { addToNewTeam } from './organization-fixtures';

// GET /orgs/{org}, the permissions, POST /orgs, PATCH /orgs/{org} (and an attachment's rename:
// attachment-rename-statement.test.ts) look the request's token up in their own statement
// (src/db/token-caller.ts) when it is sent alone (`Authorization: token …`): one statement, not
// the token's and then the operation's. Every refusal is left to the usual path, which looks the
// token up first unless the statement found it usable. The same token sent as Basic's username
// always takes that usual path, so it is the oracle here: for every kind of token and target, both
// forms must get the same answer, and the token form must be the one statement exactly when it
// succeeds. Nothing refused is made.

// Each test sends hundreds of requests (800 for the permissions): over 30 s on PGlite when the
// machine is shared.
jest.setTimeout(180_000);

let statements: string[] = [];
const service = useTestApp((source) =>
  createTestApp(source, testSettings, {
    onQuery: (sql) => {
      // A token's last use is written in the background, after the answer: not the request's.
      if (!/^UPDATE "public"\."access_tokens"/.test(sql))
        statements.push(/^\/\* prepared: (\w+) \*\//.exec(sql)?.[1] ?? sql);
    },
  }),
);

const basicToken = (token: string) => `Basic ${Buffer.from(`${token}:`).toString('base64')}`;

/** Each kind of token, by what it is: the test's callers. */
const tokens = new Map<string, string>();
/** The organizations, by their visibility and the callers' place in them. */
const organizations = new Map<string, string>();
/** Users whose permissions are asked for, by who they are. */
const people = new Map<string, string>();

async function adminPatch(username: string, body: Record<string, unknown>): Promise<void> {
  await service.request
    .patch(`${api}/admin/users/${username}`)
    .set('Authorization', adminAuthorization)
    .send({ login_name: username, source_id: 0, ...body })
    .expect(200);
}

beforeAll(async () => {
  const owner = await createUser(service, 'owner');
  const member = await createUser(service, 'member');
  const user = await createUser(service, 'user');
  const barred = await createUser(service, 'barred');
  await adminPatch(barred.username, { allow_create_organization: false });
  const inactive = await createUser(service, 'inactive');
  await adminPatch(inactive.username, { active: false });
  const revoked = await createUser(service, 'revoked');
  const revokedToken = await createToken(service, revoked, ['all'], 'to-revoke');
  await service.request
    .delete(`${api}/users/${revoked.username}/tokens/to-revoke`)
    .set(
      'Authorization',
      `Basic ${Buffer.from(`${revoked.username}:${revoked.password}`).toString('base64')}`,
    )
    .expect(204);

  const scoped = (actor: Actor, scopes: string[]) => createToken(service, actor, scopes);
  tokens.set('an owner', owner.token);
  tokens.set('an owner reading organizations only', await scoped(owner, ['read:organization']));
  tokens.set('an owner through a public-only token', await scoped(owner, ['all', 'public-only']));
  tokens.set("a private organization's member", member.token);
  tokens.set('a member through a public-only token', await scoped(member, ['all', 'public-only']));
  tokens.set('a user', user.token);
  tokens.set('a user reading organizations', await scoped(user, ['read:organization']));
  tokens.set('a user writing organizations', await scoped(user, ['write:organization']));
  tokens.set('a user reading users only', await scoped(user, ['read:user']));
  tokens.set('a user through a public-only token', await scoped(user, ['write:organization', 'public-only']));
  tokens.set('a user who may not create organizations', barred.token);
  tokens.set('a site administrator', await adminToken(service));
  tokens.set(
    'a site administrator through a public-only token',
    await adminToken(service, ['all', 'public-only']),
  );
  tokens.set('an inactive user', inactive.token);
  tokens.set('a revoked token', revokedToken);
  tokens.set('no such token', 'f'.repeat(40));

  people.set('the owner', owner.username);
  people.set("the private organization's member", member.username);
  people.set('a user', user.username);
  people.set('a private user', (await createUser(service, 'hidden', { visibility: 'private' })).username);
  people.set('no such user', 'no-such-user');

  organizations.set('public', (await createOrg(service, owner)).name);
  organizations.set('limited', (await createOrg(service, owner, { visibility: 'limited' })).name);
  const hidden = (await createOrg(service, owner, { visibility: 'private' })).name;
  await addToNewTeam(service, owner.token, hidden, member.username, { permission: 'read' });
  organizations.set('private', hidden);
  organizations.set('missing', 'no-such-organization');
  // A user's name is not an organization's.
  organizations.set("a user's", user.username);
});

/** Tokens that authenticate nobody: as Basic's username they would be tried as a password too. */
const unusable = new Set(['an inactive user', 'a revoked token', 'no such token']);

/**
 * The response to `send` with the token as a token, and what the usual path answers: the same token
 * as Basic's username, or for a token that authenticates nobody, the 401 it gets (as Basic, it
 * would be tried as a password, and the login throttle would answer in the end).
 */
async function bothForms(
  who: string,
  token: string,
  send: (authorization: string, form: 'token' | 'basic') => Promise<{ status: number; body: unknown }>,
) {
  statements = [];
  const asToken = await send(`token ${token}`, 'token');
  const tokenStatements = [...statements];
  const asBasic = unusable.has(who)
    ? {
        status: 401,
        body: { message: 'invalid username, password or token', url: 'http://code-hosting.test/api/swagger' },
      }
    : await send(basicToken(token), 'basic');
  return { asToken, asBasic, tokenStatements };
}

describe('GET /orgs/{org} with the token in its statement', () => {
  it('answers as the usual path does, for every token and organization, in one statement when it succeeds', async () => {
    const outcomes: string[] = [];
    for (const [who, token] of tokens) {
      for (const [which, org] of organizations) {
        const { asToken, asBasic, tokenStatements } = await bothForms(who, token, (authorization) =>
          service.request.get(`${api}/orgs/${org}`).set('Authorization', authorization),
        );
        expect({ who, which, status: asToken.status, body: asToken.body }).toEqual({
          who,
          which,
          status: asBasic.status,
          body: asBasic.body,
        });
        // An answer is the one statement; a refusal starts with it, and the usual path follows,
        // looking the token up again only when the statement could not accept it (401, 403).
        const taken = asToken.status === 200 ? tokenStatements : tokenStatements.slice(0, 1);
        expect({ who, which, taken }).toEqual({ who, which, taken: ['organization_with_token'] });
        expect({ who, which, lookedUpAgain: tokenStatements.includes('token_by_hash') }).toEqual({
          who,
          which,
          lookedUpAgain: asToken.status === 401 || asToken.status === 403,
        });
        outcomes.push(`${who} / ${which}: ${asToken.status}`);
      }
    }
    // The cases cover every answer: seen, hidden, refused by scope, unauthenticated.
    const statuses = new Set(outcomes.map((outcome) => outcome.split(': ')[1]));
    expect([...statuses].sort()).toEqual(['200', '401', '403', '404']);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        "a private organization's member / private: 200",
        'a member through a public-only token / private: 404',
        'a user / private: 404',
        'a user / limited: 200',
        'a user through a public-only token / limited: 404',
        'a site administrator / private: 200',
        'a site administrator through a public-only token / private: 404',
        'a user reading users only / public: 403',
        'an inactive user / public: 401',
        'a revoked token / public: 401',
        'no such token / public: 401',
      ]),
    );
  });

  it('takes the one statement for a token in the query too, and the usual path under Sudo', async () => {
    const org = organizations.get('private')!;
    statements = [];
    await service.request
      .get(`${api}/orgs/${org}?token=${tokens.get("a private organization's member")}`)
      .expect(200);
    expect(statements).toEqual(['organization_with_token']);
    // The administrator acting as a user outside the private organization: hidden from that user.
    statements = [];
    await service.request
      .get(`${api}/orgs/${org}`)
      .set('Authorization', `token ${tokens.get('a site administrator')}`)
      .set('Sudo', organizations.get("a user's")!)
      .expect(404);
    expect(statements[0]).toBe('token_by_hash');
  });
});

async function organizationCount(): Promise<number> {
  const response = await service.request
    .get(`${api}/admin/orgs?limit=1`)
    .set('Authorization', adminAuthorization)
    .expect(200);
  return Number(response.headers['x-total-count']);
}

describe('GET /users/{username}/orgs/{org}/permissions with the token in its statement', () => {
  it('answers as the usual path does, in one statement when it succeeds', async () => {
    const outcomes: string[] = [];
    for (const [who, token] of tokens) {
      for (const [whose, username] of people) {
        for (const [which, org] of organizations) {
          const { asToken, asBasic, tokenStatements } = await bothForms(who, token, (authorization) =>
            service.request
              .get(`${api}/users/${username}/orgs/${org}/permissions`)
              .set('Authorization', authorization),
          );
          expect({ who, whose, which, status: asToken.status, body: asToken.body }).toEqual({
            who,
            whose,
            which,
            status: asBasic.status,
            body: asBasic.body,
          });
          const taken = asToken.status === 200 ? tokenStatements : tokenStatements.slice(0, 1);
          expect({ who, whose, which, taken }).toEqual({
            who,
            whose,
            which,
            taken: ['permissions_with_token'],
          });
          // Looked up again only when the statement could not accept it: no token, or no scope.
          expect({ who, whose, which, lookedUpAgain: tokenStatements.includes('token_by_hash') }).toEqual({
            who,
            whose,
            which,
            lookedUpAgain: unusable.has(who) || who === 'a user reading users only',
          });
          outcomes.push(`${who} / ${whose} / ${which}: ${asToken.status}`);
        }
      }
    }
    const statuses = new Set(outcomes.map((outcome) => outcome.split(': ')[1]));
    expect([...statuses].sort()).toEqual(['200', '401', '403', '404']);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        'an owner / the owner / private: 200',
        "a private organization's member / the owner / private: 200",
        "a private organization's member / the private organization's member / private: 200",
        "a member through a public-only token / the private organization's member / private: 404",
        'a user / the owner / public: 403',
        'a user / a user / public: 200',
        'a user / the owner / private: 404',
        'a user / a private user / public: 404',
        'a site administrator / a private user / private: 200',
        'a user reading users only / a user / public: 403',
        'no such token / a user / public: 401',
      ]),
    );
  });
});

describe('POST /orgs with the token in its statement', () => {
  const bodies: Record<string, (form: string) => Record<string, unknown>> = {
    'a new name': (form) => ({
      username: uniqueName(`made-${form}`),
      full_name: 'Made',
      visibility: 'limited',
    }),
    'a taken name': () => ({ username: organizations.get('public') }),
    "a user's name": () => ({ username: organizations.get("a user's") }),
    'a reserved name': () => ({ username: 'api' }),
    'an invalid e-mail': (form) => ({ username: uniqueName(`mail-${form}`), email: 'not-an-address' }),
    'a NUL character': (form) => ({ username: uniqueName(`nul-${form}`), full_name: 'a\u0000b' }),
  };

  /** The first statement of a refused creation, where the query hook sees it. */
  const firstStatementOf: Record<string, string | undefined> = {
    'a new name': 'organization_create_with_token',
    'a reserved name': 'token_by_hash',
    'an invalid e-mail': 'token_by_hash',
    'a NUL character': 'token_by_hash',
  };

  /** The body with the name the case gave each form made the same, to compare the two. */
  const sameNames = (body: unknown, name: unknown) =>
    JSON.parse(
      JSON.stringify(body)
        .replaceAll(String(name), '<name>')
        .replace(/"id":\d+/, '"id":0')
        .replace(/avatars\/\d+/, 'avatars/0'),
    );

  it('answers as the usual path does, creating only what it allows, in one statement when it creates', async () => {
    const outcomes: string[] = [];
    for (const [who, token] of tokens) {
      for (const [what, body] of Object.entries(bodies)) {
        const sent = { token: body('t'), basic: body('b') };
        const before = await organizationCount();
        const { asToken, asBasic, tokenStatements } = await bothForms(who, token, (authorization, form) =>
          service.request.post(`${api}/orgs`).set('Authorization', authorization).send(sent[form]),
        );
        const made = [asToken, asBasic].filter((response) => response.status === 201).length;
        expect({ who, what, made: (await organizationCount()) - before }).toEqual({ who, what, made });
        expect({
          who,
          what,
          status: asToken.status,
          body: sameNames(asToken.body, sent.token['username']),
        }).toEqual({
          who,
          what,
          status: asBasic.status,
          body: sameNames(asBasic.body, sent.basic['username']),
        });
        // A creation is the one statement. A new name refused is refused by its guard; an unusable
        // name or e-mail before it, the token then looked up first, as after a NUL character,
        // which fails the statement (the query hook sees only statements that ran). A taken name
        // fails it only for a caller it lets through: its answer above is what is checked.
        const first = firstStatementOf[what];
        const taken =
          asToken.status === 201 ? tokenStatements : first ? tokenStatements.slice(0, 1) : undefined;
        const expected =
          asToken.status === 201 ? ['organization_create_with_token'] : first ? [first] : undefined;
        expect({ who, what, taken }).toEqual({ who, what, taken: expected });
        outcomes.push(`${who} / ${what}: ${asToken.status}`);
      }
    }
    const statuses = new Set(outcomes.map((outcome) => outcome.split(': ')[1]));
    expect([...statuses].sort()).toEqual(['201', '401', '403', '422']);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        'a user / a new name: 201',
        'a user writing organizations / a new name: 201',
        'a site administrator / a new name: 201',
        'a user reading organizations / a new name: 403',
        'a user through a public-only token / a new name: 403',
        'a site administrator through a public-only token / a new name: 403',
        'a user who may not create organizations / a new name: 403',
        'a user / a taken name: 422',
        "a user / a user's name: 422",
        'a user / a reserved name: 422',
        'a user / an invalid e-mail: 422',
        'a user / a NUL character: 422',
        'a user reading organizations / a NUL character: 403',
        'an inactive user / a new name: 401',
        'a revoked token / a new name: 401',
      ]),
    );
  });
});

describe('PATCH /orgs/{org} with the token in its statement', () => {
  /** Each body, for the organization it edits (its visibility kept: a change is organization-settings' test). */
  const bodies: Record<string, (org: string, which: string) => Record<string, unknown>> = {
    'a description': (_org, which) => ({ description: `edited: ${which}` }),
    'its visibility as it is': (_org, which) => ({
      visibility: which === 'missing' || which === "a user's" ? 'public' : which,
      website: 'https://example.com',
    }),
    'an invalid e-mail': () => ({ email: 'not-an-address' }),
    'a NUL character': () => ({ full_name: 'a\u0000b' }),
    'no change': () => ({}),
  };

  it('answers as the usual path does, writing only what it allows, in one statement when it writes', async () => {
    const outcomes: string[] = [];
    for (const [who, token] of tokens) {
      for (const [which, org] of organizations) {
        for (const [what, body] of Object.entries(bodies)) {
          const { asToken, asBasic, tokenStatements } = await bothForms(who, token, (authorization) =>
            service.request
              .patch(`${api}/orgs/${org}`)
              .set('Authorization', authorization)
              .send(body(org, which)),
          );
          expect({ who, which, what, status: asToken.status, body: asToken.body }).toEqual({
            who,
            which,
            what,
            status: asBasic.status,
            body: asBasic.body,
          });
          // A write is the one statement; a change refused is refused by its guard, an invalid
          // e-mail or no change before it, and the token then looked up first, as after a NUL
          // character, which fails the statement (the query hook sees only statements that ran).
          const tried = what === 'a description' || what === 'its visibility as it is';
          const first = tried ? 'organization_edit_with_token' : 'token_by_hash';
          const written = asToken.status === 200 && tried;
          expect({
            who,
            which,
            what,
            taken: written ? tokenStatements : tokenStatements.slice(0, 1),
          }).toEqual({
            who,
            which,
            what,
            taken: [first],
          });
          outcomes.push(`${who} / ${which} / ${what}: ${asToken.status}`);
        }
      }
    }
    const statuses = new Set(outcomes.map((outcome) => outcome.split(': ')[1]));
    expect([...statuses].sort()).toEqual(['200', '401', '403', '404', '422']);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        'an owner / public / a description: 200',
        'an owner / private / its visibility as it is: 200',
        'an owner / public / an invalid e-mail: 422',
        'an owner / public / a NUL character: 422',
        'an owner / public / no change: 200',
        'an owner reading organizations only / public / a description: 403',
        'an owner through a public-only token / public / a description: 403',
        "a private organization's member / private / a description: 403",
        'a user / private / a description: 404',
        'a user / public / a description: 403',
        'a user / public / a NUL character: 403',
        'a site administrator / private / a description: 200',
        'a site administrator through a public-only token / public / a description: 403',
        'an owner / missing / a description: 404',
        'an inactive user / public / a description: 401',
        'a revoked token / public / a description: 401',
      ]),
    );
    // What the owner and the administrator wrote is there, for the usual path to read.
    const read = await service.request
      .get(`${api}/orgs/${organizations.get('private')}`)
      .set('Authorization', basicToken(tokens.get('an owner')!))
      .expect(200);
    expect(read.body).toMatchObject({ description: 'edited: private', website: 'https://example.com' });
  });
});

describe('a token left pending, where no operation looks it up', () => {
  const refused = {
    message: 'invalid username, password or token',
    url: 'http://code-hosting.test/api/swagger',
  };

  it('is refused (401) before a path no operation takes (404), a method it does not allow (405), or a path Express cannot decode', async () => {
    const bad = `token ${tokens.get('no such token')}`;
    await service.request.get(`${api}/no-such-path`).set('Authorization', bad).expect(401, refused);
    await service.request
      .put(`${api}/orgs/${organizations.get('public')}`)
      .set('Authorization', bad)
      .expect(401, refused);
    await service.request.get(`${api}/orgs/%ZZ`).set('Authorization', bad).expect(401, refused);
    // With a usable token, the same requests get their own answers.
    const good = `token ${tokens.get('a user')}`;
    await service.request.get(`${api}/no-such-path`).set('Authorization', good).expect(404);
    await service.request
      .put(`${api}/orgs/${organizations.get('public')}`)
      .set('Authorization', good)
      .expect(405);
    await service.request.get(`${api}/orgs/%ZZ`).set('Authorization', good).expect(422);
  });

  it('is refused (401, or 403 for its scope) before a name the database cannot compare', async () => {
    const nul = `${api}/orgs/a%00b`;
    await service.request
      .get(nul)
      .set('Authorization', `token ${tokens.get('no such token')}`)
      .expect(401, refused);
    await service.request
      .get(nul)
      .set('Authorization', `token ${tokens.get('a user reading users only')}`)
      .expect(403);
    await service.request
      .get(`${api}/users/a%00b/orgs/${organizations.get('public')}/permissions`)
      .set('Authorization', `token ${tokens.get('a revoked token')}`)
      .expect(401, refused);
    // The same names with a usable token: what the usual path answers for them.
    const asUser = await service.request.get(nul).set('Authorization', `token ${tokens.get('a user')}`);
    const asBasic = await service.request.get(nul).set('Authorization', basicToken(tokens.get('a user')!));
    expect({ status: asUser.status, body: asUser.body }).toEqual({
      status: asBasic.status,
      body: asBasic.body,
    });
  });

  it('is no credential when the query gives it empty: the request is anonymous', async () => {
    await service.request.get(`${api}/orgs/${organizations.get('public')}?token=`).expect(200);
    await service.request.get(`${api}/orgs/${organizations.get('limited')}?token=`).expect(404);
  });
});
