#!/usr/bin/env node
// Rebuilds vendor/, sums/ and go.sum of the Go SDK test program from git
// mirrors of the SDK and its dependencies (no Go module proxy is needed).
//
//   node vendor-from-mirrors.mjs <dir holding the mirrors' git dirs>
//
// For each module it lists the files a module zip holds (Go's modzip rules:
// the module's directory without nested modules, plus the repository root's
// LICENSE when the module is in a subdirectory and has none), writes their
// dirhash lines to sums/<module>@<version>.txt and the resulting h1: hash to
// go.sum, then copies the non-test files of the packages the program imports
// into vendor/ and writes vendor/modules.txt. go-sdk-vendor.test.ts checks all
// of it, byte for byte, without the mirrors.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const mirrors = process.argv[2];
if (!mirrors) {
  console.error('usage: node vendor-from-mirrors.mjs <dir holding owner+name/repo git dirs>');
  process.exit(2);
}

/** Where each module comes from: a public repository, the commit of its release, its directory there. */
export const MODULES = [
  // The tag gitea/v0.19.0 of gitea.com/gitea/go-sdk (mirrored, with its tags, by
  // Unity-Technologies/gitea-sdk; the same commit is on the upstream master that
  // Madh93/gitea-go-sdk mirrors). The module lives in the repository's gitea/ directory.
  {
    path: 'code.gitea.io/sdk/gitea',
    version: 'v0.19.0',
    repo: 'Unity-Technologies+gitea-sdk',
    commit: 'gitea/v0.19.0',
    subdir: 'gitea',
  },
  {
    path: 'github.com/davidmz/go-pageant',
    version: 'v1.0.2',
    repo: 'davidmz+go-pageant',
    commit: 'v1.0.2',
    subdir: '',
  },
  {
    path: 'github.com/go-fed/httpsig',
    version: 'v1.1.0',
    repo: 'go-fed+httpsig',
    commit: 'v1.1.0',
    subdir: '',
  },
  {
    path: 'github.com/hashicorp/go-version',
    version: 'v1.6.0',
    repo: 'hashicorp+go-version',
    commit: 'v1.6.0',
    subdir: '',
  },
  { path: 'golang.org/x/crypto', version: 'v0.22.0', repo: 'golang+crypto', commit: 'v0.22.0', subdir: '' },
  { path: 'golang.org/x/sys', version: 'v0.19.0', repo: 'golang+sys', commit: 'v0.19.0', subdir: '' },
];

const git = (repo, ...args) =>
  execFileSync('git', ['--git-dir', path.join(mirrors, repo, 'repo'), ...args], {
    maxBuffer: 1 << 30,
  });

/** The files of a module zip: path inside the module → blob id. */
function moduleFiles(module) {
  const commit = git(module.repo, 'rev-parse', `${module.commit}^{commit}`).toString().trim();
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

const work = mkdtempSync(path.join(os.tmpdir(), 'go-sdk-vendor-'));
const goSum = [];
const contents = new Map();
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

// Which packages does the program import? go list over the full modules.
const modulesTxt = (packagesByModule) =>
  MODULES.map((m) => {
    const goVersion = /^go (\S+)$/m.exec(contents.get(m.path).get('go.mod').toString());
    const header = `## explicit${goVersion ? `; go ${goVersion[1]}` : ''}\n`;
    return `# ${m.path} ${m.version}\n${header}${(packagesByModule.get(m.path) ?? []).map((p) => `${p}\n`).join('')}`;
  }).join('');
for (const file of ['main_test.go', 'go.mod']) {
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
// The SDK's own go.sum: the hashes it publishes for its dependencies (go-sdk-vendor.test.ts).
writeFileSync(path.join(here, 'gitea-sdk.go.sum'), contents.get(MODULES[0].path).get('go.sum'));
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
