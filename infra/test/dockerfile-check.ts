// Checks a Dockerfile against its build context without a Docker engine:
// parsed with dockerfile-ast (the parser of the Docker language server), the
// context filtered by .dockerignore with @balena/dockerignore (Docker's own
// matching rules, ported from moby). What it proves is listed in
// dockerfileProblems; infra/scripts/build-without-docker.mjs then runs the
// build stage's commands for real.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ignore from '@balena/dockerignore';
import { DockerfileParser } from 'dockerfile-ast';

export interface Instruction {
  keyword: string;
  /** Arguments without flags (`--from=…`, `--chown=…`), quotes removed. */
  args: string[];
  /** The arguments as written, continuation lines joined. */
  text: string;
  from?: string;
}

export interface Stage {
  index: number;
  name?: string;
  image: string;
  instructions: Instruction[];
}

export interface ParsedDockerfile {
  /** ARG defaults declared before the first FROM. */
  globalArgs: Record<string, string>;
  stages: Stage[];
}

export function parseDockerfile(text: string): ParsedDockerfile {
  const dockerfile = DockerfileParser.parse(text);
  const globalArgs = Object.fromEntries(
    dockerfile.getInitialARGs().flatMap((arg) => {
      const property = arg.getProperty();
      return property ? [[property.getName(), property.getValue() ?? '']] : [];
    }),
  );
  const stages = dockerfile.getFROMs().map((from, index): Stage => {
    const image = (from.getImage() ?? '').replace(
      /^\$\{?(\w+)\}?$/,
      (_match, name: string) => globalArgs[name] ?? '',
    );
    return { index, name: from.getBuildStage() ?? undefined, image, instructions: [] };
  });
  const fromLines = dockerfile.getFROMs().map((from) => from.getRange().start.line);
  for (const instruction of dockerfile.getInstructions()) {
    const line = instruction.getRange().start.line;
    const stageIndex = fromLines.filter((fromLine) => fromLine < line).length - 1;
    if (stageIndex < 0 || instruction.getKeyword() === 'FROM') continue;
    const keyword = instruction.getKeyword();
    const fromFlag =
      'getFromFlag' in instruction
        ? (instruction as { getFromFlag(): { getValue(): string | null } | null }).getFromFlag()
        : null;
    stages[stageIndex]!.instructions.push({
      keyword,
      args: instruction
        .getArguments()
        .map((argument) => argument.getValue())
        .filter((value) => !/^--[\w-]+(=|$)/.test(value))
        .map((value) => value.replace(/^"(.*)"$/, '$1')),
      text: (instruction.getArgumentsContent() ?? '')
        .replace(/\\\r?\n/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
      from: fromFlag?.getValue() ?? undefined,
    });
  }
  return { globalArgs, stages };
}

/** The .dockerignore patterns of a build context. */
export function dockerignorePatterns(contextDir: string): string[] {
  const file = path.join(contextDir, '.dockerignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

/** Every file of the build context Docker would send: the folder less what .dockerignore excludes. */
export function buildContextFiles(contextDir: string): string[] {
  const patterns = dockerignorePatterns(contextDir);
  const matcher = ignore().add(patterns);
  // With no `!` exception, nothing under an ignored folder comes back: skip it whole.
  const canPrune = !patterns.some((pattern) => pattern.startsWith('!'));
  const files: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(contextDir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      const ignored = matcher.ignores(child);
      if (entry.isDirectory()) {
        if (!(ignored && canPrune)) walk(child);
      } else if (!ignored) {
        files.push(child);
      }
    }
  };
  walk('');
  return files.sort();
}

const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/^\.\//, '')
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')}(/.*)?$`,
  );

/** Whether a COPY/ADD source (path or glob, relative to the context) names at least one file there. */
export function sourceInContext(source: string, files: string[]): boolean {
  if (source === '.' || source === './') return files.length > 0;
  const pattern = globToRegExp(source.replace(/\/$/, ''));
  return files.some((file) => pattern.test(file));
}

/** What `tsc -p tsconfig.build.json` of a package writes: outDir ← rootDir. */
function compiledOutput(packageDir: string): { outDir: string; rootDir: string } | undefined {
  const manifest = path.join(packageDir, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const build = (JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> }).scripts
    ?.build;
  const project = /\btsc\b.*-p\s+(\S+)/.exec(build ?? '')?.[1];
  if (!project) return undefined;
  const tsconfig = JSON.parse(readFileSync(path.join(packageDir, project), 'utf8')) as {
    compilerOptions?: { outDir?: string; rootDir?: string };
  };
  const { outDir, rootDir } = tsconfig.compilerOptions ?? {};
  return outDir && rootDir
    ? { outDir: path.join(packageDir, outDir), rootDir: path.join(packageDir, rootDir) }
    : undefined;
}

/** The TypeScript source that compiles to `file` (absolute, under some package's outDir), if any. */
export function compiledFrom(contextDir: string, file: string): string | undefined {
  for (
    let dir = path.dirname(file);
    dir.startsWith(contextDir) && dir !== contextDir;
    dir = path.dirname(dir)
  ) {
    const output = compiledOutput(dir);
    if (!output || !file.startsWith(output.outDir + path.sep)) continue;
    const source = path.join(output.rootDir, path.relative(output.outDir, file)).replace(/\.js$/, '.ts');
    return existsSync(source) ? source : undefined;
  }
  return undefined;
}

export interface DockerfileCheck {
  contextDir: string;
  /** Commands the deployment runs in the final image besides CMD, e.g. ['node', 'dist/db/migrate-command.js']. */
  commands?: string[][];
}

const lastOf = (stage: Stage | undefined, keyword: string) =>
  stage?.instructions.filter((instruction) => instruction.keyword === keyword).at(-1);

function envOf(stages: Stage[], stage: Stage): Record<string, string> {
  const parent = stages.find((candidate) => candidate.name === stage.image && candidate.index < stage.index);
  const inherited = parent ? envOf(stages, parent) : {};
  const own = stage.instructions
    .filter((instruction) => instruction.keyword === 'ENV')
    .flatMap((instruction) =>
      [...instruction.text.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((match) => [
        match[1]!,
        match[2]!.replace(/^"|"$/g, ''),
      ]),
    );
  return { ...inherited, ...Object.fromEntries(own) };
}

/** The WORKDIR in force at the end of a stage (following the stage it starts from). */
function workdirOf(stages: Stage[], stage: Stage): string {
  const own = lastOf(stage, 'WORKDIR')?.args[0];
  if (own) return own;
  const parent = stages.find((candidate) => candidate.name === stage.image && candidate.index < stage.index);
  return parent ? workdirOf(stages, parent) : '/';
}

/**
 * Problems of a Dockerfile against its context:
 * - every stage starts from an image or an earlier stage; every `--from` names an earlier stage;
 * - every COPY/ADD source from the context exists there after .dockerignore;
 * - every source copied from an earlier stage is there: from the context the
 *   stage copied in, compiled by the build (a package's tsc outDir), or made
 *   by one of that stage's RUN commands;
 * - the final stage runs as a numeric non-root user with NODE_ENV=production;
 * - the files CMD and the given commands run are copied into the final image,
 *   compiled from sources that exist.
 */
export function dockerfileProblems(text: string, { contextDir, commands = [] }: DockerfileCheck): string[] {
  const problems: string[] = [];
  const { stages } = parseDockerfile(text);
  const files = buildContextFiles(contextDir);
  const final = stages.at(-1);
  if (!final) return ['no FROM: no stage at all'];

  // Where each stage holds the context (`COPY . <dir>`), to map its paths back.
  const contextRoot = new Map<number, string>();
  for (const stage of stages) {
    const workdir = workdirOf(stages, stage);
    for (const instruction of stage.instructions) {
      if (instruction.keyword === 'COPY' && !instruction.from && instruction.args[0] === '.') {
        contextRoot.set(stage.index, path.posix.resolve(workdir, instruction.args[1] ?? '.'));
      }
    }
  }

  for (const stage of stages) {
    const earlier = stages.slice(0, stage.index);
    const ref = (name: string) =>
      earlier.find((candidate) => candidate.name === name || String(candidate.index) === name);
    if (!stage.image) problems.push(`stage ${stage.index}: FROM names no image`);
    for (const instruction of stage.instructions) {
      if (instruction.keyword !== 'COPY' && instruction.keyword !== 'ADD') continue;
      const sources = instruction.args.slice(0, -1);
      if (!instruction.from) {
        for (const source of sources)
          if (!sourceInContext(source, files))
            problems.push(`${instruction.keyword} ${source}: not in the build context (after .dockerignore)`);
        continue;
      }
      const origin = ref(instruction.from);
      if (!origin) {
        problems.push(`${instruction.keyword} --from=${instruction.from}: no earlier stage of that name`);
        continue;
      }
      const originRoot = contextRoot.get(origin.index);
      const originWorkdir = workdirOf(stages, origin);
      for (const source of sources) {
        const absolute = path.posix.resolve(originWorkdir, source);
        const inContext = originRoot && (absolute === originRoot || absolute.startsWith(originRoot + '/'));
        if (inContext) {
          const relative = path.posix.relative(originRoot, absolute);
          const compiled = compiledOutput(path.join(contextDir, relative.replace(/\/dist$/, '')));
          const isBuildOutput = compiled?.outDir === path.join(contextDir, relative);
          if (!isBuildOutput && !sourceInContext(relative, files))
            problems.push(
              `COPY --from=${instruction.from} ${source}: neither in the context nor built there`,
            );
        } else if (
          !origin.instructions.some(
            (run) =>
              run.keyword === 'RUN' &&
              run.args.some((arg) => absolute === arg || absolute.startsWith(arg.replace(/\/$/, '') + '/')),
          )
        ) {
          problems.push(
            `COPY --from=${instruction.from} ${source}: no RUN of stage ${origin.name ?? origin.index} makes it`,
          );
        }
      }
    }
  }

  // The final image: who it runs as, in which mode, and what it runs.
  const user = lastOf(final, 'USER')?.args[0];
  const uid = /^(\d+)(:\d+)?$/.exec(user ?? '')?.[1];
  if (uid === undefined || Number(uid) === 0)
    problems.push(`final stage: USER ${user ?? '(none)'} is not a numeric non-root user`);
  if (envOf(stages, final).NODE_ENV !== 'production')
    problems.push('final stage: NODE_ENV is not production');

  const cmd = lastOf(final, 'CMD');
  let cmdArgs: string[] | undefined;
  try {
    cmdArgs = JSON.parse(cmd?.text ?? 'null') as string[] | undefined;
  } catch {
    cmdArgs = undefined;
  }
  if (!Array.isArray(cmdArgs)) problems.push('final stage: CMD is not in exec form');
  const finalWorkdir = workdirOf(stages, final);
  for (const command of [...(Array.isArray(cmdArgs) ? [cmdArgs] : []), ...commands]) {
    const script = command[0] === 'node' ? command[1] : undefined;
    if (!script) continue;
    const target = path.posix.resolve(finalWorkdir, script);
    // The COPY --from that puts the script's folder into the final image.
    const copy = final.instructions.find(
      (instruction) =>
        instruction.keyword === 'COPY' &&
        instruction.from &&
        target.startsWith(path.posix.resolve(finalWorkdir, instruction.args.at(-1)!) + '/'),
    );
    const origin = copy && stages.find((stage) => stage.name === copy.from);
    const originRoot = origin && contextRoot.get(origin.index);
    if (!copy || !origin || !originRoot) {
      problems.push(`${command.join(' ')}: ${script} is not copied into the final image from a build stage`);
      continue;
    }
    const copiedFrom = path.posix.resolve(workdirOf(stages, origin), copy.args[0]!);
    const inStage = path.posix.join(
      copiedFrom,
      path.posix.relative(path.posix.resolve(finalWorkdir, copy.args.at(-1)!), target),
    );
    const inContext = path.join(contextDir, path.posix.relative(originRoot, inStage));
    if (!compiledFrom(contextDir, inContext))
      problems.push(
        `${command.join(' ')}: the build produces no ${script} (no TypeScript source compiles to it)`,
      );
  }
  return problems;
}
