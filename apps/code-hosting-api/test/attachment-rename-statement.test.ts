import { useTestApp } from '@repo/testing';
import { createTestApp, testSettings } from './app';
import {
  adminToken,
  api,
  auth,
  createOrg,
  createOrgRepo,
  createToken,
  createUser,
  type Actor,
} from './actors';
import { assetsPath, createIssue, issueFixture, uploaded } from './attachment-fixtures';
import { addToNewTeam } from './organization-fixtures';

// An attachment's rename is first tried as one guarded statement (src/db/attachment-guarded-rename.ts),
// whose guard is the SQL form of the full path's rules (the repository level, the archive, who may
// write an issue). The two must agree: the statement writes exactly when the full path would. Too
// strict costs only speed (the full path answers), too lenient is refused by the domain (a 500),
// so what is checked here is the path taken: for every caller and repository, a rename the rules
// allow is that one statement, and one they refuse is answered by the full path, writing nothing.

let statements: string[] = [];
const service = useTestApp((source) =>
  createTestApp(source, testSettings, {
    onQuery: (sql) => {
      statements.push(/^\/\* prepared: (\w+) \*\//.exec(sql)?.[1] ?? sql);
    },
  }),
);

/**
 * The two forms of a token, each looked up first, then the one guarded statement for the caller.
 */
const forms = [
  {
    form: 'token',
    authorization: (token: string) => `token ${token}`,
    oneStatement: ['token_by_hash', 'attachment_rename_guarded'],
  },
  {
    form: 'basic',
    authorization: (token: string) => `Basic ${Buffer.from(`${token}:`).toString('base64')}`,
    oneStatement: ['token_by_hash', 'attachment_rename_guarded'],
  },
];

interface Target {
  label: string;
  /** …/assets of the issue. */
  assets: string;
  attachmentId: number;
}

let owner: Actor;
const targets: Target[] = [];
const callers = new Map<string, string>();

async function collaborate(org: string, repo: string, user: Actor, permission: string): Promise<void> {
  await service.request
    .put(`${api}/repos/${org}/${repo}/collaborators/${user.username}`)
    .set(...auth(owner.token))
    .send({ permission })
    .expect(204);
}

beforeAll(async () => {
  const open = await issueFixture(service);
  owner = open.owner;
  const closed = await issueFixture(service, { private: true, owner });
  const archived = await issueFixture(service, { owner });
  const poster = await createUser(service, 'poster');
  const teamWriter = await createUser(service, 'team-writer');
  const teamReader = await createUser(service, 'team-reader');
  const writer = await createUser(service, 'collab-writer');
  const reader = await createUser(service, 'collab-reader');
  const stranger = await createUser(service, 'stranger');
  const personalOwner = await createUser(service, 'personal');
  await addToNewTeam(service, owner.token, open.org, teamWriter.username, {
    permission: 'write',
    includes_all_repositories: true,
  });
  await addToNewTeam(service, owner.token, open.org, teamReader.username, {
    permission: 'read',
    includes_all_repositories: true,
  });
  for (const fixture of [open, closed]) {
    await collaborate(fixture.org, fixture.repo, writer, 'write');
    await collaborate(fixture.org, fixture.repo, reader, 'read');
  }
  // An issue a reader posted: its poster may rename its attachments.
  const posted = await createIssue(service, poster.token, open.org, open.repo);
  const postedAssets = assetsPath(open.org, open.repo, posted);
  // A user's own repository, and an issue in it posted by someone else.
  await service.request
    .post(`${api}/user/repos`)
    .set(...auth(personalOwner.token))
    .send({ name: 'own' })
    .expect(201);
  const personalIndex = await createIssue(service, stranger.token, personalOwner.username, 'own');
  const personalAssets = assetsPath(personalOwner.username, 'own', personalIndex);
  // Another organization's repository, for a team writer elsewhere.
  const elsewhere = await createOrgRepo(service, owner.token, closed.org);
  const elsewhereIndex = await createIssue(service, owner.token, closed.org, elsewhere);
  const elsewhereAssets = assetsPath(closed.org, elsewhere, elsewhereIndex);

  // Organizations whose visibility decides who reads their public repositories.
  const limitedOrg = (await createOrg(service, owner, { visibility: 'limited' })).name;
  const limitedRepo = await createOrgRepo(service, owner.token, limitedOrg);
  const limitedAssets = assetsPath(
    limitedOrg,
    limitedRepo,
    await createIssue(service, poster.token, limitedOrg, limitedRepo),
  );
  const hiddenOrg = (await createOrg(service, owner, { visibility: 'private' })).name;
  const hiddenRepo = await createOrgRepo(service, owner.token, hiddenOrg);
  await addToNewTeam(service, owner.token, hiddenOrg, teamReader.username, {
    permission: 'read',
    includes_all_repositories: false,
  });
  const hiddenAssets = assetsPath(
    hiddenOrg,
    hiddenRepo,
    await createIssue(service, teamReader.token, hiddenOrg, hiddenRepo),
  );

  const add = async (label: string, assets: string, token: string) =>
    targets.push({ label, assets, attachmentId: (await uploaded(service, assets, token)).id });
  await add('a public repository', open.assets, owner.token);
  await add('a private repository', closed.assets, owner.token);
  await add("a reader's issue", postedAssets, poster.token);
  await add("a user's own repository", personalAssets, stranger.token);
  await add("another team's repository", elsewhereAssets, owner.token);
  await add("a limited organization's issue by a reader", limitedAssets, poster.token);
  await add("a private organization's issue by a member", hiddenAssets, teamReader.token);
  await add('an archived repository', archived.assets, owner.token);
  await service.request
    .patch(`${api}/repos/${archived.org}/${archived.repo}`)
    .set(...auth(owner.token))
    .send({ archived: true })
    .expect(200);

  callers.set('organization owner', owner.token);
  callers.set('site administrator', await adminToken(service));
  callers.set('team writer', teamWriter.token);
  callers.set('team reader', teamReader.token);
  callers.set('collaborator (write)', writer.token);
  callers.set('collaborator (read)', reader.token);
  callers.set('poster', poster.token);
  callers.set('stranger', stranger.token);
  callers.set('repository owner (user)', personalOwner.token);
  callers.set("owner's public-only token", await createToken(service, owner, ['write:issue', 'public-only']));
  callers.set("team writer's read-only token", await createToken(service, teamWriter, ['read:issue']));
  callers.set(
    "writer's public-only token",
    await createToken(service, writer, ['write:issue', 'public-only']),
  );
});

it('takes the one statement exactly when the rename is allowed, and writes nothing otherwise', async () => {
  const outcomes: string[] = [];
  let renames = 0;
  for (const target of targets) {
    for (const [caller, token] of callers) {
      for (const { form, authorization, oneStatement: guardedOnly } of forms) {
        renames += 1;
        const name = `renamed-${renames}.txt`;
        const path = `${target.assets}/${target.attachmentId}`;
        statements = [];
        const response = await service.request
          .patch(path)
          .set('Authorization', authorization(token))
          .send({ name });
        const taken = statements.filter((statement) => !/"access_tokens"/.test(statement));
        const oneStatement = taken.join() === guardedOnly.join();
        // Allowed: 201, and only by the one statement. Refused: not 201, and more than it (the full path).
        outcomes.push(
          `${target.label} / ${caller} (${form}): ${response.status} ${oneStatement ? 'one statement' : 'full path'}`,
        );
        const after = await service.request
          .get(path)
          .set(...auth(callers.get('site administrator')!))
          .expect(200);
        expect({ target: target.label, caller, form, renamed: after.body.name === name }).toEqual({
          target: target.label,
          caller,
          form,
          renamed: response.status === 201,
        });
      }
    }
  }
  // Both forms get the same answer.
  const byForm = (form: string) =>
    outcomes
      .filter((outcome) => outcome.includes(`(${form})`))
      .map((outcome) => outcome.replace(/ \(\w+\):/, ':'));
  expect(byForm('token')).toEqual(byForm('basic'));
  const mismatched = outcomes.filter(
    (outcome) => outcome.includes(': 201 ') !== outcome.endsWith('one statement'),
  );
  expect(mismatched).toEqual([]);
  // The matrix holds both kinds: allowed and refused renames.
  expect(outcomes.filter((outcome) => outcome.includes(': 201 ')).length).toBeGreaterThan(20);
  expect(outcomes.filter((outcome) => !outcome.includes(': 201 ')).length).toBeGreaterThan(20);
});
