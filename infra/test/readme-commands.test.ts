import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  blockCommands,
  commandProblem,
  inlineCommands,
  listReadmes,
  shellBlocks,
  simpleCommands,
} from './readme-commands';
import { repoRoot } from './k8s-manifests';

// Every command a README shows must run as written on a machine with only Node and npm.
// Commands run from the repository root unless the block itself changes folder.
const readmes = listReadmes().map((file) => path.relative(repoRoot, file));

function problemsOf(relativeFile: string): string[] {
  const markdown = readFileSync(path.join(repoRoot, relativeFile), 'utf8');
  const problems: string[] = [];
  for (const block of shellBlocks(markdown)) {
    let cwd = '';
    let previous = '';
    for (const line of blockCommands(block.text)) {
      for (const words of simpleCommands(line)) {
        if (words[0] === 'cd') {
          const target = words[1] ?? '';
          [cwd, previous] = target === '-' ? [previous, cwd] : [path.posix.join(cwd, target), cwd];
          continue;
        }
        const problem = commandProblem(words, cwd);
        if (problem) problems.push(`${relativeFile}:${block.line}: \`${words.join(' ')}\`: ${problem}`);
      }
    }
  }
  for (const span of inlineCommands(markdown)) {
    for (const words of simpleCommands(span)) {
      const problem = commandProblem(words, '');
      if (problem) problems.push(`${relativeFile}: \`${span}\`: ${problem}`);
    }
  }
  return problems;
}

describe('README commands', () => {
  it('finds the READMEs of the root, the apps, the packages and infra', () => {
    expect(readmes).toEqual(
      expect.arrayContaining([
        'README.md',
        'apps/code-hosting-api/README.md',
        'apps/project-service/README.md',
        'infra/README.md',
        'packages/http-errors/README.md',
      ]),
    );
  });

  it.each(readmes)('%s shows only commands that run with Node and npm alone', (file) => {
    expect(problemsOf(file)).toEqual([]);
  });

  it('refuses the commands a fresh machine cannot run', () => {
    expect(commandProblem(['pnpm', 'run', 'build'], '')).toMatch(/pnpm is not installed/);
    expect(commandProblem(['npx', 'tsx', 'x.ts'], '')).toMatch(/npx/);
    expect(commandProblem(['kustomize', 'edit'], '')).toMatch(/kubectl kustomize/);
    expect(commandProblem(['npm', 'run', 'no-such-script'], '')).toMatch(/no script "no-such-script"/);
    expect(commandProblem(['npm', 'run', '-s', 'admin'], '')).toBeUndefined();
    expect(commandProblem(['npm', 'start'], 'apps/project-service')).toBeUndefined();
    expect(simpleCommands('TOKEN=$(pnpm -s admin create-token) && echo ok')).toEqual([
      ['pnpm', '-s', 'admin', 'create-token'],
      ['echo', 'ok'],
    ]);
  });
});
