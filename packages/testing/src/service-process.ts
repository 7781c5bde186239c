import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const built = new Map<string, Promise<void>>();

/**
 * What dist/ was compiled from: every file under src/ and the tsconfig files, with their sizes and
 * modification times (a change, addition or removal changes it).
 */
async function sourceStamp(appDir: string): Promise<string> {
  const entries: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        const info = await stat(full);
        entries.push(`${path.relative(appDir, full)} ${info.size} ${info.mtimeMs}`);
      }
    }
  };
  await walk(path.join(appDir, 'src'));
  for (const name of ['tsconfig.json', 'tsconfig.build.json', '../../tsconfig.base.json']) {
    const info = await stat(path.join(appDir, name)).catch(() => undefined);
    if (info) entries.push(`${name} ${info.size} ${info.mtimeMs}`);
  }
  return createHash('sha256').update(entries.sort().join('\n')).digest('hex');
}

/**
 * Compiles an app to dist/ (once per test process, and not at all when dist/ was compiled from the
 * sources as they are: each test file of a run would otherwise compile it again), so a test runs
 * the service as deployed.
 */
export function compileApp(appDir: string): Promise<void> {
  let build = built.get(appDir);
  if (!build) {
    build = (async () => {
      const stampFile = path.join(appDir, 'dist', '.source-stamp');
      const stamp = await sourceStamp(appDir);
      const compiled = await readFile(stampFile, 'utf8').catch(() => '');
      const main = await stat(path.join(appDir, 'dist', 'main.js')).catch(() => undefined);
      if (compiled === stamp && main) return;
      const tsc = path.join(appDir, 'node_modules/.bin/tsc');
      // Type errors still emit; only a missing output is fatal, and spawning will say so.
      const emitted = await promisify(execFile)(tsc, ['-p', 'tsconfig.build.json'], { cwd: appDir }).then(
        () => true,
        () => false,
      );
      // With type errors, compile again next time (they may be what is being fixed).
      if (emitted) await writeFile(stampFile, stamp).catch(() => undefined);
    })();
    built.set(appDir, build);
  }
  return build;
}

/**
 * How long a test hook that builds and starts service processes may take: a guard against a hang,
 * not a speed check (a loaded CI machine took over 60 s to build and start one).
 */
export const PROCESS_START_MS = 180_000;

export interface ServiceProcess {
  readonly baseUrl: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Every stdout line so far (JSON log lines and anything printed). */
  readonly output: string[];
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

/** A service process spawned and not yet known to listen (a test may kill it while it starts). */
export interface StartingServiceProcess {
  readonly child: ChildProcess;
  /** Every stdout line so far (JSON log lines and anything printed); stderr chunks as they come. */
  readonly output: string[];
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  /**
   * Resolves once it prints "listening on http://localhost:<port>"; rejects when it exits first,
   * or when `timeoutMs` passes (the process is then killed: nothing outlives a failed start).
   */
  listening(timeoutMs: number): Promise<ServiceProcess>;
}

/** Spawns `node dist/main.js` of an app (compiled first) with `env`, on a free port unless `env` has PORT. */
export async function spawnServiceProcess(
  appDir: string,
  env: Record<string, string>,
): Promise<StartingServiceProcess> {
  await compileApp(appDir);
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: appDir,
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  // 'close': the process has exited and its output is all read.
  const exited = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const port = new Promise<number>((resolve, reject) => {
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        const match = /listening on http:\/\/localhost:(\d+)/.exec(line);
        if (match) resolve(Number(match[1]));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    void exited.then((code) =>
      reject(new Error(`service exited (${code}) before listening:\n${output.join('\n')}`)),
    );
  });
  port.catch(() => undefined);
  const kill = (signal: NodeJS.Signals = 'SIGTERM') => void child.kill(signal);
  return {
    child,
    output,
    exited,
    async listening(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          kill('SIGKILL');
          reject(new Error(`no listening line within ${timeoutMs} ms:\n${output.join('\n')}`));
        }, timeoutMs);
      });
      try {
        const listeningPort = await Promise.race([port, timedOut]);
        return {
          baseUrl: `http://127.0.0.1:${listeningPort}`,
          port: listeningPort,
          child,
          output,
          exited,
          kill,
        };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Starts `node dist/main.js` of an app with `env` on a free port and waits for its
 * "listening on http://localhost:<port>" log line (at most `startTimeoutMs`, then it is killed).
 */
export async function startServiceProcess(
  appDir: string,
  env: Record<string, string>,
  startTimeoutMs = 60_000,
): Promise<ServiceProcess> {
  return (await spawnServiceProcess(appDir, env)).listening(startTimeoutMs);
}

export interface HttpOutcome {
  status?: number;
  body?: string;
  headers?: http.IncomingHttpHeaders;
  /** The error code when no complete response arrived (ECONNREFUSED, ECONNRESET, …). */
  error?: string;
}

/** One request through `agent`, reading the whole body; network failures are outcomes, not throws. */
export function httpRequest(
  baseUrl: string,
  agent: http.Agent,
  method: string,
  pathname: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    const request = http.request(
      new URL(pathname, baseUrl),
      { method, agent, headers: options.headers, timeout: options.timeoutMs ?? 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: response.statusCode, error: error.code ?? error.message }),
        );
        response.on('aborted', () => resolve({ status: response.statusCode, error: 'ABORTED' }));
      },
    );
    request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end(options.body);
  });
}

/** A local OTLP/HTTP receiver on loopback: records what is POSTed to /v1/traces. */
export async function startOtlpReceiver(): Promise<{
  endpoint: string;
  bodies: string[];
  close(): Promise<void>;
}> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces')
        bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Opens a connection that sends a request's headers announcing a body, then never sends it
 * (slowloris); resolves with the milliseconds until the server closed it, or `giveUpMs`.
 */
export function holdRequestOpen(port: number, pathname: string, giveUpMs: number): Promise<number> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`,
      );
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(giveUpMs);
    }, giveUpMs);
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

export interface ServiceRun {
  /** The exit code, or `listening` when the service started instead (it is then stopped). */
  outcome: number | string | 'listening';
  /** Every non-empty line the process printed, stdout and stderr. */
  lines: string[];
}

/**
 * Runs `node dist/main.js` of an app with `env` until it exits, or until it prints its listening
 * line (then stops it): for start-ups that must be refused.
 */
export async function runServiceProcess(
  appDir: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServiceRun> {
  await compileApp(appDir);
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: appDir,
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const text: string[] = [];
  let listening = false;
  const onData = (chunk: Buffer) => {
    text.push(chunk.toString('utf8'));
    if (!listening && /listening on http:\/\/localhost:\d+/.test(text.join(''))) {
      listening = true;
      child.kill('SIGKILL');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | string>((resolve) =>
    child.once('close', (exitCode, signal) => resolve(exitCode ?? signal ?? 'unknown')),
  );
  clearTimeout(timer);
  const lines = text
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return { outcome: listening ? 'listening' : code, lines };
}
