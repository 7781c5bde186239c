import type { TestDatabaseSource } from './database-template';
import { querySource } from './sql';

// What each app's test/plans/ checks: the statements its hot paths ran, explained by PostgreSQL on a
// seeded database, read no table that grows with use by a sequential scan.

/** A statement the app ran, with its parameters as Prisma's query event gives them (JSON). */
export interface RanStatement {
  sql: string;
  params: string;
  /** What ran it (a request), for the failure message. */
  by?: string;
}

export interface SequentialScan {
  by?: string;
  /** The statement on one line, shortened. */
  sql: string;
  /** The growing tables its plan reads whole. */
  tables: string[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function scannedTables(node: PlanNode, growing: ReadonlySet<string>): string[] {
  const relation = node['Relation Name'] ?? '';
  const own = node['Node Type'] === 'Seq Scan' && growing.has(relation) ? [relation] : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => scannedTables(child, growing))];
}

/** A statement EXPLAIN takes: a query or a write, after the `/* prepared: … *\/` mark of some. */
function explainable(sql: string): boolean {
  return (
    /^\s*(\/\*.*?\*\/\s*)?(SELECT|WITH|INSERT|UPDATE|DELETE)\b/is.test(sql) && !/^\s*SELECT 1\s*$/i.test(sql)
  );
}

/** The statement on one line, without Prisma's schema prefixes and column lists, cut at 400 characters. */
function shortened(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .replace(/"public"\./g, '')
    .replace(/SELECT (?:"\w+"\."\w+"(?: AS "\w+")?, )+"\w+"\."\w+"(?: AS "\w+")? FROM/g, 'SELECT … FROM')
    .slice(0, 400);
}

/**
 * Explains (`EXPLAIN (FORMAT JSON)`, not run) each statement with its parameters on the database;
 * returns how many it explained and those whose plan reads a `growing` table by a
 * sequential scan.
 */
export async function sequentialScans(
  database: TestDatabaseSource,
  statements: Iterable<RanStatement>,
  growing: ReadonlySet<string>,
): Promise<{ explained: number; scans: SequentialScan[] }> {
  const scans: SequentialScan[] = [];
  let explained = 0;
  for (const { sql, params, by } of statements) {
    if (!explainable(sql)) continue;
    const rows = await querySource<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      database,
      `EXPLAIN (FORMAT JSON) ${sql}`,
      JSON.parse(params) as unknown[],
    );
    explained += 1;
    const tables = scannedTables(rows[0]!['QUERY PLAN'][0].Plan, growing);
    if (tables.length > 0) scans.push({ ...(by === undefined ? {} : { by }), sql: shortened(sql), tables });
  }
  return { explained, scans };
}
