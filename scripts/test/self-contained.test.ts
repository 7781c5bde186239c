import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A clone holds the repository and nothing beside it: what a user or maintainer needs to read is
// in the repository's own files (docs/, the READMEs), so no tracked file may point at a folder
// next to the checkout, and every relative link of its Markdown must name a tracked file.

const root = path.resolve(__dirname, '../..');

// Spelled in pieces, so that this file does not name what it looks for.
const OUTSIDE = new RegExp(
  [...['spec', 'seeds', 'reference', 'notes'].map((folder) => `shared/${folder}`), `\\.\\./shared`]
    .map((text) => text.replace('/', '\\/'))
    .join('|'),
);

function trackedFiles(repository: string): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: repository, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(Boolean);
}

/** `file:line: text` of every line of a tracked text file that points outside the repository. */
function pointersOutside(repository: string): string[] {
  return trackedFiles(repository).flatMap((file) => {
    const content = readFileSync(path.join(repository, file));
    if (content.includes(0)) return []; // binary
    return content
      .toString('utf8')
      .split('\n')
      .flatMap((line, index) => (OUTSIDE.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
  });
}

/** `file: target` of every relative Markdown link that names no tracked file or folder. */
function brokenLinks(repository: string): string[] {
  const tracked = trackedFiles(repository);
  const known = new Set(
    tracked.flatMap((file) => file.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))),
  );
  return tracked
    .filter((file) => file.endsWith('.md') && !file.includes('/vendor/'))
    .flatMap((file) => {
      const markdown = readFileSync(path.join(repository, file), 'utf8');
      return [...markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)]
        .map((match) => match[1]!)
        .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
        .filter(
          (target) => !known.has(path.posix.normalize(path.posix.join(path.posix.dirname(file), target))),
        )
        .map((target) => `${file}: ${target}`);
    });
}

describe('the repository stands alone', () => {
  it('has no tracked file that points at a folder beside the checkout', () => {
    expect(pointersOutside(root)).toEqual([]);
  });

  it('has no relative Markdown link to a file that is not tracked', () => {
    expect(brokenLinks(root)).toEqual([]);
  });

  describe('in a repository that breaks both', () => {
    let repository: string;
    beforeAll(async () => {
      repository = await mkdtemp(path.join(os.tmpdir(), 'self-contained-'));
      await mkdir(path.join(repository, 'docs'));
      const outside = ['..', 'shared', 'spec', 'x.md'].join('/');
      await writeFile(path.join(repository, 'README.md'), `See [the docs](docs/a.md) and ${outside}.\n`);
      await writeFile(path.join(repository, 'docs/a.md'), 'Back to [the top](../README.md), [gone](b.md).\n');
      await writeFile(path.join(repository, 'untracked.md'), `${outside} and [gone](c.md)\n`);
      execFileSync('git', ['init', '-q'], { cwd: repository });
      execFileSync('git', ['add', 'README.md', 'docs/a.md'], { cwd: repository });
    });
    afterAll(async () => {
      await rm(repository, { recursive: true, force: true });
    });

    it('names each tracked line that points outside, and nothing untracked', () => {
      expect(pointersOutside(repository)).toEqual([expect.stringMatching(/^README\.md:1: See /)]);
    });

    it('names each broken link of a tracked file', () => {
      expect(brokenLinks(repository)).toEqual(['docs/a.md: b.md']);
    });
  });
});
