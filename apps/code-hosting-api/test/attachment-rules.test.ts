import { querySource, useTestApp } from '@repo/testing';
import { createTestApp, useCodeHostingApi } from './app';
import { api, auth, createUser, type Actor } from './actors';
import {
  attachmentRows,
  createIssue,
  exeBytes,
  issueFixture,
  storedKeys,
  upload,
  uploaded,
  type IssueFixture,
} from './attachment-fixtures';
import { DiskStorage } from '../src/storage/disk-storage';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The contract's attachment table (every status of each operation) and its numbered rules
// (docs/contracts/code-hosting-api.md).

const LIMIT = 1024;
const service = useCodeHostingApi({ attachmentMaxSize: LIMIT });

let issue: IssueFixture;
let other: IssueFixture;
let outsider: Actor;
beforeAll(async () => {
  issue = await issueFixture(service);
  other = await issueFixture(service);
  outsider = await createUser(service, 'outsider');
});

async function archive(fixture: IssueFixture, archived: boolean): Promise<void> {
  await service.request
    .patch(`${api}/repos/${fixture.org}/${fixture.repo}`)
    .set(...auth(fixture.owner.token))
    .send({ archived })
    .expect(200);
}

/** An issue with one attachment in a repository then archived. */
async function archivedWithAttachment() {
  const archived = await issueFixture(service);
  const attachment = await uploaded(service, archived.assets, archived.owner.token);
  await archive(archived, true);
  return { archived, attachment };
}

describe('the contract’s statuses, operation by operation', () => {
  it('issueListIssueAttachments: 200, 404', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token);
    const listed = await service.request.get(issue.assets).expect(200);
    expect(listed.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: attachment.id })]));
    await service.request.get(`${api}/repos/${issue.org}/${issue.repo}/issues/999/assets`).expect(404);
  });

  it('issueGetIssueAttachment: 200, 404', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token);
    const fetched = await service.request.get(`${issue.assets}/${attachment.id}`).expect(200);
    expect(fetched.body).toEqual(attachment);
    await service.request.get(`${issue.assets}/999999`).expect(404);
  });

  it('issueCreateIssueAttachment: 201, 400, 401, 403, 404, 413, 422, 423', async () => {
    await uploaded(service, issue.assets, issue.owner.token);
    const missing = await service.request
      .post(issue.assets)
      .set(...auth(issue.owner.token))
      .field('other', 'x')
      .expect(400);
    expect(missing.body.message).toMatch(/attachment/);
    await upload(service, issue.assets, undefined, Buffer.from('x'), 'a.txt').expect(401);
    await upload(service, issue.assets, outsider.token, Buffer.from('x'), 'a.txt').expect(403);
    await upload(
      service,
      `${api}/repos/${issue.org}/${issue.repo}/issues/999/assets`,
      issue.owner.token,
      Buffer.from('x'),
      'a.txt',
    ).expect(404);
    await upload(service, issue.assets, issue.owner.token, Buffer.alloc(LIMIT + 1), 'a.txt').expect(413);
    await upload(service, issue.assets, issue.owner.token, exeBytes, 'a.exe').expect(422);
    const archived = await issueFixture(service);
    await archive(archived, true);
    await upload(service, archived.assets, archived.owner.token, Buffer.from('x'), 'a.txt').expect(423);
  });

  it('issueEditIssueAttachment: 201, 401, 403, 404, 422, 423', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token);
    const at = `${issue.assets}/${attachment.id}`;
    const edited = await service.request
      .patch(at)
      .set(...auth(issue.owner.token))
      .send({ name: 'renamed.md' })
      .expect(201);
    expect(edited.body).toMatchObject({ id: attachment.id, name: 'renamed.md' });
    await service.request.patch(at).send({ name: 'x.txt' }).expect(401);
    await service.request
      .patch(at)
      .set(...auth(outsider.token))
      .send({ name: 'x.txt' })
      .expect(403);
    await service.request
      .patch(`${issue.assets}/999999`)
      .set(...auth(issue.owner.token))
      .send({ name: 'x.txt' })
      .expect(404);
    await service.request
      .patch(at)
      .set(...auth(issue.owner.token))
      .send({ name: 'x.exe' })
      .expect(422);
    const { archived, attachment: inArchive } = await archivedWithAttachment();
    await service.request
      .patch(`${archived.assets}/${inArchive.id}`)
      .set(...auth(archived.owner.token))
      .send({ name: 'x.txt' })
      .expect(423);
  });

  it('issueDeleteIssueAttachment: 204, 401, 403, 404, 423', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token);
    const neighbour = await uploaded(service, issue.assets, issue.owner.token);
    const at = `${issue.assets}/${attachment.id}`;
    await service.request.delete(at).expect(401);
    await service.request
      .delete(at)
      .set(...auth(outsider.token))
      .expect(403);
    await service.request
      .delete(at)
      .set(...auth(issue.owner.token))
      .expect(204);
    await service.request
      .delete(at)
      .set(...auth(issue.owner.token))
      .expect(404);
    await service.request.get(`${issue.assets}/${neighbour.id}`).expect(200);
    const { archived, attachment: inArchive } = await archivedWithAttachment();
    await service.request
      .delete(`${archived.assets}/${inArchive.id}`)
      .set(...auth(archived.owner.token))
      .expect(423);
  });
});

describe('the contract’s attachment rules', () => {
  it('rule 1: create, edit and delete need the poster, an admin or a writer, else 403 naming the write permission', async () => {
    const response = await upload(service, issue.assets, outsider.token, Buffer.from('x'), 'a.txt').expect(
      403,
    );
    expect(response.body.message).toBe('write permission on the issue is required');
  });

  it('rule 2: the name is the file’s, or the non-empty `name` query; the issue lists it and its updated_at moves', async () => {
    const index = await createIssue(service, issue.owner.token, issue.org, issue.repo);
    const assets = `${api}/repos/${issue.org}/${issue.repo}/issues/${index}/assets`;
    const before = (
      await service.request.get(`${api}/repos/${issue.org}/${issue.repo}/issues/${index}`).expect(200)
    ).body;
    await new Promise((resolve) => setTimeout(resolve, 1100)); // updated_at has second precision on the wire
    const own = await uploaded(service, assets, issue.owner.token, 'a', 'own-name.txt');
    expect(own.name).toBe('own-name.txt');
    const renamed = await upload(service, assets, issue.owner.token, Buffer.from('b'), 'file.txt', {
      name: 'shown.md',
    }).expect(201);
    expect(renamed.body.name).toBe('shown.md');
    const empty = await upload(service, assets, issue.owner.token, Buffer.from('c'), 'kept.txt', {
      name: '',
    }).expect(201);
    expect(empty.body.name).toBe('kept.txt');
    const after = (
      await service.request.get(`${api}/repos/${issue.org}/${issue.repo}/issues/${index}`).expect(200)
    ).body;
    expect(after.assets.map((asset: { id: number }) => asset.id)).toEqual([
      own.id,
      renamed.body.id,
      empty.body.id,
    ]);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    const [row] = await querySource<{ uploader_id: string; repo_id: string }>(
      service.database,
      'SELECT uploader_id::text, repo_id::text FROM attachments WHERE id = $1',
      [own.id],
    );
    expect(Number(row!.uploader_id)).toBe(issue.owner.id);
  });

  it('rule 2: a `name` without an extension is accepted', async () => {
    const response = await upload(service, issue.assets, issue.owner.token, Buffer.from('x'), 'notes.txt', {
      name: 'README',
    }).expect(201);
    expect(response.body.name).toBe('README');
  });

  it('rule 3: a forbidden type gives 422, a file over the size limit 413', async () => {
    await upload(service, issue.assets, issue.owner.token, Buffer.alloc(LIMIT + 1), 'big.txt').expect(413);
    await upload(service, issue.assets, issue.owner.token, exeBytes, 'evil.exe', { name: 'x.txt' }).expect(
      422,
    );
    const renamed = await upload(service, issue.assets, issue.owner.token, Buffer.from('text'), 'notes.txt', {
      name: 'notes.exe',
    }).expect(422);
    expect(renamed.body.message).toBe(
      'This file extension or type is not allowed to be uploaded. Type: .exe',
    );
  });

  it('rule 3: a forbidden type under an allowed extension passes by its extension, as Gitea’s rule says', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token, exeBytes, 'evil.txt');
    const download = await service.request.get(new URL(attachment.browser_download_url).pathname).expect(200);
    // Served for what it is, never sniffed again by a browser, and saved rather than shown.
    expect(download.headers['content-type']).toBe('application/x-msdownload');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('rule 4: edit replaces the name when it is non-empty, refuses a forbidden new type with 422, answers 201', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token, exeBytes, 'evil.txt');
    const at = `${issue.assets}/${attachment.id}`;
    const unchanged = await service.request
      .patch(at)
      .set(...auth(issue.owner.token))
      .send({ name: '' })
      .expect(201);
    expect(unchanged.body.name).toBe('evil.txt');
    const refused = await service.request
      .patch(at)
      .set(...auth(issue.owner.token))
      .send({ name: 'evil.exe' })
      .expect(422);
    expect(refused.body.message).toMatch(/Type: \.exe$/);
    const renamed = await service.request
      .patch(at)
      .set(...auth(issue.owner.token))
      .send({ name: 'LICENSE' })
      .expect(201);
    expect(renamed.body.name).toBe('LICENSE');
  });

  it('rule 5: an attachment of another repository, of no issue, or of another issue is 404 for get, edit and delete', async () => {
    const foreign = await uploaded(service, other.assets, other.owner.token);
    const index = await createIssue(service, issue.owner.token, issue.org, issue.repo);
    const sibling = await uploaded(
      service,
      `${api}/repos/${issue.org}/${issue.repo}/issues/${index}/assets`,
      issue.owner.token,
    );
    const orphan = await uploaded(service, issue.assets, issue.owner.token);
    await querySource(service.database, 'UPDATE attachments SET issue_id = NULL WHERE id = $1', [orphan.id]);
    for (const id of [foreign.id, sibling.id, orphan.id]) {
      const at = `${issue.assets}/${id}`;
      await service.request.get(at).expect(404);
      await service.request
        .patch(at)
        .set(...auth(issue.owner.token))
        .send({ name: 'x.txt' })
        .expect(404);
      await service.request
        .delete(at)
        .set(...auth(issue.owner.token))
        .expect(404);
    }
    expect((await attachmentRows(service)).map((row) => row.uuid)).toEqual(
      expect.arrayContaining([foreign.uuid, sibling.uuid, orphan.uuid]),
    );
  });

  it('rule 6: an issue that does not exist in the repository is 404 on all five operations', async () => {
    const missing = `${api}/repos/${issue.org}/${issue.repo}/issues/424242/assets`;
    await service.request.get(missing).expect(404);
    await service.request.get(`${missing}/1`).expect(404);
    await upload(service, missing, issue.owner.token, Buffer.from('x'), 'a.txt').expect(404);
    await service.request
      .patch(`${missing}/1`)
      .set(...auth(issue.owner.token))
      .send({ name: 'x.txt' })
      .expect(404);
    await service.request
      .delete(`${missing}/1`)
      .set(...auth(issue.owner.token))
      .expect(404);
  });

  it('rule 7: an archived repository is 423 on create, edit and delete, and still readable', async () => {
    const { archived, attachment } = await archivedWithAttachment();
    const token = archived.owner.token;
    await upload(service, archived.assets, token, Buffer.from('x'), 'a.txt').expect(423);
    await service.request
      .patch(`${archived.assets}/${attachment.id}`)
      .set(...auth(token))
      .send({ name: 'b.txt' })
      .expect(423);
    await service.request
      .delete(`${archived.assets}/${attachment.id}`)
      .set(...auth(token))
      .expect(423);
    await service.request.get(`${archived.assets}/${attachment.id}`).expect(200);
  });

  it('a private repository is 404 on all five operations to a caller who cannot read it', async () => {
    const hidden = await issueFixture(service, { private: true });
    const attachment = await uploaded(service, hidden.assets, hidden.owner.token);
    const at = `${hidden.assets}/${attachment.id}`;
    for (const token of [undefined, outsider.token]) {
      const as = <T extends { set(name: string, value: string): T }>(request: T): T =>
        token === undefined ? request : request.set(...auth(token));
      await as(service.request.get(hidden.assets)).expect(404);
      await as(service.request.get(at)).expect(404);
      await upload(service, hidden.assets, token, Buffer.from('x'), 'a.txt').expect(404);
      await as(service.request.patch(at)).send({ name: 'x.txt' }).expect(404);
      await as(service.request.delete(at)).expect(404);
    }
  });
});

describe('rule 8: unexpected failures give 500', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'failing-attachments-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  /** A disk storage whose commit fails: the row must roll back and the object go. */
  class FailingCommitStorage extends DiskStorage {
    override async commit(): Promise<void> {
      throw new Error('the storage is unavailable');
    }
  }
  const storage = new FailingCommitStorage(folder);
  const failing = useTestApp((source) => createTestApp(source, { storage }));

  it('answers 500 when the object cannot be committed, leaving no row and no object', async () => {
    const fixture = await issueFixture(failing);
    const response = await upload(
      failing,
      fixture.assets,
      fixture.owner.token,
      Buffer.from('x'),
      'a.txt',
    ).expect(500);
    expect(response.body.message).toBe('internal server error');
    expect(await attachmentRows(failing)).toEqual([]);
    const keys: string[] = [];
    for await (const object of storage.list()) keys.push(object.key);
    expect(keys).toEqual([]);
  });
});

describe('after all of the above', () => {
  it('keeps nothing in storage that has no row, and no row without its object', async () => {
    const rows = (await attachmentRows(service)).map((row) => row.uuid).sort();
    expect((await storedKeys(service)).sort()).toEqual(rows);
  });
});
