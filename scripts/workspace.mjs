#!/usr/bin/env node
// Entry point behind the root npm scripts. A fresh clone has only Node and npm,
// so this file uses nothing but Node's standard library: it makes sure the
// pinned pnpm exists, installs the workspace when needed, then hands over to turbo.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pinnedPnpm = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager.split(
  '@',
)[1];
const toolsDir = path.join(root, '.tools');
const toolsBin = path.join(toolsDir, 'node_modules', '.bin');

const env = {
  ...process.env,
  PATH: [toolsBin, path.join(root, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter),
  TURBO_TELEMETRY_DISABLED: '1',
  // PGlite's CommonJS build loads its WebAssembly through dynamic import(),
  // which Jest's module sandbox only allows with this flag.
  NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules', '--no-warnings=ExperimentalWarning']
    .filter(Boolean)
    .join(' '),
};

// For commands whose standard output is their answer (`TOKEN=$(npm run -s admin -- create-token …)`),
// the install and build chatter goes to stderr instead.
let chatterStdio = 'inherit';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: chatterStdio, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function pnpmVersionOnPath() {
  const result = spawnSync('pnpm', ['--version'], { env, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function ensurePnpm() {
  if (pnpmVersionOnPath() === pinnedPnpm) return;
  // Install the exact pinned pnpm into a project-local folder: no global
  // install (which may need root) and no corepack (its signature check fails here).
  console.error(`> installing pnpm ${pinnedPnpm} into .tools/`);
  run('npm', [
    'install',
    '--prefix',
    toolsDir,
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    `pnpm@${pinnedPnpm}`,
  ]);
  if (pnpmVersionOnPath() !== pinnedPnpm) {
    console.error(`pnpm ${pinnedPnpm} could not be installed`);
    process.exit(1);
  }
}

function installIsCurrent() {
  const marker = path.join(root, 'node_modules', '.modules.yaml');
  const lockfile = path.join(root, 'pnpm-lock.yaml');
  if (!existsSync(marker)) return false;
  if (!existsSync(lockfile)) return true;
  return statSync(marker).mtimeMs >= statSync(lockfile).mtimeMs;
}

function ensureInstalled() {
  ensurePnpm();
  if (installIsCurrent()) return;
  const frozen = existsSync(path.join(root, 'pnpm-lock.yaml')) && process.env.CI ? ['--frozen-lockfile'] : [];
  run('pnpm', ['install', ...frozen]);
}

const turboTasks = {
  test: ['run', 'typecheck', 'lint', 'test'],
  lint: ['run', 'lint'],
  typecheck: ['run', 'typecheck'],
  // One app at a time: two benches sharing two cores would measure each other.
  bench: ['run', 'bench', '--concurrency=1'],
  start: ['run', 'start', '--filter=./apps/*'],
};

// The workspace's package names (apps/*, packages/*, infra), read from their package.json.
function workspacePackages() {
  const folders = ['apps', 'packages'].flatMap((parent) =>
    readdirSync(path.join(root, parent)).map((name) => path.join(root, parent, name)),
  );
  return [...folders, path.join(root, 'infra')]
    .filter((folder) => existsSync(path.join(folder, 'package.json')))
    .map((folder) => JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).name);
}

// `app-script <script> <app> [args…]`: one app's own package.json script (admin, token,
// db:migration:create, …) with the pinned pnpm, after turbo has built what it imports.
function appScript([script, app, ...args]) {
  const packages = workspacePackages();
  if (!script || !packages.includes(app)) {
    console.error(`usage: npm run ${script ?? '<script>'} -- <${packages.join('|')}> [arguments]`);
    process.exit(2);
  }
  chatterStdio = ['inherit', 2, 'inherit'];
  ensureInstalled();
  run('turbo', ['run', 'build', `--filter=${app}`, '--output-logs=errors-only']);
  chatterStdio = 'inherit';
  run('pnpm', ['--filter', app, '--silent', 'run', script, ...args]);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'app-script') {
  appScript(rest);
  process.exit(0);
}
if (!command || !(command in turboTasks)) {
  console.error(`usage: workspace.mjs <${Object.keys(turboTasks).join('|')}|app-script> [args]`);
  process.exit(2);
}

ensureInstalled();
if (command !== 'start') {
  run('turbo', [...turboTasks[command], ...rest]);
} else {
  // turbo forwards Ctrl-C to both services; wait for them to close cleanly.
  const child = spawn('turbo', [...turboTasks.start, ...rest], { cwd: root, env, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', () => {});
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}
