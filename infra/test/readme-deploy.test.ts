import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { IPodSpec, KubeObject } from './k8s-manifests';
import { podSpecOf, repoRoot } from './k8s-manifests';
import { blockCommands, shellBlocks, simpleCommands } from './readme-commands';

// infra/README.md's deploy commands, run as written from the repository root, with `docker` and
// `kubectl` replaced by stand-ins: `kubectl kustomize` is the real one, `kubectl apply -k` renders
// with it, and whatever would reach the cluster or a registry is recorded instead.
const readme = readFileSync(path.join(repoRoot, 'infra', 'README.md'), 'utf8');
const realKubectl = execFileSync('bash', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim();

function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`infra/README.md has no "${heading}"`);
  const level = heading.split(' ')[0]!;
  const next = readme.slice(start + heading.length + 2).search(new RegExp(`^#{2,${level.length}} `, 'm'));
  return readme.slice(start, next < 0 ? undefined : start + heading.length + 2 + next);
}

const blocksOf = (markdown: string) => shellBlocks(markdown).map((block) => block.text);

interface Recorded {
  applied: KubeObject[];
  /** Every other docker and kubectl command line, as its words. */
  commands: string[][];
  stderr: string;
  code: number | null;
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'readme-deploy-'));
  const bin = path.join(work, 'bin');
  execFileSync('mkdir', ['-p', bin]);
  // Each stand-in appends one JSON line per call: the arguments, and for applies the YAML sent.
  writeFileSync(
    path.join(bin, 'kubectl'),
    `#!/usr/bin/env bash
set -euo pipefail
if [ "$1" = kustomize ]; then exec "${realKubectl}" "$@"; fi
if [ "$1" = apply ] && [ "$2" = -k ]; then "${realKubectl}" kustomize "$3" >> "$RECORD/applied.yaml"; echo --- >> "$RECORD/applied.yaml"; exit 0; fi
if [ "$1" = apply ] && [ "$2" = -f ] && [ "$3" = - ]; then cat >> "$RECORD/applied.yaml"; echo --- >> "$RECORD/applied.yaml"; exit 0; fi
node -e 'console.log(JSON.stringify(process.argv.slice(1)))' kubectl "$@" >> "$RECORD/commands.jsonl"
`,
  );
  writeFileSync(
    path.join(bin, 'docker'),
    `#!/usr/bin/env bash
set -euo pipefail
node -e 'console.log(JSON.stringify(process.argv.slice(1)))' docker "$@" >> "$RECORD/commands.jsonl"
`,
  );
  chmodSync(path.join(bin, 'kubectl'), 0o755);
  chmodSync(path.join(bin, 'docker'), 0o755);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let runs = 0;
function run(script: string): Recorded {
  const record = path.join(work, `run-${++runs}`);
  execFileSync('mkdir', ['-p', record]);
  // --norc and no stdin: under turbo stdin is a socket, and Debian's bash then reads
  // /etc/bash.bashrc, which fails under -u (PS1 unbound).
  const result = spawnSync('bash', ['--norc', '-euo', 'pipefail', '-c', script], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${path.join(work, 'bin')}:${process.env.PATH}`, RECORD: record },
    encoding: 'utf8',
  });
  const read = (file: string) =>
    existsSync(path.join(record, file)) ? readFileSync(path.join(record, file), 'utf8') : '';
  return {
    applied: parseAllDocuments(read('applied.yaml')).flatMap((document) => {
      const object: unknown = document.toJS();
      return object ? [object as KubeObject] : [];
    }),
    commands: read('commands.jsonl')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as string[]),
    stderr: result.stderr,
    code: result.status,
  };
}

const imagesOf = (objects: KubeObject[]) =>
  objects.flatMap((object) => {
    const pod: IPodSpec | undefined = podSpecOf(object);
    return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])].map((container) => container.image);
  });
const kindsOf = (objects: KubeObject[]) => [...new Set(objects.map((object) => object.kind))].sort();

describe('infra/README.md, "Deploy one service from zero"', () => {
  const deploy = section('## Deploy one service from zero');
  // Step 7 (verify) needs a running cluster: port-forward and curl.
  const steps = blocksOf(deploy).filter((block) => !block.includes('port-forward'));

  it('uses kubectl alone: no kustomize binary, and every kubectl kustomize / apply -k folder exists', () => {
    const words = steps.flatMap((block) => blockCommands(block).flatMap(simpleCommands));
    expect(words.filter((command) => command[0] === 'kustomize')).toEqual([]);
    const folders = words
      .filter((command) => command[0] === 'kubectl' && (command[1] === 'kustomize' || command[2] === '-k'))
      .map((command) => command.at(-1)!)
      .filter((folder) => !folder.includes('$'));
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders)
      expect(existsSync(path.join(repoRoot, folder, 'kustomization.yaml'))).toBe(true);
  });

  it('builds the image from the app Dockerfile with the repository as context, and deploys exactly that image', () => {
    const recorded = run(steps.join('\n'));
    expect({ code: recorded.code, stderr: recorded.stderr }).toEqual({ code: 0, stderr: '' });
    const build = recorded.commands.find((command) => command[0] === 'docker' && command[1] === 'build')!;
    expect(build).toBeDefined();
    const file = build[build.indexOf('-f') + 1]!;
    const tag = build[build.indexOf('-t') + 1]!;
    expect(file).toBe('apps/project-service/Dockerfile');
    expect(existsSync(path.join(repoRoot, file))).toBe(true);
    expect(build.at(-1)).toBe('.');
    expect(tag).toMatch(/^registry\.example\.com\/team\/project-service:[0-9a-f]{7,}$/);
    expect(recorded.commands).toContainEqual(['docker', 'push', tag]);

    // The Deployment the apply step sent runs that image in both containers.
    const deployments = recorded.applied.filter(
      (object) => object.kind === 'Deployment' && object.metadata?.name === 'project-service',
    );
    expect(deployments.length).toBeGreaterThan(0);
    const piped = deployments.find((deployment) => imagesOf([deployment]).every((image) => image === tag));
    expect(piped && imagesOf([piped])).toEqual([tag, tag]);
    // The namespace, and production-plain from its own section, were applied too.
    expect(kindsOf(recorded.applied)).toEqual(expect.arrayContaining(['Namespace', 'Deployment', 'Cluster']));
    expect(recorded.commands).toContainEqual(
      expect.arrayContaining(['create', 'secret', 'project-service-secrets']),
    );
  });

  it.each([
    ['code-hosting-api', 'production'],
    ['code-hosting-api', 'production-plain'],
    ['project-service', 'production-plain'],
  ])('the same steps deploy %s with the %s overlay', (service, overlay) => {
    const imageSteps = steps.filter((block) => block.includes('$SERVICE'));
    const script = imageSteps
      .join('\n')
      .replace('SERVICE=project-service', `SERVICE=${service}`)
      .replace('OVERLAY=production ', `OVERLAY=${overlay} `);
    const recorded = run(script);
    expect({ code: recorded.code, stderr: recorded.stderr }).toEqual({ code: 0, stderr: '' });
    const tag = recorded.commands.find((command) => command[1] === 'push')![2]!;
    expect(tag).toContain(`/${service}:`);
    expect(imagesOf(recorded.applied)).toEqual([tag, tag]);
    const custom = recorded.applied.filter((object) => /cnpg\.io|coreos\.com/.test(object.apiVersion));
    expect(custom.length > 0).toBe(overlay === 'production');
  });
});

describe('infra/README.md, "Roll back"', () => {
  it('applies the older image with kubectl alone', () => {
    const blocks = blocksOf(section('## Roll back, scale, rotate')).filter((block) =>
      block.includes('IMAGE='),
    );
    expect(blocks).toHaveLength(1);
    const recorded = run(blocks[0]!);
    expect({ code: recorded.code, stderr: recorded.stderr }).toEqual({ code: 0, stderr: '' });
    const image = /^IMAGE=(\S+)/m.exec(blocks[0]!)![1]!;
    expect(imagesOf(recorded.applied)).toEqual([image, image]);
  });
});
