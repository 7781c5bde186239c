import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** A variable's schema, as far as the table needs it (a zod schema is one). */
export interface VariableSchema {
  safeParse(value: undefined): { success: boolean; data?: unknown };
}

export interface ConfigurationTableOptions {
  /** The app's folder: its README.md and src/. */
  appDir: string;
  /** The schema of every variable the app's config parses, by name. */
  variables: Readonly<Record<string, VariableSchema>>;
}

interface Row {
  names: string[];
  defaultCell: string;
}

/** The rows of the first table under `## Configuration`. */
async function configurationTable(appDir: string): Promise<Row[]> {
  const readme = await readFile(path.join(appDir, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration\n'));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  const table = section.split('\n\n').find((block) => block.trimStart().startsWith('|')) ?? '';
  return table
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => {
      const [, first = '', second = ''] = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
      const names = [...first.matchAll(/`([A-Z][A-Z0-9_]*\*?)`/g)].map((match) => match[1] ?? '');
      return { names, defaultCell: second };
    });
}

/** Variables read straight from process.env anywhere in `dir` (tracing's OTEL_*, commands). */
async function variablesReadInCode(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated') found.push(...(await variablesReadInCode(full)));
    } else if (entry.name.endsWith('.ts')) {
      const source = await readFile(full, 'utf8');
      for (const match of source.matchAll(
        /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g,
      )) {
        found.push(match[1] ?? match[2] ?? '');
      }
    }
  }
  return found;
}

/**
 * The README's one table of variables, the schema that parses them and the variables the code
 * reads must agree: a variable added in one place and forgotten in another fails here.
 */
export function describeConfigurationTable({ appDir, variables }: ConfigurationTableOptions): void {
  describe('the README table of variables', () => {
    it('lists every variable the service reads, and only those', async () => {
      const rows = await configurationTable(appDir);
      const documented = rows.flatMap((row) => row.names);
      const read = [
        ...new Set([...Object.keys(variables), ...(await variablesReadInCode(path.join(appDir, 'src')))]),
      ].sort();
      const exact = documented.filter((name) => !name.endsWith('*')).sort();
      expect(exact).toEqual(read);
      // A wildcard row only for variables a library reads itself (the OpenTelemetry SDK's OTEL_*).
      for (const wildcard of documented.filter((name) => name.endsWith('*'))) {
        const prefix = wildcard.slice(0, -1);
        expect({
          wildcard,
          coversSchemaVariables: Object.keys(variables).some((name) => name.startsWith(prefix)),
        }).toEqual({
          wildcard,
          coversSchemaVariables: false,
        });
      }
    });

    it("gives each variable's default as the schema has it", async () => {
      const rows = await configurationTable(appDir);
      const mismatches = rows.flatMap(({ names, defaultCell }) =>
        names.flatMap((name) => {
          const schema = variables[name];
          if (!schema) return [];
          const parsed = schema.safeParse(undefined);
          if (!parsed.success || parsed.data === undefined || typeof parsed.data === 'object') return [];
          const expected = parsed.data === '' ? '(empty)' : `\`${String(parsed.data)}\``;
          return defaultCell === expected ? [] : [{ name, readme: defaultCell, schema: expected }];
        }),
      );
      expect(mismatches).toEqual([]);
    });
  });
}
