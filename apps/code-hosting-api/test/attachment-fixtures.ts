import http from 'node:http';
import type { TestApp } from '@repo/testing';
import { querySource } from '@repo/testing';
import type { CodeHostingTestApp } from './app';
import { api, auth, createOrg, createOrgRepo, createUser, type Actor } from './actors';

// Arranging repositories, issues and attachments for the attachment tests, through the API.

/** The first bytes of a Windows executable: sniffed as application/x-msdownload. */
export const exeBytes = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510, 0x90)]);
/** A minimal PNG signature and IHDR: sniffed as image/png. */
export const pngBytes = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001',
  'hex',
);

export interface IssueFixture {
  owner: Actor;
  org: string;
  repo: string;
  index: number;
  /** `/repos/{org}/{repo}/issues/{index}/assets` under /api/v1. */
  assets: string;
}

export async function createIssue(
  service: TestApp,
  token: string,
  org: string,
  repo: string,
  title = 'an issue',
): Promise<number> {
  const response = await service.request
    .post(`${api}/repos/${org}/${repo}/issues`)
    .set(...auth(token))
    .send({ title })
    .expect(201);
  return response.body.number as number;
}

export function assetsPath(org: string, repo: string, index: number): string {
  return `${api}/repos/${org}/${repo}/issues/${index}/assets`;
}

/** An organization owned by a fresh user, a repository in it and an issue by its owner. */
export async function issueFixture(
  service: TestApp,
  options: { private?: boolean; owner?: Actor } = {},
): Promise<IssueFixture> {
  const owner = options.owner ?? (await createUser(service, 'owner'));
  const org = (await createOrg(service, owner)).name;
  const repo = await createOrgRepo(service, owner.token, org, { private: options.private ?? false });
  const index = await createIssue(service, owner.token, org, repo);
  return { owner, org, repo, index, assets: assetsPath(org, repo, index) };
}

/** POST …/assets with one `attachment` part (supertest: the test decides what to expect). */
export function upload(
  service: TestApp,
  path: string,
  token: string | undefined,
  content: Buffer,
  filename: string,
  query: Record<string, string> = {},
) {
  const request = service.request.post(path).query(query);
  if (token !== undefined) request.set(...auth(token));
  return request.attach('attachment', content, { filename, contentType: 'application/octet-stream' });
}

/** Uploads and expects 201; the Attachment body. */
export async function uploaded(
  service: TestApp,
  path: string,
  token: string,
  content: Buffer | string = 'hello attachments\n',
  filename = 'notes.txt',
): Promise<{ id: number; uuid: string; name: string; size: number; browser_download_url: string }> {
  const response = await upload(
    service,
    path,
    token,
    typeof content === 'string' ? Buffer.from(content) : content,
    filename,
  ).expect(201);
  return response.body;
}

/** Everything the storage holds, temporary and committed. */
export async function storedKeys(service: CodeHostingTestApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of service.storage.list()) keys.push(object.key);
  return keys;
}

/** The attachment rows of an issue, straight from the database (what no response may hide). */
export async function attachmentRows(service: TestApp): Promise<{ uuid: string; name: string }[]> {
  return querySource(service.database, 'SELECT uuid, name FROM attachments ORDER BY id');
}

/** The path (with query) of a download URL, for supertest against the test server. */
export function downloadPath(browserDownloadUrl: string): string {
  const url = new URL(browserDownloadUrl);
  return url.pathname + url.search;
}

/**
 * Sends the head of a multipart upload and `bytes` bytes of the file, waits until the server
 * is storing them (`storing`, polled for at most 5 s), then destroys the socket without
 * finishing: a client that goes away mid-upload.
 */
export async function abandonUpload(
  baseUrl: string,
  path: string,
  token: string,
  bytes: number,
  storing: () => Promise<boolean>,
): Promise<void> {
  const boundary = 'abandoned-upload-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="big.txt"\r\n` +
      'Content-Type: text/plain\r\n\r\n',
  );
  const request = http.request(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `token ${token}`,
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': String(head.length + bytes + 1024 * 1024),
    },
  });
  request.on('error', () => undefined);
  request.write(head);
  request.write(Buffer.alloc(bytes, 'a'));
  // The client vanishes only once the server has started storing what was sent.
  const deadline = Date.now() + 5_000;
  while (!(await storing())) {
    if (Date.now() > deadline) throw new Error('the server never started storing the upload');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  request.destroy();
}
