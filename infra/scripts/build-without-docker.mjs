#!/usr/bin/env node
// Builds what apps/<app>/Dockerfile builds, without a Docker engine, and
// starts it:
//
//   1. copies the build context (the repository root less .dockerignore) to a
//      temporary folder, as `docker build` would send it;
//   2. runs the Dockerfile's own build stage there: its WORKDIR, COPY and RUN
//      instructions, read from the Dockerfile (dockerfile-ast), not restated
//      here; the stage that only installs pnpm is replaced by the pnpm
//      package.json pins, which must be the version the Dockerfile installs;
//   3. assembles the final stage's /app from its `COPY --from=build` lines;
//   4. against a throwaway PostgreSQL database, runs the init container's
//      migrate command and then the image's CMD from that folder, with the
//      final stage's ENV, waits for GET /readyz to answer 200, sends SIGTERM
//      and expects a clean exit.
//
// Usage: node infra/scripts/build-without-docker.mjs [app …]
// Environment: PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
// PNPM (default .tools/node_modules/.bin/pnpm, else pnpm on PATH), KEEP_BUILD=1 keeps the folders.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ignore from '@balena/dockerignore';
import { DockerfileParser } from 'dockerfile-ast';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const localPnpm = path.join(repoRoot, '.tools', 'node_modules', '.bin', 'pnpm');
// scripts/workspace.mjs installs pnpm into .tools/ only when the pinned one is not on PATH already.
const pnpm = process.env.PNPM ?? (existsSync(localPnpm) ? localPnpm : 'pnpm');
const adminUrl = process.env.PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const apps = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync(path.join(repoRoot, 'apps')).filter((name) =>
      existsSync(path.join(repoRoot, 'apps', name, 'Dockerfile')),
    );

const log = (message) => console.log(`[build-without-docker] ${message}`);
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** The files Docker would send: the context less .dockerignore (Docker's matching rules). */
function copyBuildContext(contextDir, target) {
  const patterns = readFileSync(path.join(contextDir, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const matcher = ignore().add(patterns);
  const canPrune = !patterns.some((pattern) => pattern.startsWith('!'));
  let count = 0;
  const walk = (relative) => {
    for (const entry of readdirSync(path.join(contextDir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      const ignored = matcher.ignores(child);
      if (entry.isDirectory()) {
        if (!(ignored && canPrune)) walk(child);
      } else if (!ignored) {
        mkdirSync(path.dirname(path.join(target, child)), { recursive: true });
        cpSync(path.join(contextDir, child), path.join(target, child));
        count += 1;
      }
    }
  };
  walk('');
  return count;
}

function parseStages(text) {
  const dockerfile = DockerfileParser.parse(text);
  const globalArgs = Object.fromEntries(
    dockerfile.getInitialARGs().flatMap((arg) => {
      const property = arg.getProperty();
      return property ? [[property.getName(), property.getValue() ?? '']] : [];
    }),
  );
  const froms = dockerfile.getFROMs();
  const stages = froms.map((from) => ({
    name: from.getBuildStage() ?? undefined,
    image: (from.getImage() ?? '').replace(/^\$\{?(\w+)\}?$/, (_match, name) => globalArgs[name] ?? ''),
    instructions: [],
  }));
  for (const instruction of dockerfile.getInstructions()) {
    const line = instruction.getRange().start.line;
    const index = froms.filter((from) => from.getRange().start.line < line).length - 1;
    if (index < 0 || instruction.getKeyword() === 'FROM') continue;
    const fromFlag = typeof instruction.getFromFlag === 'function' ? instruction.getFromFlag() : null;
    stages[index].instructions.push({
      keyword: instruction.getKeyword(),
      args: instruction
        .getArguments()
        .map((argument) => argument.getValue())
        .filter((value) => !/^--[\w-]+(=|$)/.test(value)),
      text: (instruction.getArgumentsContent() ?? '')
        .replace(/\\\r?\n/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
      from: fromFlag?.getValue() ?? undefined,
    });
  }
  return stages;
}

/** ENV and ARG defaults of a stage, following the stages it starts from. */
function variablesOf(stages, stage) {
  const parent = stages.find((candidate) => candidate.name && candidate.name === stage.image);
  const variables = parent ? variablesOf(stages, parent) : {};
  for (const instruction of stage.instructions) {
    if (instruction.keyword !== 'ENV' && instruction.keyword !== 'ARG') continue;
    for (const match of instruction.text.matchAll(/(\w+)=("[^"]*"|\S+)/g))
      variables[match[1]] = match[2].replace(/^"|"$/g, '');
  }
  return variables;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function psql(sql) {
  execFileSync('psql', [adminUrl, '-qtAc', sql], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function buildApp(app) {
  const started = Date.now();
  const dockerfile = path.join(repoRoot, 'apps', app, 'Dockerfile');
  const stages = parseStages(readFileSync(dockerfile, 'utf8'));
  const final = stages.at(-1);
  const sources = new Set(
    final.instructions.filter((i) => i.keyword === 'COPY' && i.from).map((i) => i.from),
  );
  if (sources.size !== 1)
    throw new Error(
      `${app}: the final stage copies from ${[...sources].join(', ') || 'no stage'}; expected one build stage`,
    );
  const buildName = [...sources][0];
  const build = stages.find((stage) => stage.name === buildName);
  if (!build) throw new Error(`${app}: no stage named ${buildName}`);

  // The stage build starts from only installs pnpm: hold it to the pinned one.
  const buildVariables = variablesOf(stages, build);
  const pinned = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).packageManager.replace(
    /^pnpm@/,
    '',
  );
  const pnpmVersion = execFileSync(pnpm, ['--version'], { encoding: 'utf8' }).trim();
  if (buildVariables.PNPM_VERSION !== pinned || pnpmVersion !== pinned)
    throw new Error(
      `${app}: the Dockerfile installs pnpm ${buildVariables.PNPM_VERSION}, package.json pins ${pinned}, this pnpm is ${pnpmVersion}`,
    );

  const root = mkdtempSync(path.join(os.tmpdir(), `image-${app}-`));
  // The container's file system, under `root`: /repo → root/repo, /out → root/out, /app → root/app.
  const inRoot = (containerPath) => path.join(root, containerPath);
  const topLevels = new Set();
  let workdir = '/';
  let contextFiles = 0;
  const env = { ...process.env, ...buildVariables, CI: 'true', TURBO_TELEMETRY_DISABLED: '1' };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;

  log(`${app}: build stage "${buildName}" of ${path.relative(repoRoot, dockerfile)} in ${root}`);
  for (const instruction of build.instructions) {
    if (instruction.keyword === 'WORKDIR') {
      workdir = path.posix.resolve(workdir, instruction.args[0]);
      topLevels.add(workdir.split('/')[1]);
      mkdirSync(inRoot(workdir), { recursive: true });
    } else if (instruction.keyword === 'COPY' && !instruction.from) {
      const [source, destination] = [instruction.args.slice(0, -1), instruction.args.at(-1)];
      // Each COPY from the context: `.` brings the whole filtered context.
      if (source.length === 1 && source[0] === '.') {
        contextFiles = copyBuildContext(repoRoot, inRoot(path.posix.resolve(workdir, destination)));
        log(`${app}: COPY . ${destination} (${contextFiles} files after .dockerignore)`);
      } else {
        for (const file of source) {
          if (!existsSync(path.join(repoRoot, file)))
            throw new Error(`${app}: COPY ${file}: not in the build context`);
          cpSync(
            path.join(repoRoot, file),
            path.join(inRoot(path.posix.resolve(workdir, destination)), path.basename(file)),
          );
        }
        log(`${app}: COPY ${source.join(' ')} ${destination}`);
      }
    } else if (instruction.keyword === 'RUN') {
      // Absolute paths the stage writes outside its WORKDIR (`pnpm deploy … /out`)
      // land under `root` too.
      const command = instruction.text.replace(
        /(^|\s)\/(?!bin\/|usr\/|dev\/|tmp\/)([\w.-]+)(?=[\s/]|$)/g,
        (match, space, top) => {
          topLevels.add(top);
          return `${space}${inRoot('/' + top)}`;
        },
      );
      const runStarted = Date.now();
      execFileSync('sh', ['-ec', command], {
        cwd: inRoot(workdir),
        env: { ...env, PATH: `${path.dirname(pnpm)}:${env.PATH}` },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      log(`${app}: RUN ${instruction.text} (${seconds(runStarted)})`);
    } else if (!['ENV', 'ARG'].includes(instruction.keyword)) {
      throw new Error(`${app}: ${instruction.keyword} in the build stage is not reproduced by this script`);
    }
  }

  // The final stage: its WORKDIR and the files it copies from the build stage.
  const appDir = inRoot(final.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args[0] ?? '/');
  mkdirSync(appDir, { recursive: true });
  for (const copy of final.instructions.filter((i) => i.keyword === 'COPY' && i.from)) {
    const [source, destination] = [copy.args[0], copy.args.at(-1)];
    const from = inRoot(path.posix.resolve('/', source));
    if (!existsSync(from))
      throw new Error(`${app}: COPY --from=${buildName} ${source}: the build stage made no such file`);
    cpSync(from, path.resolve(appDir, destination), { recursive: true });
  }
  const runtimeEnv = variablesOf(stages, final);
  const cmd = JSON.parse(final.instructions.filter((i) => i.keyword === 'CMD').at(-1).text);
  const migrateCommand = JSON.parse(
    readFileSync(path.join(repoRoot, 'apps', app, 'package.json'), 'utf8'),
  ).scripts['db:migrate'].split(' ');
  for (const command of [cmd, migrateCommand]) {
    if (!existsSync(path.join(appDir, command[1])))
      throw new Error(`${app}: ${command.join(' ')}: ${command[1]} is not in the image`);
  }
  log(`${app}: image contents in ${path.relative(root, appDir) || '.'} after ${seconds(started)}`);

  // Start it against a throwaway database, as the pod does: migrate, then CMD.
  const database = `build_without_docker_${app.replace(/-/g, '_')}_${process.pid}`;
  psql(`DROP DATABASE IF EXISTS ${database}`);
  psql(`CREATE DATABASE ${database}`);
  const port = await freePort();
  const dataDir = path.join(root, 'data');
  mkdirSync(dataDir);
  const serviceEnv = {
    PATH: process.env.PATH,
    ...runtimeEnv,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: adminUrl.replace(/\/[^/?]*(\?|$)/, `/${database}$1`),
    // project-service refuses to start in production without a way to verify tokens.
    JWT_SECRET: 'build-without-docker-secret-0123456789',
    SHUTDOWN_DRAIN_MS: '200',
    LOG_LEVEL: 'warn',
  };
  try {
    execFileSync(migrateCommand[0], migrateCommand.slice(1), {
      cwd: appDir,
      env: serviceEnv,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    log(`${app}: ${migrateCommand.join(' ')} applied the migrations`);
    const child = spawn(cmd[0], cmd.slice(1), {
      cwd: appDir,
      env: serviceEnv,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let status = 0;
    const deadline = Date.now() + 60_000;
    while (status !== 200 && Date.now() < deadline && child.exitCode === null) {
      status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    child.kill('SIGTERM');
    const exit = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve({ code: 'timeout' }), 30_000)),
    ]);
    if (exit.code === 'timeout') child.kill('SIGKILL');
    if (status !== 200)
      throw new Error(`${app}: GET /readyz never answered 200 (last: ${status || 'no answer'})`);
    if (exit.code !== 0) throw new Error(`${app}: after SIGTERM it exited with ${exit.code ?? exit.signal}`);
    log(
      `${app}: ${cmd.join(' ')} answered GET /readyz 200 and exited 0 on SIGTERM; ${seconds(started)} in all`,
    );
  } finally {
    psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    if (process.env.KEEP_BUILD !== '1') rmSync(root, { recursive: true, force: true });
  }
}

const started = Date.now();
for (const app of apps) await buildApp(app);
log(`${apps.length} images built and started without Docker in ${seconds(started)}`);
