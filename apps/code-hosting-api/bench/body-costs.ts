/**
 * The body-cost bench: what the most expensive ~1 MiB multipart upload found costs the running
 * service, beside the most expensive JSON bodies of the same size, through @repo/testing/bench's
 * benchBodyCosts: CPU ms per request, the time to the answer, and the longest /livez waited while
 * four ran at once. The uploads go to an issue's assets (disk storage under a temporary DATA_DIR);
 * the JSON bodies to the issue create, each without a title, so they are parsed and validated
 * whole, then refused (422) before the database.
 *
 *   pnpm run bench:bodies       (npm run bench:bodies -- code-hosting-api at the root)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchBodyCosts, type BodyCase } from '@repo/testing/bench';

const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
/** Just under the JSON body limit (express's '1mb': 1,048,576 bytes); uploads the same size. */
const BODY_BYTES = 1_048_000;

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A token, a repository and an issue of the admin's: where the bodies go. */
async function target(url: string): Promise<{ token: string; issuePath: string }> {
  const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
  const token = (
    await call(
      `${url}/api/v1/users/${ADMIN.username}/tokens`,
      'POST',
      { authorization: basic },
      {
        name: 'bench-bodies',
        scopes: ['all'],
      },
    )
  ).sha1 as string;
  const auth = { authorization: `token ${token}` };
  await call(`${url}/api/v1/user/repos`, 'POST', auth, { name: 'bodies' });
  const issue = await call(`${url}/api/v1/repos/${ADMIN.username}/bodies/issues`, 'POST', auth, {
    title: 'bodies',
  });
  return { token, issuePath: `/api/v1/repos/${ADMIN.username}/bodies/issues/${String(issue.number)}` };
}

/** `count` copies of `unit` filling what `head` and `tail` leave of the body. */
function fill(head: string, unit: string, tail: string): string {
  return head + unit.repeat(Math.floor((BODY_BYTES - head.length - tail.length) / unit.length)) + tail;
}

function jsonBodies(): [string, string][] {
  const items = (unit: string) => {
    const count = Math.floor((BODY_BYTES - 20) / (unit.length + 1));
    return `{"junk":[${Array.from({ length: count }, () => unit).join(',')}]}`;
  };
  const keys: string[] = [];
  for (let index = 0, length = 2; length < BODY_BYTES - 20; index++) {
    const key = `"${index.toString(36)}":0`;
    keys.push(key);
    length += key.length + 1;
  }
  const depth = BODY_BYTES / 2 - 20;
  return [
    ['nested arrays', `{"junk":${'['.repeat(depth)}${']'.repeat(depth)}}`],
    ['unknown field: [{}, {}, …]', items('{}')],
    ['unknown keys', `{${keys.join(',')}}`],
    ['body of 1 MiB', fill('{"body":"', 'x', '"}')],
  ];
}

/** A multipart body: `parts` as they are, then the closing delimiter. */
function multipart(boundary: string, parts: string[], file?: Buffer): Buffer {
  const fileHead =
    `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="bench.zip"\r\n` +
    'Content-Type: application/zip\r\n\r\n';
  return Buffer.concat([
    Buffer.from(parts.join('')),
    ...(file ? [Buffer.from(fileHead), file, Buffer.from('\r\n')] : []),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
}

function multipartBodies(): [string, string, Buffer][] {
  const room = BODY_BYTES - 400;
  // The longest boundary (70 characters); file bytes that repeat its start force the most comparisons.
  const long = 'b'.repeat(70);
  const field = (name: string, value: string) =>
    `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return [
    ['a 1 MiB file (stored)', 'b', multipart('b', [], randomBytes(room))],
    [
      'a 1 MiB file of bytes like its 70-character boundary (stored)',
      long,
      multipart(long, [], Buffer.from(`\r\n--${long.slice(0, 69)}x`.repeat(Math.floor(room / 74)))),
    ],
    [
      'a preamble of 1 MiB, then a small file',
      'b',
      multipart('b', ['p'.repeat(room) + '\r\n'], Buffer.from('z')),
    ],
    [
      '16 fields of 64 KiB, then a small file',
      'b',
      multipart(
        'b',
        Array.from({ length: 16 }, (_, index) => field(`f${index}`, 'v'.repeat(room / 16 - 80))),
        Buffer.from('z'),
      ),
    ],
    [
      'many tiny fields (past the part limit)',
      'b',
      multipart(
        'b',
        Array.from({ length: Math.floor(room / 50) }, () => field('f', 'v')),
      ),
    ],
    [
      'part headers of 1 MiB',
      'b',
      Buffer.from(
        `--b\r\nContent-Disposition: form-data; name="attachment"; filename="a.zip"\r\n${'X-A: b\r\n'.repeat(room / 8)}\r\nz\r\n--b--\r\n`,
      ),
    ],
  ];
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-bodies-'));
void benchBodyCosts({
  app: 'code-hosting-api',
  appDir: path.resolve(__dirname, '..'),
  environment: {
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    PASSWORD_HASH_COST: '16',
  },
  async cases(server) {
    const { token, issuePath } = await target(server.url);
    const authorization = `token ${token}`;
    const json: BodyCase[] = jsonBodies().map(([name, text]) => ({
      name,
      format: 'json',
      method: 'POST',
      path: `${issuePath.slice(0, issuePath.lastIndexOf('/'))}`,
      headers: { authorization, 'content-type': 'application/json' },
      body: Buffer.from(text),
    }));
    const uploads: BodyCase[] = multipartBodies().map(([name, boundary, body]) => ({
      name,
      format: 'multipart',
      method: 'POST',
      path: `${issuePath}/assets`,
      headers: { authorization, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    }));
    return [...json, ...uploads];
  },
})
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dataDir, { recursive: true, force: true }));
