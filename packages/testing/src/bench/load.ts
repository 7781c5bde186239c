/** Runs one load (autocannon) in a separate process and returns its result. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadResult, LoadSpec } from './load-spec';

// load-worker.ts run by tsx from the sources, or load-worker.js from the build.
const WORKER = path.join(__dirname, `load-worker${path.extname(__filename)}`);
const WORKER_ARGS = WORKER.endsWith('.ts') ? ['--import', 'tsx', WORKER] : [WORKER];

/**
 * `onMeasuring` is called as the run's measured window opens (after its warm-up): readings that
 * must cover the same responses as the result (a server's CPU time, its statements) start there.
 */
export async function runLoad(spec: LoadSpec, onMeasuring?: () => void): Promise<LoadResult> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
  const specFile = path.join(folder, 'spec.json');
  writeFileSync(specFile, JSON.stringify(spec));
  try {
    return await new Promise<LoadResult>((resolve, reject) => {
      const child = spawn(process.execPath, [...WORKER_ARGS, specFile], {
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      });
      child.on('message', (message) => {
        if (message === 'measuring') onMeasuring?.();
      });
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) => {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        if (code !== 0 || !line) reject(new Error(`load process exited with ${code}`));
        else resolve(JSON.parse(line) as LoadResult);
      });
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
