import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Walkthrough {
  /** The shell blocks, in order. */
  blocks: string[];
  /** The blocks joined: what a reader pastes into one shell. */
  script: string;
  /** The `# → text` lines: text each command's output must show, in this order. */
  expected: string[];
}

/**
 * What a reader pastes into one shell: the shell blocks (```sh) of a README from its top through
 * the end of its `## heading` section, in order. Blocks that start a service (`npm start`) are the
 * reader's first shell, not the walk-through's; `leaveOut` drops others (those a missing tool runs).
 */
export function readmeWalkthrough(
  markdown: string,
  heading: string,
  leaveOut: (block: string) => boolean = () => false,
): Walkthrough {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  const pasted = markdown.slice(0, end < 0 ? undefined : end);
  const blocks = [...pasted.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1]!)
    .filter((block) => !/^\s*npm start\b/m.test(block) && !leaveOut(block));
  if (blocks.length === 0) throw new Error(`no shell block up to the end of "## ${heading}"`);
  const script = blocks.join('\n');
  const expected = [...script.matchAll(/^# → (.*)$/gm)].map((match) => match[1]!);
  return { blocks, script, expected };
}

/** A block that runs the Go toolchain (`go run …`). */
export function runsGo(block: string): boolean {
  return /^\s*go\s/m.test(block);
}

export interface ScriptOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script with `bash -euo pipefail` in an empty temporary folder (removed afterwards). */
export async function runBash(script: string, env: Record<string, string>): Promise<ScriptOutcome> {
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'readme-walkthrough-'));
  try {
    return await new Promise<ScriptOutcome>((resolve, reject) => {
      const child = spawn('bash', ['--norc', '-euo', 'pipefail', '-c', script], {
        cwd,
        env: { PATH: process.env['PATH'] ?? '', HOME: cwd, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

/** The expected texts missing from the output, each looked for after the previous one. */
export function missingInOrder(output: string, expected: string[]): string[] {
  const normalized = output.replace(/\r\n/g, '\n');
  const missing: string[] = [];
  let from = 0;
  for (const text of expected) {
    const at = normalized.toLowerCase().indexOf(text.toLowerCase(), from);
    if (at < 0) missing.push(text);
    else from = at + text.length;
  }
  return missing;
}
