import http from 'node:http';
import { useCodeHostingApi, type StorageKind } from './app';
import { api, auth, basic, createUser, type Actor } from './actors';
import {
  abandonUpload,
  attachmentRows,
  downloadPath,
  exeBytes,
  issueFixture,
  pngBytes,
  storedKeys,
  upload,
  uploaded,
  type IssueFixture,
} from './attachment-fixtures';

// The flows that touch the bytes, on each storage backend: a folder, and a real S3 server.

const LIMIT = 64 * 1024;

describe.each<StorageKind>(['disk', 's3'])('attachments on %s storage', (kind) => {
  const service = useCodeHostingApi({ attachmentMaxSize: LIMIT }, { storage: kind });

  let issue: IssueFixture;
  beforeAll(async () => {
    issue = await issueFixture(service);
  });

  /** Nothing new in the table or the storage since `before`. */
  async function expectNothingLeft(before: { rows: number; keys: string[] }): Promise<void> {
    expect((await attachmentRows(service)).length).toBe(before.rows);
    expect((await storedKeys(service)).sort()).toEqual(before.keys.sort());
  }
  async function snapshot() {
    return { rows: (await attachmentRows(service)).length, keys: await storedKeys(service) };
  }

  it('stores an upload, lists it on the issue and serves it back byte for byte', async () => {
    const content = Buffer.from('line one\nline two\n');
    const attachment = await uploaded(service, issue.assets, issue.owner.token, content, 'notes.txt');
    expect(attachment).toMatchObject({ name: 'notes.txt', size: content.length, download_count: 0 });
    expect(attachment.browser_download_url).toBe(`http://code-hosting.test/attachments/${attachment.uuid}`);
    expect(await storedKeys(service)).toContain(attachment.uuid);

    const listed = await service.request.get(issue.assets).expect(200);
    expect(listed.body.map((item: { id: number }) => item.id)).toContain(attachment.id);

    const download = await service.request.get(downloadPath(attachment.browser_download_url)).expect(200);
    expect(download.text).toBe(content.toString());
    expect(download.headers['content-length']).toBe(String(content.length));
    expect(download.headers['content-type']).toBe('text/plain');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toBe('attachment; filename="notes.txt"');
  });

  it('names a non-ASCII file with RFC 6266 filename*', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token, 'x', 'résumé €.txt');
    expect(attachment.name).toBe('résumé €.txt');
    const download = await service.request.get(downloadPath(attachment.browser_download_url)).expect(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="résumé ?.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%82%AC.txt`,
    );
  });

  it('accepts a file of exactly ATTACHMENT_MAX_SIZE bytes', async () => {
    const attachment = await uploaded(
      service,
      issue.assets,
      issue.owner.token,
      Buffer.alloc(LIMIT, 'a'),
      'full.txt',
    );
    expect(attachment.size).toBe(LIMIT);
  });

  it('refuses a file one byte over the limit with 413, leaving no row and no object', async () => {
    const before = await snapshot();
    const response = await upload(
      service,
      issue.assets,
      issue.owner.token,
      Buffer.alloc(LIMIT + 1, 'a'),
      'over.txt',
    ).expect(413);
    expect(response.body.message).toBe(`the file is larger than the limit of ${LIMIT} bytes`);
    await expectNothingLeft(before);
  });

  it('answers 413 at the limit and closes the connection without reading the rest of the body', async () => {
    const before = await snapshot();
    const boundary = 'cut-at-the-limit';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="huge.txt"\r\n\r\n`;
    const declared = 64 * 1024 * 1024;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.request(`${service.baseUrl}${issue.assets}`, {
        method: 'POST',
        headers: {
          ...Object.fromEntries([auth(issue.owner.token)]),
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + declared),
        },
      });
      request.on('response', resolve);
      request.on('error', reject);
      request.write(head);
      // Twice the limit, then nothing more: the answer must come before the declared 64 MiB.
      request.write(Buffer.alloc(2 * LIMIT, 'a'));
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers.connection).toBe('close');
    response.resume();
    response.socket.destroy();
    await expectNothingLeft(before);
  });

  it('accepts an empty file', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token, Buffer.alloc(0), 'empty.txt');
    expect(attachment.size).toBe(0);
    const download = await service.request.get(downloadPath(attachment.browser_download_url)).expect(200);
    expect(download.headers['content-length']).toBe('0');
  });

  it('refuses a forbidden type with 422 naming the sniffed type, and stores nothing', async () => {
    const before = await snapshot();
    const response = await upload(service, issue.assets, issue.owner.token, exeBytes, 'tool.exe').expect(422);
    expect(response.body.message).toBe(
      'This file extension or type is not allowed to be uploaded. Type: application/x-msdownload',
    );
    await expectNothingLeft(before);
  });

  it('refuses an allowed type (PNG) uploaded under a forbidden extension', async () => {
    await upload(service, issue.assets, issue.owner.token, pngBytes, 'photo.exe').expect(422);
    await uploaded(service, issue.assets, issue.owner.token, pngBytes, 'photo.png');
  });

  it('leaves neither a file nor a row when the client disconnects mid-upload', async () => {
    const before = await snapshot();
    // Received upload bytes, as /metrics counts them while they stream to the storage.
    const bytesIn = async () => {
      const metrics = await service.request.get('/metrics').expect(200);
      const line = /^code_hosting_api_attachment_bytes_total\{direction="in"\} (\d+)/m.exec(metrics.text);
      return Number(line?.[1] ?? 0);
    };
    const receivedBefore = await bytesIn();
    await abandonUpload(
      service.baseUrl,
      issue.assets,
      issue.owner.token,
      32 * 1024,
      async () => (await bytesIn()) > receivedBefore,
    );
    // The server notices the disconnect asynchronously: give its cleanup a moment.
    for (
      let attempt = 0;
      attempt < 20 && (await storedKeys(service)).length !== before.keys.length;
      attempt++
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    await expectNothingLeft(before);
    const listed = await service.request.get(issue.assets).expect(200);
    expect(listed.body).toHaveLength(before.rows);
  });

  it('serves Range requests with 206 and refuses unsatisfiable ones with 416', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token, '0123456789', 'digits.txt');
    const path = downloadPath(attachment.browser_download_url);
    const first = await service.request.get(path).set('Range', 'bytes=0-3').expect(206);
    expect(first.text).toBe('0123');
    expect(first.headers['content-range']).toBe('bytes 0-3/10');
    expect(first.headers['content-length']).toBe('4');
    const rest = await service.request.get(path).set('Range', 'bytes=4-').expect(206);
    expect(rest.text).toBe('456789');
    expect(rest.headers['content-range']).toBe('bytes 4-9/10');
    const refused = await service.request.get(path).set('Range', 'bytes=10-').expect(416);
    expect(refused.headers['content-range']).toBe('bytes */10');
    expect((await service.request.get(path).expect(200)).text).toBe('0123456789');
    // Counted: the ranged download from byte 0 and the whole one; not the resumed range or the 416.
    const fetched = await service.request.get(`${issue.assets}/${attachment.id}`).expect(200);
    expect(fetched.body.download_count).toBe(2);
  });

  it('deletes the row, then the object', async () => {
    const attachment = await uploaded(service, issue.assets, issue.owner.token);
    await service.request
      .delete(`${issue.assets}/${attachment.id}`)
      .set(...auth(issue.owner.token))
      .expect(204);
    expect(await storedKeys(service)).not.toContain(attachment.uuid);
    await service.request.get(downloadPath(attachment.browser_download_url)).expect(404);
    await service.request.get(`${issue.assets}/${attachment.id}`).expect(404);
  });

  describe('downloads from a private repository', () => {
    let privateIssue: IssueFixture;
    let outsider: Actor;
    let path: string;
    beforeAll(async () => {
      privateIssue = await issueFixture(service, { private: true });
      outsider = await createUser(service, 'outsider');
      path = downloadPath(
        (await uploaded(service, privateIssue.assets, privateIssue.owner.token)).browser_download_url,
      );
    });

    it('answers 404 without credentials and to a user who cannot read the repository', async () => {
      await service.request.get(path).expect(404);
      await service.request
        .get(path)
        .set(...auth(outsider.token))
        .expect(404);
    });

    it('serves a reader with a token header, a token query or Basic auth', async () => {
      const { owner } = privateIssue;
      await service.request
        .get(path)
        .set(...auth(owner.token))
        .expect(200);
      await service.request.get(`${path}?token=${owner.token}`).expect(200);
      await service.request.get(path).set('Authorization', basic(owner.username, owner.password)).expect(200);
    });

    it('answers 401 to wrong credentials', async () => {
      await service.request.get(`${path}?token=${'0'.repeat(40)}`).expect(401);
    });
  });

  it('answers 404 for an unknown uuid and a malformed one', async () => {
    await service.request.get('/attachments/00000000-0000-4000-8000-000000000000').expect(404);
    await service.request.get('/attachments/..%2F..%2Fetc%2Fpasswd').expect(404);
    await service.request.get(`${api}/../attachments/x`).expect(404);
  });
});
