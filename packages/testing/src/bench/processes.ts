/**
 * Server processes of the bench: the built service (`node dist/main.js`) and the baseline, each a
 * child process whose resident memory is read from /proc, stopped with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { freePort } from '../ports';

export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Milliseconds from spawn to the first 200 of the readiness path. */
  readonly readyMs: number;
  /** Resident set now and the peak so far (VmRSS / VmHWM), in MiB. */
  memory(): { rssMiB: number; peakMiB: number };
  /** Resets the peak (VmHWM) to the current RSS, so a later peak belongs to what ran since. */
  resetPeak(): void;
  stop(): Promise<void>;
}

function statusField(pid: number, field: string): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  readyPath: string;
  timeoutMs?: number;
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitReady(`${url}${options.readyPath}`, child, options.timeoutMs ?? 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${options.name} did not start: ${(error as Error).message}\n${output}`);
  }
  const readyMs = performance.now() - started;
  const pid = child.pid!;
  return {
    name: options.name,
    url,
    pid,
    readyMs,
    memory: () => ({ rssMiB: statusField(pid, 'VmRSS'), peakMiB: statusField(pid, 'VmHWM') }),
    // Writing 5 to clear_refs resets the peak resident set size (Linux).
    resetPeak: () => {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        // not permitted here: the peak then covers the process's whole life
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export interface AppServerOptions {
  name: string;
  /** The app's folder: the process runs there. */
  appDir: string;
  /** Node's arguments (the script and any flags). */
  args: string[];
  databaseUrl: string;
  /** The app's own variables (PORT, DATABASE_URL, NODE_ENV=production and LOG_LEVEL=warn are set here). */
  environment: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** A bench server of an app (the service or its baseline) on a free port, ready at /readyz. */
export async function startAppServer(options: AppServerOptions): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name: options.name,
    command: process.execPath,
    args: options.args,
    cwd: options.appDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      ...options.environment,
      // A diagnostic's flags for both servers alike (http-bench.ts).
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    },
    port,
    readyPath: '/readyz',
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
