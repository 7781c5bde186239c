import { adminToken, api, auth, createOrgRepo, createUser, uniqueName, type Actor } from '../actors';
import { testRootUrl, useCodeHostingApi } from '../app';
import { addToNewTeam } from '../organization-fixtures';
import {
  deleteStream,
  eventTestSettings,
  expectEvent,
  natsForEventTests,
  watchStream,
  type ExpectedEvent,
} from './event-stream';

// Every organization write publishes exactly one change event (docs/events.md), with the
// organization as the API answered it; a refused write publishes none.

const natsUrl = natsForEventTests('code-hosting-api organization-events.test.ts', it);

if (natsUrl !== undefined) {
  const settings = eventTestSettings(natsUrl, 'ch-organization-events');
  const service = useCodeHostingApi({}, { events: settings });
  const watch = watchStream(natsUrl, settings.stream.name);
  const stream = { settings, source: testRootUrl };

  afterAll(async () => {
    await watch.close();
    await deleteStream(natsUrl, settings.stream.name);
  });

  /** The next event on the stream is this one. */
  async function nextIs(expected: Omit<ExpectedEvent, 'aggregate'>): Promise<void> {
    expectEvent(await watch.next(), { ...expected, aggregate: 'orgs' }, stream);
  }

  const requestIdOf = (response: { headers: Record<string, string> }) => response.headers['x-request-id']!;

  async function getOrg(token: string, name: string): Promise<unknown> {
    return (
      await service.request
        .get(`${api}/orgs/${name}`)
        .set(...auth(token))
        .expect(200)
    ).body;
  }

  let owner: Actor;
  beforeAll(async () => {
    owner = await createUser(service, 'owner');
  });

  test('create, edit, rename and delete each publish one event, numbered per organization', async () => {
    const name = uniqueName('org');
    const created = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: name, full_name: 'Events Org', email: 'org@example.com', visibility: 'limited' })
      .expect(201);
    const id = created.body.id as number;
    const base = { resourceId: id, actor: owner.username };
    await nextIs({
      ...base,
      type: 'organization.created',
      data: created.body,
      requestId: requestIdOf(created),
      sequence: 1,
    });

    const edited = await service.request
      .patch(`${api}/orgs/${name}`)
      .set(...auth(owner.token))
      .send({ description: 'edited', website: 'https://example.com' })
      .expect(200);
    expect(edited.body.description).toBe('edited');
    await nextIs({
      ...base,
      type: 'organization.updated',
      data: edited.body,
      requestId: requestIdOf(edited),
      sequence: 2,
    });

    const newName = uniqueName('renamed');
    const renamed = await service.request
      .post(`${api}/orgs/${name}/rename`)
      .set(...auth(owner.token))
      .send({ new_name: newName })
      .expect(204);
    const afterRename = await getOrg(owner.token, newName);
    expect(afterRename).toMatchObject({ id, name: newName, description: 'edited' });
    await nextIs({
      ...base,
      type: 'organization.renamed',
      data: afterRename,
      requestId: requestIdOf(renamed),
      sequence: 3,
    });

    const beforeDelete = await getOrg(owner.token, newName);
    const deleted = await service.request
      .delete(`${api}/orgs/${newName}`)
      .set(...auth(owner.token))
      .expect(204);
    await nextIs({
      ...base,
      type: 'organization.deleted',
      data: beforeDelete,
      requestId: requestIdOf(deleted),
      sequence: 4,
    });
  });

  test("a caller's own X-Request-Id is the event's requestid", async () => {
    const requestId = `events-test-${uniqueName('request')}`;
    const created = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .set('X-Request-Id', requestId)
      .send({ username: uniqueName('org') })
      .expect(201);
    expect(created.headers['x-request-id']).toBe(requestId);
    await nextIs({
      type: 'organization.created',
      resourceId: created.body.id as number,
      data: created.body,
      actor: owner.username,
      requestId,
      sequence: 1,
    });
  });

  test('under Sudo the actor is the Sudo target, not the site administrator', async () => {
    const admin = await adminToken(service);
    const created = await service.request
      .post(`${api}/orgs`)
      .set(...auth(admin))
      .set('Sudo', owner.username)
      .send({ username: uniqueName('org') })
      .expect(201);
    const id = created.body.id as number;
    await nextIs({
      type: 'organization.created',
      resourceId: id,
      data: created.body,
      actor: owner.username,
      requestId: requestIdOf(created),
      sequence: 1,
    });
    const edited = await service.request
      .patch(`${api}/orgs/${created.body.name}`)
      .query({ sudo: owner.username })
      .set(...auth(admin))
      .send({ location: 'Sudo City' })
      .expect(200);
    await nextIs({
      type: 'organization.updated',
      resourceId: id,
      data: edited.body,
      actor: owner.username,
      requestId: requestIdOf(edited),
      sequence: 2,
    });
  });

  test('refused writes (422, 404, 403, 409) publish nothing: the next event is the next successful write', async () => {
    const name = uniqueName('org');
    const created = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: name })
      .expect(201);
    const id = created.body.id as number;
    await nextIs({
      type: 'organization.created',
      resourceId: id,
      data: created.body,
      actor: owner.username,
      requestId: requestIdOf(created),
      sequence: 1,
    });

    const other = await createUser(service, 'other');
    const member = await createUser(service, 'member');
    await addToNewTeam(service, owner.token, name, member.username, { permission: 'write' });
    const taken = uniqueName('taken');
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(other.token))
      .send({ username: taken })
      .expect(201);
    const takenEvent = await watch.next();
    expect(takenEvent.event['type']).toBe('organization.created');

    // Name taken (422), invalid e-mail (422), no such organization (404), not an owner (403),
    // a name already taken as the new name (422), owning a repository (409).
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: name })
      .expect(422);
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: '' })
      .expect(422);
    await service.request
      .patch(`${api}/orgs/${name}`)
      .set(...auth(owner.token))
      .send({ email: 'not an address' })
      .expect(422);
    await service.request
      .patch(`${api}/orgs/${uniqueName('missing')}`)
      .set(...auth(owner.token))
      .send({ description: 'x' })
      .expect(404);
    await service.request
      .patch(`${api}/orgs/${name}`)
      .set(...auth(member.token))
      .send({ description: 'by a member' })
      .expect(403);
    await service.request
      .post(`${api}/orgs/${name}/rename`)
      .set(...auth(owner.token))
      .send({ new_name: taken })
      .expect(422);
    await service.request
      .delete(`${api}/orgs/${name}`)
      .set(...auth(member.token))
      .expect(403);
    const repo = await createOrgRepo(service, owner.token, name);
    await service.request
      .delete(`${api}/orgs/${name}`)
      .set(...auth(owner.token))
      .expect(409);

    // The organization's next event is number 2, and the next on the stream.
    const edited = await service.request
      .patch(`${api}/orgs/${name}`)
      .set(...auth(owner.token))
      .send({ description: 'after the refusals' })
      .expect(200);
    await nextIs({
      type: 'organization.updated',
      resourceId: id,
      data: edited.body,
      actor: owner.username,
      requestId: requestIdOf(edited),
      sequence: 2,
    });
    // A second write: an event of a refused write recorded before the first would show up by now.
    await service.request
      .delete(`${api}/repos/${name}/${repo}`)
      .set(...auth(owner.token))
      .expect(204);
    const beforeDelete = await getOrg(owner.token, name);
    const deleted = await service.request
      .delete(`${api}/orgs/${name}`)
      .set(...auth(owner.token))
      .expect(204);
    await nextIs({
      type: 'organization.deleted',
      resourceId: id,
      data: beforeDelete,
      actor: owner.username,
      requestId: requestIdOf(deleted),
      sequence: 3,
    });
  });

  test('of concurrent creations of one name, and renames to one name, only the winner publishes', async () => {
    const name = uniqueName('race');
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () =>
        service.request
          .post(`${api}/orgs`)
          .set(...auth(owner.token))
          .send({ username: name }),
      ),
    );
    const winners = attempts.filter((response) => response.status === 201);
    expect(winners).toHaveLength(1);
    expect(attempts.map((response) => response.status).sort()).toEqual([201, 422, 422, 422]);
    const winner = winners[0]!;
    await nextIs({
      type: 'organization.created',
      resourceId: winner.body.id as number,
      data: winner.body,
      actor: owner.username,
      requestId: requestIdOf(winner),
      sequence: 1,
    });

    const first = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: uniqueName('a') });
    const second = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: uniqueName('b') });
    await watch.next();
    await watch.next();
    const target = uniqueName('target');
    const renames = await Promise.all(
      [first.body.name as string, second.body.name as string].map((from) =>
        service.request
          .post(`${api}/orgs/${from}/rename`)
          .set(...auth(owner.token))
          .send({ new_name: target }),
      ),
    );
    expect(renames.map((response) => response.status).sort()).toEqual([204, 422]);
    const renamedId = renames[0]!.status === 204 ? first.body.id : second.body.id;
    const afterRename = await getOrg(owner.token, target);
    await nextIs({
      type: 'organization.renamed',
      resourceId: renamedId as number,
      data: afterRename,
      actor: owner.username,
      requestId: requestIdOf(renames.find((response) => response.status === 204)!),
      sequence: 2,
    });
    // And the next write's event follows it directly.
    const edited = await service.request
      .patch(`${api}/orgs/${target}`)
      .set(...auth(owner.token))
      .send({ full_name: 'Target' })
      .expect(200);
    await nextIs({
      type: 'organization.updated',
      resourceId: renamedId as number,
      data: edited.body,
      actor: owner.username,
      requestId: requestIdOf(edited),
      sequence: 3,
    });
  });
}
