// Driven by scripts/fault-test.sh, which owns the PostgreSQL cluster (and removes it).
// Per service: start the built service on the cluster, write, stop the cluster, probe, start it,
// probe, write, freeze it (SIGSTOP), probe, thaw it (SIGCONT), probe, check every write.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { PG_BIN, PGDATA, FAULT_PG_PORT: PORT, FAULT_WORK: WORK } = process.env;
// The services run with their DEFAULT database settings (no DATABASE_*_MS variable): what an
// operator who sets nothing gets. The operations contract: no request waits more than 10 s for the
// database before its 503 (pool wait, connect and statement together), and /readyz agrees with
// the requests. Slack for a loaded machine on top.
const READINESS_TIMEOUT_MS = 2000;
const POOL_MAX = 10;
const LONGEST_ALLOWED_WAIT_MS = 10_000 + 1000;
const isRoot = process.getuid?.() === 0;

function asPostgres(command) {
  const args = isRoot ? ['su', 'postgres', '-s', '/bin/bash', '-c', command] : ['bash', '-c', command];
  execFileSync(args[0], args.slice(1), { stdio: 'ignore' });
}
const pgCtl = (action) =>
  asPostgres(
    `${PG_BIN}/pg_ctl -D ${PGDATA} -o '-p ${PORT} -k ${WORK} -c listen_addresses=127.0.0.1' -l ${WORK}/postgres.log -w -m fast ${action}`,
  );
function clusterPids() {
  const postmaster = Number(
    execFileSync('head', ['-n', '1', `${PGDATA}/postmaster.pid`])
      .toString()
      .trim(),
  );
  const children = execFileSync('pgrep', ['-P', String(postmaster)])
    .toString()
    .trim()
    .split('\n')
    .map(Number);
  return [postmaster, ...children];
}
const signalCluster = (signal) => clusterPids().forEach((pid) => process.kill(pid, signal));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const services = {
  'project-service': {
    env: { JWT_SECRET: 'fault-test-secret-0123456789', ADMIN_PRINCIPALS: 'fault-admin' },
    async setup(call) {
      const require = createRequire(path.join(root, 'apps/project-service/package.json'));
      const jwt = require('jsonwebtoken');
      this.headers = {
        Authorization: `Bearer ${jwt.sign({ principal: 'fault-admin' }, 'fault-test-secret-0123456789', { expiresIn: '1h' })}`,
      };
      const listed = await call('GET', '/projects?slug=root', undefined, this.headers);
      this.root = listed.json.projects[0].uid;
    },
    write(call, n) {
      return call(
        'POST',
        '/projects',
        { slug: `fault-${n}`, name: `Fault ${n}`, description: '', parent_uid: this.root },
        this.headers,
      );
    },
    read(call, n) {
      // Paged, so a burst of reads is not refused (429) by the bound on concurrent unpaged lists.
      return call('GET', `/projects?slug=fault-${n}&page_size=10`, undefined, this.headers);
    },
    found: (response) => response.status === 200 && response.json.projects.length === 1,
  },
  'code-hosting-api': {
    env: { ADMIN_USERNAME: 'fault-admin', ADMIN_PASSWORD: 'fault-admin-password', PASSWORD_HASH_COST: '16' },
    async setup() {
      this.headers = {
        Authorization: `Basic ${Buffer.from('fault-admin:fault-admin-password').toString('base64')}`,
      };
    },
    write(call, n) {
      return call('POST', '/api/v1/orgs', { username: `fault-org-${n}` }, this.headers);
    },
    read(call, n) {
      return call('GET', `/api/v1/orgs/fault-org-${n}`, undefined, this.headers);
    },
    found: (response) => response.status === 200,
  },
};

function startService(name, databaseUrl) {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: path.join(root, 'apps', name),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      SHUTDOWN_DRAIN_MS: '0',
      ...services[name].env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const port = new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output = (output + chunk).slice(-20_000);
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    exited.then((code) => reject(new Error(`${name} exited (${code}) before listening:\n${output}`)));
  });
  return { child, exited, port };
}

function caller(baseUrl) {
  return async (method, pathname, body, headers = {}) => {
    const started = performance.now();
    try {
      const response = await fetch(baseUrl + pathname, {
        method,
        headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return {
        status: response.status,
        json,
        retryAfter: response.headers.get('retry-after'),
        ms: performance.now() - started,
      };
    } catch (error) {
      return { status: `error ${error.cause?.code ?? error.name}`, ms: performance.now() - started };
    }
  };
}

const progress = (message) => process.stderr.write(`  .. ${message}\n`);
const rows = [];
const failures = [];
function check(condition, message) {
  if (!condition) failures.push(message);
}

/**
 * The requests of one outage, all at once: more reads than the pool has connections (some take
 * an idle connection and wait on their statement, some open a connection, some wait for a free
 * one), a write and the probes; then, while requests are still stuck, the probe again.
 */
async function duringOutage(name, phase, service, call, nextWrite) {
  const started = performance.now();
  const reads = Array.from({ length: POOL_MAX + 2 }, (_, index) => service.read(call, (index % 2) + 1));
  const write = service.write(call, nextWrite);
  const probes = Promise.all([call('GET', '/readyz'), call('GET', '/livez')]);
  // Half way through the longest allowed wait: the probe must still say 503.
  const laterReadyz = sleep(LONGEST_ALLOWED_WAIT_MS / 2).then(() => call('GET', '/readyz'));
  const [readResults, writeResult, [readyz, livez], later] = await Promise.all([
    Promise.all(reads),
    write,
    probes,
    laterReadyz,
  ]);
  const attempts = [...readResults, writeResult, readyz, livez];
  const longest = Math.max(...attempts.map((attempt) => attempt.ms));
  const statuses = [...new Set(readResults.map((read) => read.status))].join(' ');
  rows.push({
    service: name,
    phase,
    reads: statuses,
    write: writeResult.status,
    readyz: `${readyz.status} ${later.status}`,
    livez: livez.status,
    'longest wait (ms)': Math.round(longest),
  });
  check(later.status === 503, `${name} ${phase}: /readyz answered ${later.status} while requests got 503`);
  for (const [what, response] of [...readResults.map((read) => ['read', read]), ['write', writeResult]]) {
    check(response.status === 503, `${name} ${phase}: ${what} answered ${response.status}, not 503`);
    check(response.retryAfter !== null, `${name} ${phase}: ${what} 503 without Retry-After`);
    check(
      typeof response.json?.message === 'string',
      `${name} ${phase}: ${what} 503 without the documented error body`,
    );
  }
  check(readyz.status === 503, `${name} ${phase}: /readyz answered ${readyz.status}`);
  check(
    readyz.ms < READINESS_TIMEOUT_MS + 1000,
    `${name} ${phase}: /readyz took ${Math.round(readyz.ms)} ms`,
  );
  check(livez.status === 200, `${name} ${phase}: /livez answered ${livez.status}`);
  check(longest <= LONGEST_ALLOWED_WAIT_MS, `${name} ${phase}: a request waited ${Math.round(longest)} ms`);
  return performance.now() - started;
}

/** After the outage, the same service (not restarted) answers again within a few seconds. */
async function recovered(name, phase, service, call) {
  const started = performance.now();
  let response;
  do {
    response = await service.read(call, 1);
    if (service.found(response)) break;
    await sleep(250);
  } while (performance.now() - started < 20_000);
  const readyz = await call('GET', '/readyz');
  rows.push({
    service: name,
    phase,
    reads: response.status,
    write: '',
    readyz: readyz.status,
    livez: '',
    'longest wait (ms)': Math.round(performance.now() - started),
  });
  check(service.found(response), `${name} ${phase}: no recovery within 20 s (last ${response.status})`);
  // Agreement: once requests succeed again, so does the probe.
  check(readyz.status === 200, `${name} ${phase}: /readyz answered ${readyz.status} while requests succeed`);
}

for (const name of (process.env.FAULT_SERVICES ?? Object.keys(services).join(' ')).split(' ')) {
  const database = `${name.replace(/-/g, '_')}_fault`;
  asPostgres(`${PG_BIN}/psql -h 127.0.0.1 -p ${PORT} -U postgres -qc 'CREATE DATABASE ${database}'`);
  const databaseUrl = `postgresql://postgres@127.0.0.1:${PORT}/${database}`;
  const running = startService(name, databaseUrl);
  const port = await running.port;
  const call = caller(`http://127.0.0.1:${port}`);
  const service = services[name];
  try {
    progress(`${name}: listening on ${port}`);
    await service.setup(call);
    const acknowledged = [];
    let n = 0;
    const writeSome = async (count) => {
      for (let i = 0; i < count; i++) {
        const response = await service.write(call, ++n);
        check(response.status === 201, `${name}: write ${n} answered ${response.status}`);
        if (response.status === 201) acknowledged.push(n);
      }
    };
    await writeSome(5);
    rows.push({
      service: name,
      phase: 'before',
      reads: (await service.read(call, 1)).status,
      write: 201,
      readyz: (await call('GET', '/readyz')).status,
      livez: 200,
      'longest wait (ms)': '',
    });

    progress(`${name}: stopping the cluster`);
    pgCtl('stop');
    await duringOutage(name, 'stopped', service, call, 1000);
    progress(`${name}: starting the cluster`);
    pgCtl('start');
    await recovered(name, 'restarted', service, call);
    await writeSome(5);

    progress(`${name}: freezing the cluster`);
    signalCluster('SIGSTOP');
    try {
      await duringOutage(name, 'frozen', service, call, 2000);
    } finally {
      signalCluster('SIGCONT');
    }
    await recovered(name, 'thawed', service, call);
    await writeSome(2);

    const missing = [];
    for (const k of acknowledged) if (!service.found(await service.read(call, k))) missing.push(k);
    check(missing.length === 0, `${name}: acknowledged writes missing: ${missing.join(', ')}`);
    rows.push({
      service: name,
      phase: 'every write kept',
      reads: `${acknowledged.length - missing.length}/${acknowledged.length}`,
      write: '',
      readyz: '',
      livez: '',
      'longest wait (ms)': '',
    });
  } finally {
    running.child.kill('SIGTERM');
    const code = await running.exited;
    check(code === 0, `${name}: exited ${code} on SIGTERM`);
  }
}

console.table(rows);
if (failures.length > 0) {
  console.error(`fault test FAILED:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('fault test passed');
