import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** A real S3 wire-protocol server (s3rver) on a free loopback port, with one bucket. */
export interface S3TestServer {
  endpoint: string;
  bucket: string;
  region: string;
  /** s3rver's built-in account. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

// Runs in its own process, so the RSS a test measures is ours, not the server's.
const SERVER_SCRIPT = `
const S3rver = require(process.argv[1]);
const server = new S3rver({
  address: '127.0.0.1', port: 0, silent: true,
  directory: process.argv[2], configureBuckets: [{ name: process.argv[3] }],
});
server.run().then(
  (address) => process.stdout.write(JSON.stringify({ port: address.port }) + '\\n'),
  (error) => { console.error(error); process.exit(1); },
);
process.on('SIGTERM', () => server.close().finally(() => process.exit(0)));
`;

export async function startS3Server(bucket = 'attachments-test'): Promise<S3TestServer> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const child = spawn(process.execPath, ['-e', SERVER_SCRIPT, require.resolve('s3rver'), directory, bucket], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // Not the test's NODE_OPTIONS (--experimental-vm-modules is for Jest only).
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  try {
    const port = await readPort(child);
    return {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      stop: async () => {
        await stopChild(child);
        await fs.rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopChild(child);
    await fs.rm(directory, { recursive: true, force: true });
    throw error;
  }
}

async function readPort(child: ChildProcess): Promise<number> {
  if (child.stdout === null) throw new Error('s3rver has no stdout');
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`s3rver exited with ${String(code)} before listening`);
  });
  const first = (async () => {
    for await (const line of lines) return (JSON.parse(line) as { port: number }).port;
    throw new Error('s3rver closed its output before listening');
  })();
  try {
    return await Promise.race([first, exited]);
  } finally {
    exited.catch(() => undefined);
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The service's variables for attachments in this server's bucket (ATTACHMENT_STORAGE=s3). */
export function s3Environment(server: S3TestServer): Record<string, string> {
  return {
    ATTACHMENT_STORAGE: 's3',
    S3_ENDPOINT: server.endpoint,
    S3_BUCKET: server.bucket,
    S3_REGION: server.region,
    S3_ACCESS_KEY_ID: server.credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}
