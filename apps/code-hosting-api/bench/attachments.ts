import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@repo/testing/bench';
import { startS3Server, type S3TestServer, s3Environment } from '../test/s3-server';

// pnpm run bench: a 200 MiB attachment uploaded and downloaded back through the API, on the disk
// and the S3 backend (a local s3rver), against `cp` of the same file on the same disk, with the
// server's peak RSS growth during the upload sampled from /proc/<pid>/status.

const FILE_SIZE = Number(process.env.BENCH_FILE_MIB ?? 200) * 1024 * 1024;
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
const appRoot = path.resolve(__dirname, '..');

interface Row {
  backend: string;
  /** cp of the same file on the same disk, interleaved with the timed uploads (median). */
  cpMiBs: number;
  uploadMiBs: number;
  downloadMiBs: number;
  rssGrowthMiB: number;
}

const TIMED_UPLOADS = Number(process.env.BENCH_ROUNDS ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function mib(bytes: number): number {
  return bytes / 1024 / 1024;
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

/**
 * The client is on the same two cores as the server, so a slow one halves what the bench sees:
 * node's http client, reading the file in 64 KiB or 1 MiB chunks, sends at most 300-400 MiB/s
 * while the server writes, curl 750-860 MiB/s. curl is used when it is installed.
 */
const curl = spawnSync('curl', ['--version']).status === 0;

function runCurl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', ...args], { maxBuffer: 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

async function uploadFile(
  port: number,
  urlPath: string,
  token: string,
  file: string,
): Promise<{ uuid: string }> {
  if (!curl) return uploadFileWithNode(port, urlPath, token, file);
  const output = await runCurl([
    '-H',
    `Authorization: token ${token}`,
    '-F',
    `attachment=@${file};filename=bench.zip;type=application/zip`,
    '-w',
    '\n%{http_code}',
    `http://127.0.0.1:${port}${urlPath}`,
  ]);
  const status = output.slice(output.lastIndexOf('\n') + 1);
  const body = output.slice(0, output.lastIndexOf('\n'));
  if (status !== '201') throw new Error(`upload: ${status} ${body}`);
  return JSON.parse(body) as { uuid: string };
}

async function downloadFile(port: number, urlPath: string, token: string): Promise<number> {
  if (!curl) return downloadFileWithNode(port, urlPath, token);
  const [status, size] = (
    await runCurl([
      '-o',
      '/dev/null',
      '-H',
      `Authorization: token ${token}`,
      '-w',
      '%{http_code} %{size_download}',
      `http://127.0.0.1:${port}${urlPath}`,
    ])
  ).split(' ');
  if (status !== '200') throw new Error(`download: ${status}`);
  return Number(size);
}

/** Streams the file as the multipart part `attachment`; resolves with the response body. */
function uploadFileWithNode(
  port: number,
  urlPath: string,
  token: string,
  file: string,
): Promise<{ uuid: string }> {
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
    // 1 MiB reads: with the default 64 KiB the client, not the server, is what the bench measures.
    const source = createReadStream(file, { highWaterMark: 1024 * 1024 });
    source.pipe(req, { end: false });
    source.on('end', () => req.end(tail));
    source.on('error', reject);
  });
}

/** Downloads and counts the bytes (they go nowhere). */
function downloadFileWithNode(port: number, urlPath: string, token: string): Promise<number> {
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

/**
 * `cp` of the file to a new file beside the data, then `sync`; returns MiB/s. This disk's speed
 * changes a lot from minute to minute (a virtual disk: 300 to 1,600 MiB/s for the same cp, new
 * files slower than space freed a moment ago), so cp runs right before each timed upload and
 * keeps its copy as the upload keeps its file: both meet the disk in the same state.
 */
function copyOnce(file: string, folder: string, round: number): number {
  const start = process.hrtime.bigint();
  execFileSync('cp', [file, path.join(folder, `cp-${round}.bin`)]);
  execFileSync('sync');
  return mib(FILE_SIZE) / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function measure(
  backend: string,
  env: Record<string, string>,
  file: string,
  dataDir: string,
): Promise<Row> {
  await fs.mkdir(dataDir, { recursive: true });
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

    const assets = `/api/v1/repos/${ADMIN.username}/${repo}/issues/${issue.number}/assets`;
    // A long-running server has its code compiled: one untimed upload first, then the median of
    // TIMED_UPLOADS timed ones.
    // The RSS is sampled every 10 ms from before the first upload, after a moment to settle.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baseline = rssBytes(child.pid!);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(child.pid!))), 10);
    await uploadFile(port, assets, token, file);
    const uploadTimes: number[] = [];
    const cpSpeeds: number[] = [];
    let attachment: { uuid: string } | undefined;
    for (let round = 0; round < TIMED_UPLOADS; round++) {
      cpSpeeds.push(copyOnce(file, dataDir, round));
      const uploadStart = process.hrtime.bigint();
      attachment = await uploadFile(port, assets, token, file);
      uploadTimes.push(Number(process.hrtime.bigint() - uploadStart) / 1e9);
    }
    clearInterval(sampler);
    const uploadSeconds = median(uploadTimes);

    const downloadTimes: number[] = [];
    for (let round = 0; round < TIMED_UPLOADS; round++) {
      const downloadStart = process.hrtime.bigint();
      const bytes = await downloadFile(port, `/attachments/${attachment!.uuid}`, token);
      downloadTimes.push(Number(process.hrtime.bigint() - downloadStart) / 1e9);
      if (bytes !== FILE_SIZE) throw new Error(`downloaded ${bytes} bytes of ${FILE_SIZE}`);
    }
    const downloadSeconds = median(downloadTimes);
    return {
      backend,
      cpMiBs: median(cpSpeeds),
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

    const rows: Row[] = [];
    rows.push(await measure('disk', { ATTACHMENT_STORAGE: 'disk' }, file, path.join(work, 'disk-data')));
    s3 = await startS3Server('bench-attachments');
    rows.push(await measure('s3 (s3rver)', s3Environment(s3), file, path.join(work, 's3-data')));

    const fixed = (value: number) => value.toFixed(1);
    console.log(
      `\nattachment bench: ${mib(FILE_SIZE)} MiB file, client ${curl ? 'curl' : 'node:http'}, medians of ${TIMED_UPLOADS} rounds after one untimed upload\n`,
    );
    console.log(
      '| backend | upload MiB/s | cp MiB/s (same disk, same rounds) | upload / cp | download MiB/s | peak RSS growth (uploads) |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const row of rows) {
      console.log(
        `| ${row.backend} | ${fixed(row.uploadMiBs)} | ${fixed(row.cpMiBs)} | ${(row.uploadMiBs / row.cpMiBs).toFixed(2)} | ${fixed(row.downloadMiBs)} | ${fixed(row.rssGrowthMiB)} MiB |`,
      );
    }
    const disk = rows[0]!;
    console.log(
      `\ntargets (disk): RSS growth < 32 MiB: ${disk.rssGrowthMiB < 32 ? 'met' : 'MISSED'}; upload ≥ cp / 2: ${disk.uploadMiBs >= disk.cpMiBs / 2 ? 'met' : 'MISSED'}`,
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
