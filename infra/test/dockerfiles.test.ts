import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IPodSpec } from './k8s-manifests';
import { basesRoot, k8sRoot, listServices, podSpecOf, readYamlDocuments, repoRoot } from './k8s-manifests';

// Docker cannot run on the development machines: these checks read the
// Dockerfiles and hold them to package.json and to the Kubernetes manifests.

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions, with comments dropped and continuation lines joined, grouped by stage. */
function parseDockerfile(text: string): { globalArgs: Instruction[]; stages: Stage[] } {
  const logicalLines: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (/\\\s*$/.test(line)) {
      pending += line.replace(/\\\s*$/, ' ');
      continue;
    }
    const joined = (pending + line).trim();
    pending = '';
    if (joined) logicalLines.push(joined);
  }
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const line of logicalLines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = instruction.args.split(' ');
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0) {
      globalArgs.push(instruction);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

const rootPackage = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  packageManager: string;
};
const pinnedPnpm = rootPackage.packageManager.replace(/^pnpm@/, '');
const manifests = readYamlDocuments(k8sRoot);

function deploymentPod(service: string): IPodSpec | undefined {
  const deployment = manifests.find(
    (document) =>
      document.object.kind === 'Deployment' &&
      document.object.metadata?.name === service &&
      path.resolve(repoRoot, document.file).startsWith(path.join(basesRoot, service) + path.sep),
  );
  return deployment && podSpecOf(deployment.object);
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
      '.npmrc',
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
  const { globalArgs, stages } = existsSync(file)
    ? parseDockerfile(readFileSync(file, 'utf8'))
    : { globalArgs: [], stages: [] };
  const all = stages.flatMap((stage) => stage.instructions);
  const runs = all
    .filter((instruction) => instruction.keyword === 'RUN')
    .map((instruction) => instruction.args);
  const runtime = stages.at(-1);
  const last = (keyword: string) =>
    runtime?.instructions.filter((instruction) => instruction.keyword === keyword).at(-1)?.args;
  const envOf = (stage: Stage | undefined) =>
    Object.fromEntries(
      (stage?.instructions ?? [])
        .filter((instruction) => instruction.keyword === 'ENV')
        .flatMap((instruction) =>
          [...instruction.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((match) => [match[1], match[2]]),
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
    const nodeImage = globalArgs.find(
      (instruction) => instruction.keyword === 'ARG' && instruction.args.startsWith('NODE_IMAGE='),
    );
    const names = new Set<string>();
    for (const stage of stages) {
      const image = stage.from === '${NODE_IMAGE}' ? nodeImage?.args.replace('NODE_IMAGE=', '') : stage.from;
      expect(names.has(image ?? '') || image === 'node:20-bookworm-slim').toBe(true);
      if (stage.name) names.add(stage.name);
    }
  });

  it('installs the pnpm version package.json pins', () => {
    const versionArg = all.find(
      (instruction) => instruction.keyword === 'ARG' && instruction.args.startsWith('PNPM_VERSION='),
    );
    const version = versionArg?.args.replace('PNPM_VERSION=', '');
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
      .map((instruction) => instruction.args);
    expect(copies).toContainEqual(expect.stringMatching(new RegExp(`apps/${service}/dist \\./dist$`)));
    expect(copies).toContainEqual(expect.stringMatching(new RegExp(`apps/${service}/prisma \\./prisma$`)));
    expect(copies).toContainEqual(expect.stringMatching(/ \.\/node_modules$/));
    // The migrate script of the package is what the init container runs.
    const migrate = pod?.initContainers?.find((container) => container.name === 'migrate');
    expect(migrate?.command?.join(' ')).toBe(appPackage.scripts['db:migrate']);
  });
});
