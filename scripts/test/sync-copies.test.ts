import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function syncCopies(workspace: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [path.join(workspace, 'scripts/sync-copies.mjs'), ...args], {
    encoding: 'utf8',
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('npm run sync:copies', () => {
  it('finds every copy in the apps the same as its master', () => {
    const { status, output } = syncCopies(root, '--check');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('copies match') });
  });

  describe('in a workspace where copies were edited by hand', () => {
    let workspace: string;

    beforeAll(async () => {
      // The script and the apps' sources only: it finds the workspace from its own location.
      workspace = await mkdtemp(path.join(os.tmpdir(), 'sync-copies-'));
      await cp(path.join(root, 'scripts/sync-copies.mjs'), path.join(workspace, 'scripts/sync-copies.mjs'));
      for (const app of ['project-service', 'code-hosting-api']) {
        for (const entry of [
          'src',
          'test',
          'jest.config.js',
          'prisma.config.ts',
          'tsconfig.json',
          'tsconfig.build.json',
          'Dockerfile',
        ]) {
          await cp(path.join(root, 'apps', app, entry), path.join(workspace, 'apps', app, entry), {
            recursive: true,
          });
        }
      }
      const tracing = path.join(workspace, 'apps/code-hosting-api/src/tracing.ts');
      await writeFile(tracing, `${await readFile(tracing, 'utf8')}// a local fix\n`);
      await rm(path.join(workspace, 'apps/code-hosting-api/src/lifecycle.ts'));
      const tsconfig = path.join(workspace, 'apps/code-hosting-api/tsconfig.json');
      await writeFile(tsconfig, (await readFile(tsconfig, 'utf8')).replace('"dist"', '"out"'));
    });

    afterAll(async () => {
      await rm(workspace, { recursive: true, force: true });
    });

    it('--check fails, naming each copy that differs or is missing, and changes nothing', async () => {
      const { status, output } = syncCopies(workspace, '--check');
      expect(status).toBe(1);
      const listed = output.split('\n').filter((line) => line.startsWith('  '));
      expect(listed.map((line) => line.trim())).toEqual([
        'apps/code-hosting-api/src/lifecycle.ts',
        'apps/code-hosting-api/src/tracing.ts',
        'apps/code-hosting-api/tsconfig.json',
      ]);
      expect(await readFile(path.join(workspace, 'apps/code-hosting-api/src/tracing.ts'), 'utf8')).toContain(
        '// a local fix',
      );
    });

    it('writes the copies again from the master, under a line naming it; then --check passes', async () => {
      expect(syncCopies(workspace).status).toBe(0);
      const master = await readFile(path.join(workspace, 'apps/project-service/src/tracing.ts'), 'utf8');
      expect(await readFile(path.join(workspace, 'apps/code-hosting-api/src/tracing.ts'), 'utf8')).toBe(
        `// Generated from apps/project-service/src/tracing.ts by \`npm run sync:copies\`: edit that file, not this copy.\n${master}`,
      );
      expect(await readFile(path.join(workspace, 'apps/code-hosting-api/tsconfig.json'), 'utf8')).toBe(
        await readFile(path.join(workspace, 'apps/project-service/tsconfig.json'), 'utf8'),
      );
      expect(syncCopies(workspace, '--check').status).toBe(0);
    });

    it("writes the copy's Dockerfile with its own name and port, the syntax directive still first", async () => {
      const master = path.join(workspace, 'apps/project-service/Dockerfile');
      await writeFile(master, `${await readFile(master, 'utf8')}# built by project-service on 8080\n`);
      expect(syncCopies(workspace, '--check').output).toContain('apps/code-hosting-api/Dockerfile');
      expect(syncCopies(workspace).status).toBe(0);
      const copy = await readFile(path.join(workspace, 'apps/code-hosting-api/Dockerfile'), 'utf8');
      expect(copy.split('\n').slice(0, 2)).toEqual([
        '# syntax=docker/dockerfile:1',
        '# Generated from apps/project-service/Dockerfile by `npm run sync:copies`: edit that file, not this copy.',
      ]);
      expect(copy).toContain('# built by code-hosting-api on 3000\n');
      // Below the header, nothing names the master app.
      expect(copy.split('\n').slice(2).join('\n')).not.toContain('project-service');
    });
  });
});
