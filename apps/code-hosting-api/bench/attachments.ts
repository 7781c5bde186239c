import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startS3Server, type S3TestServer } from '../test/s3-server';

// pnpm run bench: a 200 MiB attachment uploaded and downloaded back through the API, on the disk
// and the S3 backend (a local s3rver), against `cp` of the same file on the same disk, with the
// server's peak RSS growth during the upload sampled from /proc/<pid>/status.

const FILE_SIZE = Number(process.env.BENCH_FILE_MIB ?? 200) * 1024 * 1024;
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
const appRoot = path.resolve(__dirname, '..');

interface Row {
  backend: string;
  uploadMiBs: number;
  downloadMiBs: number;
  rssGrowthMiB: number;
}

function mib(bytes: number): number {
  return bytes / 1024 / 1024;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) * 1024 : 0;
}

async function request(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, { method, headers, body });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${urlPath}: ${response.status} ${text}`);
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  // BENCH_CPU_PROF=1: the server writes a CPU profile to bench/results/profiles/ when it exits.
  const profile =
    process.env.BENCH_CPU_PROF === '1'
      ? ['--cpu-prof', '--cpu-prof-dir', path.join(appRoot, 'bench', 'results', 'profiles')]
      : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts'], {
    cwd: appRoot,
    env: { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'warn', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return { child, port };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not become ready');
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** Streams the file as the multipart part `attachment`; resolves with the response body. */
function uploadFile(port: number, urlPath: string, token: string, file: string): Promise<{ uuid: string }> {
  const boundary = `bench-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="bench.zip"\r\n` +
      'Content-Type: application/zip\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: 'POST',
        headers: {
          Authorization: `token ${token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + FILE_SIZE + tail.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode !== 201) reject(new Error(`upload: ${res.statusCode} ${text}`));
          else resolve(JSON.parse(text));
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    const source = createReadStream(file);
    source.pipe(req, { end: false });
    source.on('end', () => req.end(tail));
    source.on('error', reject);
  });
}

/** Downloads and counts the bytes (they go nowhere). */
function downloadFile(port: number, urlPath: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: '127.0.0.1', port, path: urlPath, headers: { Authorization: `token ${token}` } },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () =>
            res.statusCode === 200 ? resolve(bytes) : reject(new Error(`download: ${res.statusCode}`)),
          );
        },
      )
      .on('error', reject);
  });
}

async function measure(
  backend: string,
  env: Record<string, string>,
  file: string,
  dataDir: string,
): Promise<Row> {
  const { child, port } = await startServer({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ATTACHMENT_MAX_SIZE: String(FILE_SIZE),
    PASSWORD_HASH_COST: '16',
    ...env,
  });
  try {
    const basicAuth = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
    const json = { 'Content-Type': 'application/json' };
    const token = (
      (
        await request(
          port,
          'POST',
          `/api/v1/users/${ADMIN.username}/tokens`,
          { Authorization: basicAuth, ...json },
          JSON.stringify({ name: `bench-${backend.split(' ')[0]}`, scopes: ['all'] }),
        )
      ).json as { sha1: string }
    ).sha1;
    const auth = { Authorization: `token ${token}`, ...json };
    const repo = `bench-${backend.split(' ')[0]}`;
    await request(port, 'POST', '/api/v1/user/repos', auth, JSON.stringify({ name: repo }));
    const issue = (
      await request(
        port,
        'POST',
        `/api/v1/repos/${ADMIN.username}/${repo}/issues`,
        auth,
        JSON.stringify({ title: 'bench' }),
      )
    ).json as { number: number };

    // Settle, then sample the server's RSS every 10 ms while the upload runs.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baseline = rssBytes(child.pid!);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(child.pid!))), 10);
    const uploadStart = process.hrtime.bigint();
    const attachment = await uploadFile(
      port,
      `/api/v1/repos/${ADMIN.username}/${repo}/issues/${issue.number}/assets`,
      token,
      file,
    );
    const uploadSeconds = Number(process.hrtime.bigint() - uploadStart) / 1e9;
    clearInterval(sampler);

    const downloadStart = process.hrtime.bigint();
    const bytes = await downloadFile(port, `/attachments/${attachment.uuid}`, token);
    const downloadSeconds = Number(process.hrtime.bigint() - downloadStart) / 1e9;
    if (bytes !== FILE_SIZE) throw new Error(`downloaded ${bytes} bytes of ${FILE_SIZE}`);
    return {
      backend,
      uploadMiBs: mib(FILE_SIZE) / uploadSeconds,
      downloadMiBs: mib(FILE_SIZE) / downloadSeconds,
      rssGrowthMiB: mib(peak - baseline),
    };
  } finally {
    await stopServer(child);
  }
}

async function main(): Promise<void> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'attachments-bench-'));
  let s3: S3TestServer | undefined;
  try {
    const file = path.join(work, 'bench.bin');
    const out = createWriteStream(file);
    for (let written = 0; written < FILE_SIZE; written += 1024 * 1024) {
      if (!out.write(randomBytes(Math.min(1024 * 1024, FILE_SIZE - written)))) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');

    // cp of the same file on the same disk, page cache warm as for the uploads.
    const cpStart = process.hrtime.bigint();
    execFileSync('cp', [file, path.join(work, 'bench.copy')]);
    execFileSync('sync');
    const cpMiBs = mib(FILE_SIZE) / (Number(process.hrtime.bigint() - cpStart) / 1e9);
    await fs.rm(path.join(work, 'bench.copy'));

    const rows: Row[] = [];
    rows.push(await measure('disk', { ATTACHMENT_STORAGE: 'disk' }, file, path.join(work, 'disk-data')));
    s3 = await startS3Server('bench-attachments');
    rows.push(
      await measure(
        's3 (s3rver)',
        {
          ATTACHMENT_STORAGE: 's3',
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: s3.bucket,
          S3_REGION: s3.region,
          S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
          S3_FORCE_PATH_STYLE: 'true',
        },
        file,
        path.join(work, 's3-data'),
      ),
    );

    const fixed = (value: number) => value.toFixed(1);
    console.log(
      `\nattachment bench: ${mib(FILE_SIZE)} MiB file, cp on the same disk ${fixed(cpMiBs)} MiB/s\n`,
    );
    console.log('| backend | upload MiB/s | download MiB/s | upload / cp | peak RSS growth (upload) |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const row of rows) {
      console.log(
        `| ${row.backend} | ${fixed(row.uploadMiBs)} | ${fixed(row.downloadMiBs)} | ${(row.uploadMiBs / cpMiBs).toFixed(2)} | ${fixed(row.rssGrowthMiB)} MiB |`,
      );
    }
    const disk = rows[0]!;
    console.log(
      `\ntargets (disk): RSS growth < 32 MiB: ${disk.rssGrowthMiB < 32 ? 'met' : 'MISSED'}; upload ≥ cp / 2: ${disk.uploadMiBs >= cpMiBs / 2 ? 'met' : 'MISSED'}`,
    );
  } finally {
    await s3?.stop();
    await fs.rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
