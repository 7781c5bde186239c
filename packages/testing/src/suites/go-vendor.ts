import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface GoVendorOptions {
  /** What is vendored, for the suite's title: `the vendored <name> and its dependencies`. */
  name: string;
  /** The Go test program's directory: go.mod, go.sum, modules.json, sums/, vendor/. */
  programDir: string;
  /** The module the program is about, first in modules.json: its go.sum is the published one. */
  primary: { path: string; version: string };
  /**
   * The dependencies not at the version the primary module's go.sum pins (or not in it at all):
   * exactly the modules modules.json gives a `why`, so that none is exempted unsaid.
   */
  differingFromPublished: string[];
}

/** One entry of modules.json (packages/testing/go/vendor-from-mirrors.mjs says what each means). */
interface ModuleSource {
  path: string;
  version: string;
  repo: string;
  tag?: string;
  commit: string;
  subdir: string;
  publishedGoSum?: string;
  why?: string;
  hashesFrom?: string;
}

interface VendoredModule {
  path: string;
  version: string;
  packages: string[];
}

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

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const full = path.join(root, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * A Go test program's vendor/ tree, checked byte for byte without a network or a Go toolchain.
 * sums/<module>@<version>.txt holds, for every file of a module as published (its module zip), the
 * line Go's dirhash.Hash1 hashes: "<sha256>  <module>@<version>/<path>". Hashing a sums file gives
 * the module's go.sum h1:; the primary module's own go.sum (copied beside, its bytes pinned by its
 * sums file) publishes that hash for every dependency but those modules.json says differ, and why
 * (each checked against the go.sum of the module it names in `hashesFrom`, where one does); and each
 * vendored file must be byte for byte the file its sums line names. The program's README says where
 * each module came from; packages/testing/go/vendor-from-mirrors.mjs writes all of it.
 */
export function describeGoVendor(options: GoVendorOptions): void {
  const { programDir } = options;
  const read = (file: string) => readFileSync(path.join(programDir, file));
  const sources = (JSON.parse(read('modules.json').toString('utf8')) as { modules: ModuleSource[] }).modules;
  const goSum = parseGoSum(read('go.sum').toString('utf8'));

  const modules: VendoredModule[] = [];
  for (const line of read('vendor/modules.txt').toString('utf8').split('\n')) {
    const header = /^# (\S+) (\S+)$/.exec(line);
    if (header) modules.push({ path: header[1]!, version: header[2]!, packages: [] });
    else if (line && !line.startsWith('#')) modules.at(-1)!.packages.push(line);
  }

  /** The dirhash lines of a module: path inside the module → sha256 hex. */
  const sumsCache = new Map<string, { text: string; files: Map<string, string> }>();
  function sums(module: { path: string; version: string }): { text: string; files: Map<string, string> } {
    const key = `${module.path}@${module.version}`;
    if (!sumsCache.has(key)) {
      const text = read(`sums/${module.path.replaceAll('/', '!')}@${module.version}.txt`).toString('utf8');
      const prefix = `${key}/`;
      const files = new Map<string, string>();
      for (const line of text.split('\n').filter(Boolean)) {
        const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
        expect(match?.[2]?.startsWith(prefix)).toBe(true);
        files.set(match![2]!.slice(prefix.length), match![1]!);
      }
      sumsCache.set(key, { text, files });
    }
    return sumsCache.get(key)!;
  }

  /** The go.sum a module publishes, its bytes those its own sums file names. */
  function publishedGoSum(modulePath: string): Map<string, string> {
    const source = sources.find((candidate) => candidate.path === modulePath);
    expect({ module: modulePath, publishedGoSum: source?.publishedGoSum }).toEqual({
      module: modulePath,
      publishedGoSum: expect.any(String),
    });
    const published = read(source!.publishedGoSum!);
    expect({ file: source!.publishedGoSum, sha256: sha256(published).toString('hex') }).toEqual({
      file: source!.publishedGoSum,
      sha256: sums(source!).files.get('go.sum'),
    });
    return parseGoSum(published.toString('utf8'));
  }

  const hashKeys = (module: { path: string; version: string }) => [
    `${module.path} ${module.version}`,
    `${module.path} ${module.version}/go.mod`,
  ];

  const primary = `${options.primary.path} ${options.primary.version}`;

  describe(`the vendored ${options.name} and its dependencies`, () => {
    it('vendors exactly the modules go.mod requires, each at the version go.sum records', () => {
      const required = [
        ...read('go.mod')
          .toString('utf8')
          .matchAll(/^(?:require\s+|\s+)(\S+) (v\S+)/gm),
      ].map((match) => `${match[1]} ${match[2]}`);
      expect(modules.map((module) => `${module.path} ${module.version}`).sort()).toEqual(required.sort());
      // modules.json names the same modules, the primary first.
      expect(sources.map((source) => `${source.path} ${source.version}`).sort()).toEqual(required.sort());
      expect(`${sources[0]?.path} ${sources[0]?.version}`).toBe(primary);
      for (const module of modules) expect(goSum.has(`${module.path} ${module.version}`)).toBe(true);
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

    it(`uses, for every dependency, the very hashes ${primary} publishes in its go.sum, but for those modules.json says differ, and why`, () => {
      const published = publishedGoSum(options.primary.path);
      const differing = sources.filter((source) => source.why !== undefined);
      expect(differing.map((source) => source.path).sort()).toEqual(
        [...options.differingFromPublished].sort(),
      );
      for (const source of sources.slice(1)) {
        if (source.why !== undefined) continue;
        for (const key of hashKeys(source)) {
          expect({ key, hash: goSum.get(key) }).toEqual({ key, hash: published.get(key) });
        }
      }
      // A `why` is no licence to skip a module the primary's go.sum does pin at this version.
      for (const source of differing) {
        const key = `${source.path} ${source.version}`;
        expect({ key, why: source.why, pinned: published.get(key) === goSum.get(key) }).toEqual({
          key,
          why: expect.stringMatching(/\S/),
          pinned: false,
        });
      }
    });

    it('uses, for each module that differs, the hashes the go.sum of the module it names in hashesFrom publishes', () => {
      for (const source of sources.filter((candidate) => candidate.hashesFrom !== undefined)) {
        expect({ module: source.path, why: source.why }).toEqual({
          module: source.path,
          why: expect.any(String),
        });
        const published = publishedGoSum(source.hashesFrom!);
        for (const key of hashKeys(source)) {
          expect({ key, hash: goSum.get(key) }).toEqual({ key, hash: published.get(key) });
        }
      }
    });

    it('holds each vendored file byte for byte as the module publishes it, and nothing else', () => {
      const vendor = path.join(programDir, 'vendor');
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
      expect(checked).toBeGreaterThan(50);
    });

    it('lists in modules.txt exactly the package directories vendor/ holds Go files for', () => {
      const vendor = path.join(programDir, 'vendor');
      const withGo = new Set(
        filesUnder(vendor)
          .filter((file) => file.endsWith('.go'))
          .map((file) => path.relative(vendor, path.dirname(file)).split(path.sep).join('/')),
      );
      expect([...withGo].sort()).toEqual(modules.flatMap((module) => module.packages).sort());
    });
  });
}
