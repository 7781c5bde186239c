import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';

export const root = path.resolve(__dirname, '../..');
export const SERVICES = ['project-service', 'code-hosting-api'] as const;
export type ServiceName = (typeof SERVICES)[number];

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export interface RootStart {
  /** Every line printed so far, stdout and stderr, colours and carriage returns removed. */
  readonly lines: string[];
  /** Resolves with the command's exit code (or its signal's name). */
  readonly exited: Promise<number | string>;
  /** Each service's base URL, once both printed their listening line. */
  readonly urls: Promise<Record<ServiceName, string>>;
  /** Resolves with the first line `matches` accepts (waiting at most `timeoutMs`). */
  waitForLine(matches: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Ctrl-C: the key on the terminal, or SIGINT to the command's process group without one. */
  interrupt(): void;
  /** Ends whatever is left of the command's process group (after a failed test). */
  kill(): void;
}

/** The environment a person's shell would hand over: PATH and HOME, and what the test sets. */
function personEnvironment(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' };
  if (process.env['TMPDIR']) base['TMPDIR'] = process.env['TMPDIR'];
  return { ...base, ...env };
}

/**
 * `npm start` (or `command`) at the repository root, in a process group of its own, its output read line by
 * line. With `tty`, under util-linux `script`: the command sees a terminal, as a person's would.
 */
export function startRoot(
  env: Record<string, string>,
  options: { tty?: boolean; command?: string; cwd?: string } = {},
): RootStart {
  const command = options.command ?? 'npm start';
  const child: ChildProcess = options.tty
    ? // `exec`: script runs the command through sh, which would itself die of the Ctrl-C (an
      // interactive shell, the person's, waits for npm instead).
      spawn('script', ['-qefc', `exec ${command}`, '/dev/null'], {
        cwd: options.cwd ?? root,
        env: personEnvironment({ TERM: 'xterm', ...env }),
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn('sh', ['-c', `exec ${command}`], {
        cwd: options.cwd ?? root,
        env: personEnvironment(env),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
  const lines: string[] = [];
  const exited = new Promise<number | string>((resolve) =>
    // Once its output is all read, too.
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const listeners: (() => void)[] = [];
  const read = (stream: NodeJS.ReadableStream | null) => {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) lines.push(part.replace(/\r/g, '').replace(ANSI, ''));
      for (const listener of listeners) listener();
    });
    // What the command leaves after its last newline (a prompt-less terminal shows it too).
    stream?.on('end', () => {
      if (pending !== '') lines.push(pending.replace(/\r/g, '').replace(ANSI, ''));
    });
  };
  read(child.stdout);
  read(child.stderr);

  const urls = new Promise<Record<ServiceName, string>>((resolve, reject) => {
    const check = () => {
      const found: Partial<Record<ServiceName, string>> = {};
      for (const line of lines) {
        const match = /(project-service|code-hosting-api) listening on http:\/\/localhost:(\d+)/.exec(line);
        if (match) found[match[1] as ServiceName] = `http://127.0.0.1:${match[2]}`;
      }
      if (SERVICES.every((name) => found[name])) resolve(found as Record<ServiceName, string>);
    };
    listeners.push(check);
    void exited.then((code) => reject(new Error(`npm start exited (${code}):\n${lines.join('\n')}`)));
  });
  // A test that expects the command to end never asks for the URLs.
  urls.catch(() => undefined);

  const waitForLine = (matches: (line: string) => boolean, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no such line within ${timeoutMs} ms:\n${lines.join('\n')}`)),
        timeoutMs,
      );
      const check = () => {
        const line = lines.find(matches);
        if (line === undefined) return;
        clearTimeout(timer);
        resolve(line);
      };
      listeners.push(check);
      check();
    });

  return {
    lines,
    exited,
    urls,
    waitForLine,
    interrupt: () => {
      if (options.tty) child.stdin?.write('\u0003');
      else process.kill(-(child.pid ?? 0), 'SIGINT');
    },
    kill: () => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
  };
}

/** Polls GET `url` until it answers 200 (at most `timeoutMs`). */
export async function waitFor200(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} answered ${status}, not 200, for ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Where each service keeps its data for one test: two empty PostgreSQL databases when the suite
 * runs against a server (DATABASE_URL), else two PGlite folders in the temporary directory.
 */
export async function serviceHomes(): Promise<{
  env: Record<string, string>;
  /** The tables of each service's database (PGlite: once the service has stopped). */
  tables(service: ServiceName): Promise<string[]>;
  remove(): Promise<void>;
}> {
  const serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) {
    const dirs = await Promise.all(SERVICES.map((name) => mkdtemp(path.join(os.tmpdir(), `start-${name}-`))));
    return {
      env: { PROJECT_SERVICE_DATA_DIR: dirs[0] ?? '', CODE_HOSTING_API_DATA_DIR: dirs[1] ?? '' },
      tables: async (service) => {
        const pglite = new PGlite(dirs[SERVICES.indexOf(service)]);
        try {
          const { rows } = await pglite.query<{ tablename: string }>(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
          );
          return rows.map((row) => row.tablename);
        } finally {
          await pglite.close();
        }
      },
      remove: async () => {
        await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
      },
    };
  }
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  const names = { 'project-service': `start_ps_${suffix}`, 'code-hosting-api': `start_cha_${suffix}` };
  const urlOf = (name: string) => {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  for (const name of Object.values(names)) await admin(`CREATE DATABASE "${name}"`);
  return {
    env: {
      PROJECT_SERVICE_DATABASE_URL: urlOf(names['project-service']),
      CODE_HOSTING_API_DATABASE_URL: urlOf(names['code-hosting-api']),
    },
    tables: async (service) => {
      const client = new Client({ connectionString: urlOf(names[service]) });
      await client.connect();
      try {
        const { rows } = await client.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
        );
        return rows.map((row) => row.tablename);
      } finally {
        await client.end();
      }
    },
    remove: async () => {
      for (const name of Object.values(names)) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
