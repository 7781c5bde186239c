#!/usr/bin/env node
// The runtime files both apps need alike (database, migrations, probes, logging, tracing, config
// basics, start and stop, build settings, the container image) live in apps/project-service; each
// app must stay deployable alone, so the other apps hold generated copies rather than importing them.
// `npm run sync:copies` writes the copies; `--check` lists every copy that differs (npm test runs it
// through scripts/test/sync-copies.test.ts, each app's workflow directly).
// Node's standard library only, like workspace.mjs: it runs before any install.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Each app's name and default port (its config.ts): the Dockerfile is the master's with these put in.
const MASTER = { dir: 'apps/project-service', name: 'project-service', port: '8080' };
const COPIES = [{ dir: 'apps/code-hosting-api', name: 'code-hosting-api', port: '3000' }];

// Paths inside each app. What one app alone needs to know (its name, its probe paths) is in its
// own files (src/service-name.ts, src/untraced-paths.ts), never in these.
const COPIED_FILES = [
  'src/db/database.ts',
  'src/db/migrate.ts',
  'src/db/migration-lock.ts',
  'src/db/interrupted-index-builds.ts',
  'src/db/schema-engine.ts',
  'src/db/create-migration.ts',
  'src/db/migrate-command.ts',
  'src/db/create-migration-command.ts',
  'src/db/unusable-database.ts',
  'src/http/request-id.ts',
  'src/http/request-observation.ts',
  'src/http/express-server.ts',
  'src/http/health.ts',
  'src/http/metrics.ts',
  'src/metrics/registry.ts',
  'src/metrics/database-metrics.ts',
  'src/http/docs/api-docs.ts',
  'src/lifecycle.ts',
  'src/logger.ts',
  'src/log-secrets.ts',
  'src/span-secrets.ts',
  'src/tracing.ts',
  'src/operations-config.ts',
  'src/runtime-config.ts',
  'src/service-main.ts',
  'src/db/migration-runner.ts',
  'src/types/webassembly.d.ts',
  'src/request-context.ts',
  'src/db/outbox.ts',
  'src/db/prepared-statements.ts',
  'src/events/envelope.ts',
  'src/events/events-config.ts',
  'src/events/event-metrics.ts',
  'src/events/nats-connection.ts',
  'src/events/relay.ts',
  'src/events/service-events.ts',
  'src/events/asyncapi.ts',
  'src/events/event-commands.ts',
  'src/events/replay-command.ts',
  'src/events/snapshot-command.ts',
  'src/events/tail-command.ts',
  'src/http/event-wakeup.ts',
  'src/http/x-sync.ts',
  // Test files whose whole body is a call into @repo/testing with nothing of either app in it.
  'test/configuration-table.test.ts',
  'test/migrations.test.ts',
  'test/database-limits.test.ts',
  'test/replicas/migrating-replicas.test.ts',
  'test/global-teardown.ts',
  'jest.config.js',
  'prisma.config.ts',
  // JSON has no comments, so these are copied byte for byte. Not a shared base instead: the paths in
  // a tsconfig (include, rootDir, outDir) resolve from the file that names them, so each app needs its own.
  'tsconfig.json',
  'tsconfig.build.json',
  'Dockerfile',
];

const generatedFrom = (file) =>
  `Generated from ${MASTER.dir}/${file} by \`npm run sync:copies\`: edit that file, not this copy.`;

/** What `app`'s copy of `file` must hold: the master, under a line saying where it comes from. */
function expectedCopy(app, file) {
  const master = readFileSync(path.join(root, MASTER.dir, file), 'utf8');
  if (file.endsWith('.json')) return master;
  if (file === 'Dockerfile') {
    const own = master.replaceAll(MASTER.name, app.name).replaceAll(MASTER.port, app.port);
    // Docker reads a `# syntax=` directive only on the first line: the header goes under it.
    const [first, ...rest] = own.split('\n');
    return first.startsWith('# syntax=')
      ? [first, `# ${generatedFrom(file)}`, ...rest].join('\n')
      : `# ${generatedFrom(file)}\n${own}`;
  }
  return `// ${generatedFrom(file)}\n${master}`;
}

/** Every copy whose content is not its master's (a missing copy included). */
function staleCopies() {
  return COPIES.flatMap((app) =>
    COPIED_FILES.filter((file) => {
      const copy = path.join(root, app.dir, file);
      return !existsSync(copy) || readFileSync(copy, 'utf8') !== expectedCopy(app, file);
    }).map((file) => ({ app, file })),
  );
}

const args = process.argv.slice(2);
if (args.length > 1 || (args.length === 1 && args[0] !== '--check')) {
  console.error('usage: sync-copies.mjs [--check]');
  process.exit(2);
}

const stale = staleCopies();
if (args[0] === '--check') {
  if (stale.length > 0) {
    console.error(`These copies differ from their master in ${MASTER.dir} (run \`npm run sync:copies\`):`);
    for (const { app, file } of stale) console.error(`  ${app.dir}/${file}`);
    process.exit(1);
  }
  console.log(`${COPIES.length * COPIED_FILES.length} copies match ${MASTER.dir}`);
} else {
  for (const { app, file } of stale) {
    const target = path.join(root, app.dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, expectedCopy(app, file));
    console.log(`wrote ${app.dir}/${file}`);
  }
  if (stale.length === 0) console.log('every copy is up to date');
}
