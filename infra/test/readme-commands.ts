import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './k8s-manifests';

/** Every README.md of the repository (not dependencies, build output or local data). */
export function listReadmes(dir = repoRoot): string[] {
  const skipped = new Set(['node_modules', '.git', '.tools', '.turbo', 'dist', 'data']);
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      if (entry.isDirectory()) return skipped.has(entry.name) ? [] : listReadmes(path.join(dir, entry.name));
      return entry.name === 'README.md' ? [path.join(dir, entry.name)] : [];
    })
    .sort();
}

export interface ShellBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The block's text, unchanged. */
  text: string;
}

/** The fenced blocks marked sh, bash, shell or console. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  const fence = /^( *)```(sh|bash|shell|console)[^\S\n]*\n([\s\S]*?)^\1```[^\S\n]*$/gm;
  for (const match of markdown.matchAll(fence)) {
    const indent = match[1]!.length;
    const text = match[3]!
      .split('\n')
      .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
      .join('\n');
    blocks.push({ line: markdown.slice(0, match.index).split('\n').length, text });
  }
  return blocks;
}

/** The commands of a shell block: continuation lines joined, comments and output lines dropped. */
export function blockCommands(block: string): string[] {
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
}

/** Inline code spans of the prose (outside fenced blocks) that are a command: a tool and its arguments. */
export function inlineCommands(markdown: string): string[] {
  const prose = markdown.replace(/^( *)```[\s\S]*?^\1```/gm, '');
  return (
    [...prose.matchAll(/`([^`]+)`/g)]
      .map((match) => match[1]!.replace(/\s+/g, ' ').trim())
      // A tool's name alone is a mention; with arguments it is a command to run.
      .filter((span) => /^(?:[A-Z_]+=\S* )*(pnpm|pnpx|npx|npm|kustomize|yarn) \S/.test(span))
  );
}

/** The simple commands of one command line: split at `&&`, `||`, `;`, `|` and `$(`. */
export function simpleCommands(line: string): string[][] {
  return line
    .split(/&&|\|\||;|\||\$\(|\)|&$/)
    .map((part) =>
      part
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        // Leading VAR=value assignments (and `export`) belong to the shell, not to the command.
        .filter(
          (word, index, words) =>
            !words.slice(0, index + 1).every((w) => /^(export|[A-Z_][A-Z0-9_]*=.*)$/.test(w)),
        ),
    )
    .filter((words) => words.length > 0);
}

/** Scripts of the package.json in `dir` (relative to the repository root). */
export function packageScripts(dir: string): Record<string, string> {
  const file = path.join(repoRoot, dir, 'package.json');
  if (!existsSync(file)) return {};
  return (JSON.parse(readFileSync(file, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
}

/**
 * Why one command would fail on a fresh machine with only Node and npm, or undefined when it
 * would not: pnpm, yarn and kustomize are not there, npx would fetch whatever it is given from
 * the registry, and `npm run X` needs X in the package.json of the folder it runs in.
 */
export function commandProblem(words: string[], cwd: string): string | undefined {
  const [command, ...args] = words;
  if (command === 'pnpm' || command === 'pnpx' || command === 'yarn')
    return `${command} is not installed on a fresh machine; use a root npm script`;
  if (command === 'npx') return 'npx downloads a missing tool from the registry; use an npm script';
  if (command === 'kustomize') return 'kustomize is not installed; `kubectl kustomize` is';
  if (command !== 'npm') return undefined;
  const scriptArgs = args.filter((arg) => !/^(-s|--silent)$/.test(arg));
  const [sub, script] = scriptArgs;
  const scripts = packageScripts(cwd);
  if (sub === 'run' || sub === 'run-script') {
    if (!script) return undefined;
    return script in scripts ? undefined : `${cwd || '.'}/package.json has no script "${script}"`;
  }
  if (sub === 'start' || sub === 'test')
    return sub in scripts ? undefined : `${cwd || '.'}/package.json has no script "${sub}"`;
  return undefined;
}
