import { adminToken, auth, createUser, type Actor } from '../actors';
import { testRootUrl, useCodeHostingApi } from '../app';
import { exeBytes, issueFixture, upload, type IssueFixture } from '../attachment-fixtures';
import {
  deleteStream,
  eventTestSettings,
  expectEvent,
  natsForEventTests,
  watchStream,
  type ExpectedEvent,
} from './event-stream';

// Every attachment write publishes exactly one change event (docs/events.md), with the
// attachment as the API answered it; a refused write publishes none.

const natsUrl = natsForEventTests('code-hosting-api attachment-events.test.ts', it);

if (natsUrl !== undefined) {
  const settings = eventTestSettings(natsUrl, 'ch-attachment-events');
  const service = useCodeHostingApi({}, { events: settings });
  // Only the attachments' subjects: the fixtures' organizations publish theirs too.
  const watch = watchStream(natsUrl, settings.stream.name, `${settings.stream.subjectPrefix}attachments.>`);
  const stream = { settings, source: testRootUrl };

  afterAll(async () => {
    await watch.close();
    await deleteStream(natsUrl, settings.stream.name);
  });

  async function nextIs(expected: Omit<ExpectedEvent, 'aggregate'>): Promise<void> {
    expectEvent(await watch.next(), { ...expected, aggregate: 'attachments' }, stream);
  }

  const requestIdOf = (response: { headers: Record<string, string> }) => response.headers['x-request-id']!;

  let issue: IssueFixture;
  let owner: Actor;
  /** An attachment's event data for the fixture's issue: its body, with its repository and issue. */
  let placed: (body: unknown) => unknown;
  beforeAll(async () => {
    issue = await issueFixture(service);
    owner = issue.owner;
    placed = await placedIn(issue);
  });

  /**
   * What an attachment event carries besides the attachment as the API answered: its repository
   * (Gitea's RepositoryMeta, as an issue's `repository`) and the issue's index, to look it up by.
   */
  async function placedIn(fixture: IssueFixture): Promise<(body: unknown) => unknown> {
    const repository = await service.request
      .get(`/api/v1/repos/${fixture.org}/${fixture.repo}`)
      .set(...auth(fixture.owner.token))
      .expect(200);
    const place = {
      repository: {
        id: repository.body.id as number,
        name: fixture.repo,
        owner: fixture.org,
        full_name: `${fixture.org}/${fixture.repo}`,
      },
      issue_index: fixture.index,
    };
    return (body) => ({ ...(body as object), ...place });
  }

  async function getAttachment(token: string, id: number): Promise<unknown> {
    return (
      await service.request
        .get(`${issue.assets}/${id}`)
        .set(...auth(token))
        .expect(200)
    ).body;
  }

  test('upload, rename and delete each publish one event, numbered per attachment', async () => {
    const created = await upload(
      service,
      issue.assets,
      owner.token,
      Buffer.from('hello events\n'),
      'notes.txt',
    ).expect(201);
    const id = created.body.id as number;
    const base = { resourceId: id, actor: owner.username };
    await nextIs({
      ...base,
      type: 'attachment.created',
      data: placed(created.body),
      requestId: requestIdOf(created),
      sequence: 1,
    });

    const renamed = await service.request
      .patch(`${issue.assets}/${id}`)
      .set(...auth(owner.token))
      .send({ name: 'renamed.txt' })
      .expect(201);
    expect(renamed.body.name).toBe('renamed.txt');
    await nextIs({
      ...base,
      type: 'attachment.renamed',
      data: placed(renamed.body),
      requestId: requestIdOf(renamed),
      sequence: 2,
    });

    // A download is no event, but the deleted attachment's data shows it counted.
    await service.request.get(new URL(created.body.browser_download_url as string).pathname).expect(200);
    const beforeDelete = await getAttachment(owner.token, id);
    expect(beforeDelete).toMatchObject({ name: 'renamed.txt', download_count: 1 });
    const deleted = await service.request
      .delete(`${issue.assets}/${id}`)
      .set(...auth(owner.token))
      .expect(204);
    await nextIs({
      ...base,
      type: 'attachment.deleted',
      data: placed(beforeDelete),
      requestId: requestIdOf(deleted),
      sequence: 3,
    });
  });

  test("a consumer looks the attachment up by its event's repository and issue index", async () => {
    const created = await upload(
      service,
      issue.assets,
      owner.token,
      Buffer.from('find me\n'),
      'find.txt',
    ).expect(201);
    const received = await watch.next();
    const data = received.event['data'] as {
      id: number;
      repository: { owner: string; name: string };
      issue_index: number;
    };
    const found = await service.request
      .get(
        `/api/v1/repos/${data.repository.owner}/${data.repository.name}/issues/${data.issue_index}/assets/${data.id}`,
      )
      .set(...auth(owner.token))
      .expect(200);
    expect(found.body).toEqual(created.body);
  });

  test('under Sudo the actor is the Sudo target, not the site administrator', async () => {
    const admin = await adminToken(service);
    const created = await upload(service, issue.assets, admin, Buffer.from('by sudo\n'), 'sudo.txt')
      .set('Sudo', owner.username)
      .expect(201);
    await nextIs({
      type: 'attachment.created',
      resourceId: created.body.id as number,
      data: placed(created.body),
      actor: owner.username,
      requestId: requestIdOf(created),
      sequence: 1,
    });
  });

  test('refused writes (422, 404, 403) publish nothing: the next event is the next successful write', async () => {
    const created = await upload(
      service,
      issue.assets,
      owner.token,
      Buffer.from('kept\n'),
      'kept.txt',
    ).expect(201);
    const id = created.body.id as number;
    await nextIs({
      type: 'attachment.created',
      resourceId: id,
      data: placed(created.body),
      actor: owner.username,
      requestId: requestIdOf(created),
      sequence: 1,
    });

    const stranger = await createUser(service, 'stranger');
    // A forbidden type (422), a forbidden new name (422), no such attachment (404), no write
    // permission (403) on rename and delete.
    await upload(service, issue.assets, owner.token, exeBytes, 'a.exe').expect(422);
    await service.request
      .patch(`${issue.assets}/${id}`)
      .set(...auth(owner.token))
      .send({ name: 'x.exe' })
      .expect(422);
    await service.request
      .patch(`${issue.assets}/${id + 1000}`)
      .set(...auth(owner.token))
      .send({ name: 'y.txt' })
      .expect(404);
    await service.request
      .delete(`${issue.assets}/${id + 1000}`)
      .set(...auth(owner.token))
      .expect(404);
    await service.request
      .patch(`${issue.assets}/${id}`)
      .set(...auth(stranger.token))
      .send({ name: 'z.txt' })
      .expect(403);
    await service.request
      .delete(`${issue.assets}/${id}`)
      .set(...auth(stranger.token))
      .expect(403);

    // The attachment's next event is number 2, and the next on the stream.
    const renamed = await service.request
      .patch(`${issue.assets}/${id}`)
      .set(...auth(owner.token))
      .send({ name: 'still-kept.txt' })
      .expect(201);
    await nextIs({
      type: 'attachment.renamed',
      resourceId: id,
      data: placed(renamed.body),
      actor: owner.username,
      requestId: requestIdOf(renamed),
      sequence: 2,
    });
    // A second write: an event of a refused write recorded before the first would show up by now.
    const beforeDelete = await getAttachment(owner.token, id);
    const deleted = await service.request
      .delete(`${issue.assets}/${id}`)
      .set(...auth(owner.token))
      .expect(204);
    await nextIs({
      type: 'attachment.deleted',
      resourceId: id,
      data: placed(beforeDelete),
      actor: owner.username,
      requestId: requestIdOf(deleted),
      sequence: 3,
    });
    // Deleting it again: 404, nothing published (the next upload's event comes next).
    await service.request
      .delete(`${issue.assets}/${id}`)
      .set(...auth(owner.token))
      .expect(404);
    const again = await upload(
      service,
      issue.assets,
      owner.token,
      Buffer.from('again\n'),
      'again.txt',
    ).expect(201);
    await nextIs({
      type: 'attachment.created',
      resourceId: again.body.id as number,
      data: placed(again.body),
      actor: owner.username,
      requestId: requestIdOf(again),
      sequence: 1,
    });
  });

  test('deleting a repository publishes attachment.deleted for each of its attachments', async () => {
    const fixture = await issueFixture(service, { owner });
    const placedInFixture = await placedIn(fixture);
    const first = await upload(service, fixture.assets, owner.token, Buffer.from('one\n'), 'one.txt').expect(
      201,
    );
    const second = await upload(service, fixture.assets, owner.token, Buffer.from('two\n'), 'two.txt').expect(
      201,
    );
    for (const created of [first, second]) {
      await nextIs({
        type: 'attachment.created',
        resourceId: created.body.id as number,
        data: placedInFixture(created.body),
        actor: owner.username,
        requestId: requestIdOf(created),
        sequence: 1,
      });
    }
    const before = new Map<number, unknown>();
    for (const created of [first, second]) {
      const id = created.body.id as number;
      const shown = await service.request
        .get(`${fixture.assets}/${id}`)
        .set(...auth(owner.token))
        .expect(200);
      before.set(id, placedInFixture(shown.body));
    }
    const deleted = await service.request
      .delete(`/api/v1/repos/${fixture.org}/${fixture.repo}`)
      .set(...auth(owner.token))
      .expect(204);
    const events = [await watch.next(), await watch.next()];
    const ids = events.map((received) => Number(received.event['subject'])).sort((a, b) => a - b);
    expect(ids).toEqual([...before.keys()].sort((a, b) => a - b));
    for (const received of events) {
      const id = Number(received.event['subject']);
      expectEvent(
        received,
        {
          aggregate: 'attachments',
          type: 'attachment.deleted',
          resourceId: id,
          data: before.get(id),
          actor: owner.username,
          requestId: requestIdOf(deleted),
          sequence: 2,
        },
        stream,
      );
    }
  });
}
