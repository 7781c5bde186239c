#!/usr/bin/env node
// Rebuilds vendor/, sums/, go.sum and copies of published go.sum files of a Go test program from
// git mirrors of the modules it uses (no Go module proxy is needed).
//
//   node vendor-from-mirrors.mjs <program dir> <dir holding the mirrors' git dirs>
//
// The program directory holds go.mod, the program's Go files and modules.json, which lists the
// modules, the primary one (the module the program is about) first:
//
//   { "modules": [ {
//       "path": "…", "version": "v…", "repo": "<owner>+<name>", "tag": "…", "commit": "<40 hex>",
//       "subdir": "",                // the module's directory in the repository ("" for the root)
//       "publishedGoSum": "<file>",  // the primary's, optional for others: its go.sum is copied there
//       "why": "…",                  // only where the version is not the one the primary's go.sum pins
//       "hashesFrom": "<module>"     // with why: the module whose published go.sum pins this version
//   } ] }
//
// For each module it lists the files a module zip holds (Go's modzip rules: the module's directory
// without nested modules, plus the repository root's LICENSE when the module is in a subdirectory
// and has none), writes their dirhash lines to sums/<module>@<version>.txt and the resulting h1:
// hash to go.sum, then copies the non-test files of the packages the program imports into vendor/
// and writes vendor/modules.txt. @repo/testing's describeGoVendor checks all of it, byte for byte,
// without the mirrors.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [programArg, mirrors] = process.argv.slice(2);
if (!programArg || !mirrors) {
  console.error('usage: node vendor-from-mirrors.mjs <program dir> <dir holding owner+name/repo git dirs>');
  process.exit(2);
}
const here = path.resolve(programArg);
const { modules: MODULES } = JSON.parse(readFileSync(path.join(here, 'modules.json'), 'utf8'));

const git = (repo, ...args) =>
  execFileSync('git', ['--git-dir', path.join(mirrors, repo, 'repo'), ...args], {
    maxBuffer: 1 << 30,
  });

/** The files of a module zip: path inside the module → blob id. */
function moduleFiles(module) {
  const commit = git(module.repo, 'rev-parse', `${module.commit}^{commit}`).toString().trim();
  // The tag, where the mirror has it, must still name the commit modules.json records.
  if (module.tag) {
    const tagged = git(module.repo, 'rev-parse', `${module.tag}^{commit}`).toString().trim();
    if (tagged !== commit) throw new Error(`${module.repo}: tag ${module.tag} is ${tagged}, not ${commit}`);
  }
  const entries = git(module.repo, 'ls-tree', '-r', '-z', commit)
    .toString()
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, name] = line.split('\t');
      const [mode, type, blob] = meta.split(' ');
      return { mode, type, blob, name };
    });
  const prefix = module.subdir ? `${module.subdir}/` : '';
  const inModule = entries.filter((e) => e.name.startsWith(prefix));
  const nested = inModule
    .filter((e) => e.name.endsWith('/go.mod') && e.name !== `${prefix}go.mod`)
    .map((e) => e.name.slice(0, -'go.mod'.length));
  const files = new Map();
  for (const e of inModule) {
    if (e.type !== 'blob' || e.mode === '120000') continue; // submodules and symlinks are not in zips
    if (nested.some((dir) => e.name.startsWith(dir))) continue;
    const rel = e.name.slice(prefix.length);
    if (rel.split('/').some((part) => part === 'vendor' || part === '.git' || part === '.hg')) continue;
    files.set(rel, e.blob);
  }
  if (module.subdir && !files.has('LICENSE')) {
    const root = entries.find((e) => e.name === 'LICENSE');
    if (root) files.set('LICENSE', root.blob);
  }
  return { commit, files };
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** Go's dirhash.Hash1 summary lines and hash. */
function hash1(module, files) {
  const lines = [...files.keys()]
    .sort()
    .map((rel) => `${sha256(files.get(rel))}  ${module.path}@${module.version}/${rel}\n`)
    .join('');
  return { lines, h1: `h1:${createHash('sha256').update(lines).digest('base64')}` };
}

const work = mkdtempSync(path.join(os.tmpdir(), 'go-vendor-'));
const goSum = [];
const contents = new Map();
rmSync(path.join(here, 'sums'), { recursive: true, force: true });
mkdirSync(path.join(here, 'sums'), { recursive: true });
for (const module of MODULES) {
  const { commit, files } = moduleFiles(module);
  const data = new Map([...files].map(([rel, blob]) => [rel, git(module.repo, 'cat-file', 'blob', blob)]));
  contents.set(module.path, data);
  const { lines, h1 } = hash1(module, data);
  writeFileSync(path.join(here, 'sums', `${module.path.replaceAll('/', '!')}@${module.version}.txt`), lines);
  goSum.push(`${module.path} ${module.version} ${h1}`);
  goSum.push(
    `${module.path} ${module.version}/go.mod h1:${createHash('sha256')
      .update(`${sha256(data.get('go.mod'))}  go.mod\n`)
      .digest('base64')}`,
  );
  console.log(`${module.path}@${module.version} ${commit} ${files.size} files ${h1}`);
  // Full module (tests left out) in a scratch GOPATH-style vendor tree, to ask Go which packages are used.
  for (const [rel, bytes] of data) {
    if (rel.endsWith('_test.go')) continue;
    const target = path.join(work, 'vendor', module.path, rel);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
}
writeFileSync(path.join(here, 'go.sum'), `${goSum.sort().join('\n')}\n`);

// Which packages does the program import? go list over the full modules. modules.txt lists the
// modules in path order, as `go mod vendor` does; each module's `## explicit; go X` line carries the
// go directive of its go.mod: without it Go 1.17+ compiles the module at the go1.16 language level.
const byPath = [...MODULES].sort((a, b) => (a.path < b.path ? -1 : 1));
const modulesTxt = (packagesByModule) =>
  byPath
    .map((m) => {
      const goVersion = /^go (\S+)$/m.exec(contents.get(m.path).get('go.mod').toString());
      const header = `## explicit${goVersion ? `; go ${goVersion[1]}` : ''}\n`;
      return `# ${m.path} ${m.version}\n${header}${(packagesByModule.get(m.path) ?? []).map((p) => `${p}\n`).join('')}`;
    })
    .join('');
for (const file of readdirSync(here).filter((name) => name === 'go.mod' || name.endsWith('.go'))) {
  writeFileSync(path.join(work, file), readFileSync(path.join(here, file)));
}
const allPackages = new Map(
  MODULES.map((m) => [
    m.path,
    [...contents.get(m.path).keys()]
      .filter((rel) => rel.endsWith('.go') && !rel.endsWith('_test.go'))
      .map((rel) => (path.posix.dirname(rel) === '.' ? m.path : `${m.path}/${path.posix.dirname(rel)}`))
      .filter((p, i, all) => all.indexOf(p) === i)
      .sort(),
  ]),
);
writeFileSync(path.join(work, 'vendor', 'modules.txt'), modulesTxt(allPackages));
const used = execFileSync(
  'go',
  ['list', '-mod=vendor', '-deps', '-test', '-f', '{{if not .Standard}}{{.ImportPath}}{{end}}', '.'],
  {
    cwd: work,
    env: { ...process.env, GOFLAGS: '-mod=vendor', GOPROXY: 'off' },
  },
)
  .toString()
  .split('\n')
  .filter((p) => p && MODULES.some((m) => p === m.path || p.startsWith(`${m.path}/`)))
  .sort();
const usedByModule = new Map(
  MODULES.map((m) => [m.path, used.filter((p) => p === m.path || p.startsWith(`${m.path}/`))]),
);

// What `go mod vendor` (Go 1.17+) copies: the files directly in each used package's directory,
// without tests, go.mod, go.sum and Go files tagged `ignore`, plus the license-like files
// (LICENSE, PATENTS, …) of that directory's parents up to the module root.
const metadata = /^(AUTHORS|CONTRIBUTORS|COPYLEFT|COPYING|COPYRIGHT|LEGAL|LICENSE|NOTICE|PATENTS)/;
const ignored = (bytes) => /^\/\/go:build ignore$/m.test(bytes.toString('utf8').split('\npackage ')[0]);
rmSync(path.join(here, 'vendor'), { recursive: true, force: true });
for (const m of MODULES) {
  const copy = (rel) => {
    const target = path.join(here, 'vendor', m.path, rel);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, contents.get(m.path).get(rel));
  };
  for (const pkg of usedByModule.get(m.path)) {
    const dir = pkg === m.path ? '.' : pkg.slice(m.path.length + 1);
    for (const [rel, bytes] of contents.get(m.path)) {
      if (path.posix.dirname(rel) !== dir || rel.endsWith('_test.go')) continue;
      if (['go.mod', 'go.sum'].includes(path.posix.basename(rel))) continue;
      if (rel.endsWith('.go') && ignored(bytes)) continue;
      copy(rel);
    }
    for (let parent = dir; parent !== '.';) {
      parent = path.posix.dirname(parent);
      for (const rel of contents.get(m.path).keys()) {
        if (path.posix.dirname(rel) === parent && metadata.test(path.posix.basename(rel))) copy(rel);
      }
    }
  }
}
// The go.sum files the modules publish: the hashes they pin for their dependencies (describeGoVendor).
for (const m of MODULES.filter((module) => module.publishedGoSum)) {
  writeFileSync(path.join(here, m.publishedGoSum), contents.get(m.path).get('go.sum'));
}
writeFileSync(path.join(here, 'vendor', 'modules.txt'), modulesTxt(usedByModule));
rmSync(work, { recursive: true, force: true });

let bytes = 0;
let count = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else {
      bytes += statSync(full).size;
      count += 1;
    }
  }
};
walk(path.join(here, 'vendor'));
console.log(`vendor/: ${count} files, ${bytes} bytes; packages:\n  ${used.join('\n  ')}`);
