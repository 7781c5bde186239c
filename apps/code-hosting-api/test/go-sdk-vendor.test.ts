import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// The Go SDK test program's vendor/ tree, checked byte for byte without a network or a Go
// toolchain. sums/<module>@<version>.txt holds, for every file of a module as published (its
// module zip), the line Go's dirhash.Hash1 hashes: "<sha256>  <module>@<version>/<path>".
// Hashing a sums file gives the module's go.sum h1:; the SDK's own go.sum (copied beside, its
// bytes pinned by the SDK's sums file) publishes that hash for every dependency; and each
// vendored file must be byte for byte the file its sums line names. test/go-sdk/README.md says
// where each module came from.
const dir = path.join(__dirname, 'go-sdk');
const read = (file: string) => readFileSync(path.join(dir, file));
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** `module version` → `h1:…`, and `module version/go.mod` → `h1:…`. */
function parseGoSum(text: string): Map<string, string> {
  return new Map(
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [module, version, hash] = line.split(' ');
        return [`${module} ${version}`, hash!];
      }),
  );
}

interface VendoredModule {
  path: string;
  version: string;
  packages: string[];
}

function modulesTxt(): VendoredModule[] {
  const modules: VendoredModule[] = [];
  for (const line of read('vendor/modules.txt').toString('utf8').split('\n')) {
    const header = /^# (\S+) (\S+)$/.exec(line);
    if (header) modules.push({ path: header[1]!, version: header[2]!, packages: [] });
    else if (line && !line.startsWith('#')) modules.at(-1)!.packages.push(line);
  }
  return modules;
}

/** The dirhash lines of a module: path inside the module → sha256 hex. */
const sumsCache = new Map<string, { text: string; files: Map<string, string> }>();
function sums(module: { path: string; version: string }): { text: string; files: Map<string, string> } {
  const key = `${module.path}@${module.version}`;
  if (!sumsCache.has(key)) sumsCache.set(key, readSums(module));
  return sumsCache.get(key)!;
}

function readSums(module: { path: string; version: string }): { text: string; files: Map<string, string> } {
  const text = read(`sums/${module.path.replaceAll('/', '!')}@${module.version}.txt`).toString('utf8');
  const prefix = `${module.path}@${module.version}/`;
  const files = new Map<string, string>();
  for (const line of text.split('\n').filter(Boolean)) {
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    expect(match?.[2]?.startsWith(prefix)).toBe(true);
    files.set(match![2]!.slice(prefix.length), match![1]!);
  }
  return { text, files };
}

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const full = path.join(root, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

const goSum = parseGoSum(read('go.sum').toString('utf8'));
const modules = modulesTxt();
const sdk = modules.find((module) => module.path === 'code.gitea.io/sdk/gitea')!;

describe('the vendored Gitea Go SDK and its dependencies', () => {
  it('vendors exactly the modules go.mod requires, each at the version go.sum records', () => {
    const required = [
      ...read('go.mod')
        .toString('utf8')
        .matchAll(/^(?:require\s+|\s+)(\S+) (v\S+)/gm),
    ].map((match) => `${match[1]} ${match[2]}`);
    expect(modules.map((module) => `${module.path} ${module.version}`).sort()).toEqual(required.sort());
    for (const module of modules) expect(goSum.has(`${module.path} ${module.version}`)).toBe(true);
    expect(sdk.version).toBe('v0.19.0');
  });

  it("hashes each module's files to its go.sum h1: (Go's dirhash Hash1)", () => {
    for (const module of modules) {
      const { text, files } = sums(module);
      // Hash1 sorts the lines by file name.
      const names = [...files.keys()];
      expect(names).toEqual([...names].sort());
      const h1 = `h1:${sha256(text).toString('base64')}`;
      expect({ module: module.path, h1 }).toEqual({
        module: module.path,
        h1: goSum.get(`${module.path} ${module.version}`),
      });
      // The /go.mod line: Hash1 over the single file named go.mod.
      const goMod = `h1:${sha256(`${files.get('go.mod')}  go.mod\n`).toString('base64')}`;
      expect(goMod).toBe(goSum.get(`${module.path} ${module.version}/go.mod`));
    }
  });

  it('uses, for every dependency, the very hashes the SDK v0.19.0 publishes in its go.sum', () => {
    const published = read('gitea-sdk.go.sum');
    expect(sha256(published).toString('hex')).toBe(sums(sdk).files.get('go.sum'));
    const sdkGoSum = parseGoSum(published.toString('utf8'));
    for (const module of modules.filter((module) => module !== sdk)) {
      for (const key of [`${module.path} ${module.version}`, `${module.path} ${module.version}/go.mod`]) {
        expect({ key, hash: goSum.get(key) }).toEqual({ key, hash: sdkGoSum.get(key) });
      }
    }
  });

  it('holds each vendored file byte for byte as the module publishes it, and nothing else', () => {
    const vendor = path.join(dir, 'vendor');
    let checked = 0;
    for (const file of filesUnder(vendor)) {
      const relative = path.relative(vendor, file).split(path.sep).join('/');
      if (relative === 'modules.txt') continue;
      const module = modules.find((candidate) => relative.startsWith(`${candidate.path}/`));
      expect({ relative, module: module?.path }).toEqual({ relative, module: expect.any(String) });
      const inModule = relative.slice(module!.path.length + 1);
      expect({ relative, sha256: sha256(readFileSync(file)).toString('hex') }).toEqual({
        relative,
        sha256: sums(module!).files.get(inModule),
      });
      expect(relative).not.toMatch(/_test\.go$/);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('lists in modules.txt exactly the package directories vendor/ holds Go files for', () => {
    const vendor = path.join(dir, 'vendor');
    const withGo = new Set(
      filesUnder(vendor)
        .filter((file) => file.endsWith('.go'))
        .map((file) => path.relative(vendor, path.dirname(file)).split(path.sep).join('/')),
    );
    expect([...withGo].sort()).toEqual(modules.flatMap((module) => module.packages).sort());
  });
});
