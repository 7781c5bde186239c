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
  'test:slow': ['run', 'test'],
  lint: ['run', 'lint'],
  typecheck: ['run', 'typecheck'],
  // One app at a time: two benches sharing two cores would measure each other.
  bench: ['run', 'bench', '--concurrency=1'],
  // `start` builds through turbo, then runs the services itself (startServices below).
  start: ['run', 'build', '--filter=./apps/*', '--output-logs=errors-only'],
};

// The package of the root commands' tests (scripts/).
const rootCommandsPackage = 'workspace-scripts';

// The services `npm start` runs, and the prefix of the variables meant for one of them only.
const services = [
  { name: 'project-service', prefix: 'PROJECT_SERVICE_' },
  { name: 'code-hosting-api', prefix: 'CODE_HOSTING_API_' },
];
// What must differ between the services: one value at the root would give both the same.
const perService = {
  DATABASE_URL: 'migrate into one database',
  DATA_DIR: 'open one PGlite folder',
  PORT: 'listen on one port',
  EVENTS_STREAM: 'publish into one stream (created with the subjects of whichever started first)',
};

// The app scripts that run one service's own command on its configuration (its database, its
// stream): they take the per-service names as npm start does, the app being their first argument.
const serviceCommands = new Set([
  'events:tail',
  'events:replay',
  'events:snapshot',
  'db:migrate',
  'admin',
  'attachments:sweep',
]);

/**
 * The environment of `script` run for `app`: each per-service variable given under the app's
 * prefix (PROJECT_SERVICE_EVENTS_STREAM) reaches the command under its own name (EVENTS_STREAM),
 * as npm start hands it over. The plain name alone still works (the app is named); both at once,
 * different, is refused with a line saying which to keep.
 */
function serviceCommandEnv(script, app) {
  const service = services.find(({ name }) => name === app);
  if (!service || !serviceCommands.has(script)) return { commandEnv: env, problems: [] };
  const commandEnv = { ...env };
  const problems = [];
  for (const variable of Object.keys(perService)) {
    const prefixed = process.env[service.prefix + variable];
    if (!prefixed) continue;
    const plain = process.env[variable];
    if (plain && plain !== prefixed) {
      problems.push(
        `npm run ${script}: ${variable} and ${service.prefix}${variable} are both set, to different values; ` +
          `set ${service.prefix}${variable} only, as for npm start (unset ${variable})`,
      );
    }
    commandEnv[variable] = prefixed;
  }
  return { commandEnv, problems };
}

/** One line per variable set at the root that both services would share, naming the ones to use. */
function sharedVariableProblems() {
  return Object.entries(perService)
    .filter(([name]) => process.env[name])
    .map(
      ([name, harm]) =>
        `npm start: ${name} is set, which would make both services ${harm}; ` +
        `set ${services.map(({ prefix }) => prefix + name).join(' and ')} instead (unset ${name})`,
    );
}

/**
 * Runs each built service (node dist/main.js in its folder) with the whole environment, so every
 * variable a service documents reaches it, plus its own PORT, DATABASE_URL and DATA_DIR from the
 * prefixed variables. Output is prefixed with the service's name. Ctrl-C (SIGINT) and SIGTERM stop
 * both; the command exits 0 when both stopped cleanly. A service that exits on its own stops the other.
 */
function startServices() {
  // Behind this script the services write to a pipe: tell them when a person is reading.
  const terminal = process.stdout.isTTY && process.env.NODE_ENV !== 'production';
  const width = Math.max(...services.map(({ name }) => name.length));
  const children = services.map(({ name, prefix }) => {
    const serviceEnv = { ...env };
    // The services get the person's own NODE_OPTIONS, not the flags added above for Jest.
    if (process.env.NODE_OPTIONS === undefined) delete serviceEnv.NODE_OPTIONS;
    else serviceEnv.NODE_OPTIONS = process.env.NODE_OPTIONS;
    for (const variable of Object.keys(perService)) {
      delete serviceEnv[variable];
      if (process.env[prefix + variable]) serviceEnv[variable] = process.env[prefix + variable];
    }
    if (terminal && !serviceEnv.LOG_FORMAT) serviceEnv.LOG_FORMAT = 'pretty';
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: path.join(root, 'apps', name),
      env: serviceEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const label = `${name.padEnd(width)} | `;
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let pending = '';
      stream.on('data', (chunk) => {
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) out.write(`${label}${line}\n`);
      });
      stream.on('end', () => pending && out.write(`${label}${pending}\n`));
    }
    const exited = new Promise((resolve) =>
      child.on('close', (code, signal) => resolve({ name, code, signal })),
    );
    return { name, child, exited };
  });

  let stopping = false;
  const stop = (signal) => {
    stopping = true;
    for (const { child } of children)
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  // A terminal's Ctrl-C reaches the services directly too; a second SIGINT changes nothing for them.
  // The services handle SIGINT (stop at once) and SIGTERM (drain first); a closed terminal is a SIGTERM.
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGTERM'));
  for (const { exited } of children) {
    void exited.then(({ name, code, signal }) => {
      if (stopping) return;
      console.error(`npm start: ${name} exited (${code ?? signal}); stopping the other service`);
      stop('SIGINT');
    });
  }
  void Promise.all(children.map(({ exited }) => exited)).then((results) => {
    const failed = results.find(({ code }) => code !== 0);
    process.exit(failed ? failed.code || 1 : 0);
  });
}

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
  const { commandEnv, problems } = serviceCommandEnv(script, app);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(2);
  }
  chatterStdio = ['inherit', 2, 'inherit'];
  ensureInstalled();
  run('turbo', ['run', 'build', `--filter=${app}`, '--output-logs=errors-only']);
  chatterStdio = 'inherit';
  run('pnpm', ['--filter', app, '--silent', 'run', script, ...args], { env: commandEnv });
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

if (command === 'start') {
  const problems = sharedVariableProblems();
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(2);
  }
}
// `npm test` runs every package's fast suites, `npm run test:slow` the ones that start programs,
// run the schema engine or fuzz (each package's jest.config.js names them; jest.config.base.js);
// TEST_SUITES=all npm test runs both.
if (command === 'test') env.TEST_SUITES = process.env.TEST_SUITES || 'fast';
if (command === 'test:slow') env.TEST_SUITES = 'slow';
ensureInstalled();
if ((command === 'test' || command === 'test:slow') && rest.length === 0) {
  // The root commands' own tests last: their npm start builds the apps' dist/ folders (turbo), from
  // which the apps' tests start service processes; side by side, a service once loaded a
  // half-written dist/ ("Cannot find module"). Both runs go ahead; either failing fails the command.
  const statuses = [`--filter=!${rootCommandsPackage}`, `--filter=${rootCommandsPackage}`].map(
    (filter) =>
      spawnSync('turbo', [...turboTasks[command], filter], { cwd: root, env, stdio: 'inherit' }).status,
  );
  // A run ended by a signal has no status: a failure too.
  process.exit(statuses.map((status) => status ?? 1).find((status) => status !== 0) ?? 0);
}
run('turbo', [...turboTasks[command], ...rest]);
if (command === 'start') startServices();
