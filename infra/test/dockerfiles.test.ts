import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IPodSpec } from './k8s-manifests';
import {
  fixturesRoot,
  listOverlays,
  listServices,
  podSpecOf,
  renderKustomization,
  repoRoot,
} from './k8s-manifests';
import type { Stage } from './dockerfile-check';
import { buildContextFiles, dockerfileProblems, parseDockerfile } from './dockerfile-check';

// Docker cannot run on the development machines: these checks parse the
// Dockerfiles (dockerfile-ast), hold them to the build context, package.json
// and the Kubernetes manifests, and .ci/run builds what they describe
// without Docker (infra/scripts/build-without-docker.mjs).

const rootPackage = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  packageManager: string;
};
const pinnedPnpm = rootPackage.packageManager.replace(/^pnpm@/, '');

/** The pod of the service's production Deployment, as kustomize renders it. */
function deploymentPod(service: string): IPodSpec | undefined {
  const overlay = listOverlays().find(
    (candidate) => candidate.service === service && candidate.environment === 'production',
  );
  const deployment =
    overlay && renderKustomization(overlay.dir).find((object) => object.kind === 'Deployment');
  return deployment && podSpecOf(deployment);
}

describe('.dockerignore', () => {
  const lines = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));

  it('leaves out installed, built and local-only files', () => {
    expect(lines).toEqual(
      expect.arrayContaining([
        '.git',
        '.tools',
        '.turbo',
        'node_modules',
        '**/node_modules',
        'dist',
        '**/dist',
        'data',
      ]),
    );
  });

  it('keeps what the image build reads', () => {
    for (const needed of [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'apps',
      'packages',
      'prisma',
      'src',
    ]) {
      expect(lines).not.toContain(needed);
      expect(lines).not.toContain(`**/${needed}`);
    }
  });
});

describe.each(listServices())('apps/%s/Dockerfile', (service) => {
  const file = path.join(repoRoot, 'apps', service, 'Dockerfile');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const { stages } = parseDockerfile(text);
  const all = stages.flatMap((stage) => stage.instructions);
  const runs = all
    .filter((instruction) => instruction.keyword === 'RUN')
    .map((instruction) => instruction.text);
  const runtime = stages.at(-1);
  const last = (keyword: string) =>
    runtime?.instructions.filter((instruction) => instruction.keyword === keyword).at(-1)?.text;
  const envOf = (stage: Stage | undefined) =>
    Object.fromEntries(
      (stage?.instructions ?? [])
        .filter((instruction) => instruction.keyword === 'ENV')
        .flatMap((instruction) =>
          [...instruction.text.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((match) => [match[1], match[2]]),
        ),
    ) as Record<string, string>;
  const appPackage = JSON.parse(
    readFileSync(path.join(repoRoot, 'apps', service, 'package.json'), 'utf8'),
  ) as {
    scripts: Record<string, string>;
  };
  const pod = deploymentPod(service);
  const app = pod?.containers.find((container) => container.name === service);

  it('exists and builds in several stages', () => {
    expect(existsSync(file)).toBe(true);
    expect(stages.length).toBeGreaterThanOrEqual(2);
  });

  it('starts every stage from node:20-bookworm-slim (or an earlier stage)', () => {
    const names = new Set<string>();
    for (const stage of stages) {
      expect(names.has(stage.image) || stage.image === 'node:20-bookworm-slim').toBe(true);
      if (stage.name) names.add(stage.name);
    }
  });

  it('agrees with its build context: sources, stages, user, NODE_ENV, and the commands it runs', () => {
    const migrate = pod?.initContainers?.find((container) => container.name === 'migrate');
    expect(migrate?.command).toEqual(['node', 'dist/db/migrate-command.js']);
    expect(dockerfileProblems(text, { contextDir: repoRoot, commands: [migrate!.command!] })).toEqual([]);
  });

  it('installs the pnpm version package.json pins', () => {
    const versionArg = all.find(
      (instruction) => instruction.keyword === 'ARG' && instruction.text.startsWith('PNPM_VERSION='),
    );
    const version = versionArg?.text.replace('PNPM_VERSION=', '');
    expect(version).toBe(pinnedPnpm);
    expect(runs.some((run) => /npm install --global .*"?pnpm@\$\{PNPM_VERSION\}"?/.test(run))).toBe(true);
  });

  it('installs, generates and builds only the app and its workspace dependencies, from the lockfile', () => {
    expect(
      runs.some(
        (run) =>
          run.includes('pnpm install') &&
          run.includes('--frozen-lockfile') &&
          run.includes(`--filter "${service}..."`),
      ),
    ).toBe(true);
    expect(appPackage.scripts['db:generate']).toBeDefined();
    expect(appPackage.scripts.build).toBeDefined();
    expect(runs.some((run) => run.includes(`pnpm --filter "${service}..." run db:generate`))).toBe(true);
    expect(runs.some((run) => run.includes(`pnpm --filter "${service}..." run build`))).toBe(true);
  });

  it('deploys the production dependencies of the app alone', () => {
    const deploy = runs.find((run) => / deploy /.test(run));
    expect(deploy).toContain(`--filter ${service} `);
    expect(deploy).toContain('--prod');
    // pnpm 10 deploys only injected workspace packages, or in legacy mode.
    expect(deploy).toMatch(/--config\.inject-workspace-packages=true|--legacy/);
  });

  it('runs the app as a numeric non-root user, the same as the Deployment', () => {
    const user = last('USER');
    expect(user).toMatch(/^\d+(:\d+)?$/);
    const uid = Number(user!.split(':')[0]);
    expect(uid).toBeGreaterThan(0);
    expect(pod?.securityContext?.runAsUser).toBe(uid);
  });

  it('starts like `pnpm start`, in production mode, on the port the manifests use', () => {
    expect(JSON.parse(last('CMD') ?? 'null')).toEqual(['node', 'dist/main.js']);
    // The local start script only picks the port (PROJECT_SERVICE_PORT, …) before the same command.
    expect(appPackage.scripts.start).toMatch(/(^|\s)node dist\/main\.js$/);
    expect(envOf(runtime).NODE_ENV).toBe('production');
    const port = Number(envOf(runtime).PORT);
    expect(last('EXPOSE')).toBe(String(port));
    expect(app?.ports?.map((containerPort) => containerPort.containerPort)).toEqual([port]);
  });

  it('carries the compiled app and the Prisma schema and migrations the migrate command reads', () => {
    const copies = (runtime?.instructions ?? [])
      .filter((instruction) => instruction.keyword === 'COPY')
      .map((instruction) => instruction.text);
    expect(copies).toContainEqual(expect.stringMatching(new RegExp(`apps/${service}/dist \\./dist$`)));
    expect(copies).toContainEqual(expect.stringMatching(new RegExp(`apps/${service}/prisma \\./prisma$`)));
    expect(copies).toContainEqual(expect.stringMatching(/ \.\/node_modules$/));
    // The migrate script of the package is what the init container runs.
    const migrate = pod?.initContainers?.find((container) => container.name === 'migrate');
    expect(migrate?.command?.join(' ')).toBe(appPackage.scripts['db:migrate']);
  });
});

describe('the Dockerfile check', () => {
  it('sends Docker the sources and no installed or built files', () => {
    const files = buildContextFiles(repoRoot);
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'pnpm-lock.yaml', 'apps/project-service/src/main.ts']),
    );
    expect(files.filter((file) => /(^|\/)(node_modules|dist|\.git)\//.test(file))).toEqual([]);
  });

  it('refuses the broken fixture (test/fixtures/broken.Dockerfile)', () => {
    const text = readFileSync(path.join(fixturesRoot, 'broken.Dockerfile'), 'utf8');
    const problems = dockerfileProblems(text, {
      contextDir: repoRoot,
      commands: [['node', 'bin/migrate.js']],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'COPY .npmrc: not in the build context (after .dockerignore)',
        'COPY --from=bulid: no earlier stage of that name',
        'final stage: USER root is not a numeric non-root user',
        'final stage: NODE_ENV is not production',
        'node dist/server.js: the build produces no dist/server.js (no TypeScript source compiles to it)',
        'node bin/migrate.js: bin/migrate.js is not copied into the final image from a build stage',
      ]),
    );
  });
});
