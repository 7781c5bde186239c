// Driven by scripts/fault-test.sh, which owns the PostgreSQL cluster (and removes it).
// Per service: start the built service on the cluster, write, stop the cluster, probe, start it,
// probe, write, freeze it (SIGSTOP), probe, thaw it (SIGCONT), probe, check every write.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { PG_BIN, PGDATA, FAULT_PG_PORT: PORT, FAULT_WORK: WORK } = process.env;
const CONNECT_TIMEOUT_MS = 2000;
const STATEMENT_TIMEOUT_MS = 3000;
const READINESS_TIMEOUT_MS = 1000;
// The longest a request may wait for its 503: a statement timeout, the client's read margin (1 s),
// and slack for the machine.
const LONGEST_ALLOWED_WAIT_MS = STATEMENT_TIMEOUT_MS + 1000 + 1500;
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
      return call('GET', `/projects?slug=fault-${n}`, undefined, this.headers);
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
      DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      DATABASE_READINESS_TIMEOUT_MS: String(READINESS_TIMEOUT_MS),
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

/** The requests of one outage, all at once: reads, writes and the readiness probe. */
async function duringOutage(name, phase, service, call, nextWrite) {
  const started = performance.now();
  const attempts = await Promise.all([
    service.read(call, 1),
    service.read(call, 2),
    service.write(call, nextWrite),
    call('GET', '/readyz'),
    call('GET', '/livez'),
  ]);
  const [read1, read2, write, readyz, livez] = attempts;
  const longest = Math.max(...attempts.map((attempt) => attempt.ms));
  rows.push({
    service: name,
    phase,
    reads: `${read1.status} ${read2.status}`,
    write: write.status,
    readyz: readyz.status,
    livez: livez.status,
    'longest wait (ms)': Math.round(longest),
  });
  for (const [what, response] of [
    ['read', read1],
    ['read', read2],
    ['write', write],
  ]) {
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
  rows.push({
    service: name,
    phase,
    reads: response.status,
    write: '',
    readyz: (await call('GET', '/readyz')).status,
    livez: '',
    'longest wait (ms)': Math.round(performance.now() - started),
  });
  check(service.found(response), `${name} ${phase}: no recovery within 20 s (last ${response.status})`);
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
