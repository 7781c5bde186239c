// Generated from apps/project-service/src/db/prepared-statements.ts by `npm run sync:copies`: edit that file, not this copy.
import { createHash } from 'node:crypto';
import { Prisma } from '../generated/prisma/client';

// Named (prepared) statements on PostgreSQL, for the few hot statements that are large to plan and
// whose text takes a fixed, small number of forms. An unnamed statement (Prisma's default) is parsed
// and planned at every run; a named one once per pool connection, then only executed. Every other
// statement stays unnamed: a name per text would prepare without bound the statements whose text
// varies (Prisma's IN lists, say), as the pg client never deallocates them.
//
// Behind a connection pooler (PgBouncer), named statements need its prepared-statement support
// (PgBouncer 1.21+ with max_prepared_statements, in transaction pooling). A migration that changes
// a table they read is seen by PostgreSQL, which plans them again; their result columns are listed
// (never a table's *), so that never changes their result type. PGlite has no such cost: unnamed.

const MARK = /^\/\* prepared: ([a-z][a-z0-9_]*) \*\//;

/** `statement`, marked to be prepared once per connection under `name` (one per statement of src/db). */
export function prepared(name: string, statement: Prisma.Sql): Prisma.Sql {
  if (!/^[a-z][a-z0-9_]*$/.test(name))
    throw new Error(`a prepared statement's name must be snake_case: ${name}`);
  return Prisma.sql`/* prepared: ${Prisma.raw(name)} */ ${statement}`;
}

/**
 * The name a marked statement is prepared under (its mark and a hash of its text: each form of its
 * text is a statement of its own), or '' for an unmarked one (pg's unnamed statement): the pg
 * adapter's statementNameGenerator.
 */
export function statementName(query: { sql: string }): string {
  if (!query.sql.startsWith('/* prepared: ')) return '';
  let name = names.get(query.sql);
  if (name === undefined) {
    const mark = MARK.exec(query.sql);
    name = mark
      ? `${mark[1]}_${createHash('sha256').update(query.sql).digest('base64url').slice(0, 16)}`
      : '';
    names.set(query.sql, name);
  }
  return name;
}

/** Each marked text's name, hashed once: the marked statements take few forms, so this stays small. */
const names = new Map<string, string>();

/** A parameter of a fixed statement, filled at each run from the argument of its key. */
class Slot {
  constructor(readonly key: string) {}
}

/** A fixed statement with its values for one run: what Database.query and statementsOf() run. */
export class BoundStatement {
  constructor(
    /** The prepared statement's name ('' for an unnamed one). */
    readonly name: string,
    readonly text: string,
    readonly values: unknown[],
  ) {}
}

/** A statement made once (its text, its name and its parameters' order), run with new values. */
export interface FixedStatement<Args extends object> {
  readonly name: string;
  readonly text: string;
  bind(args: Args): BoundStatement;
}

/**
 * The hottest statements, made once when their module loads, marked as prepared() marks them:
 * building a statement of fragments at every run, then hashing its 1.5 kB text for its name, was
 * about 10 µs of a GET's 430 µs of CPU. `build` writes the statement with `arg(key)` (or `args.key`)
 * where a run's value goes; constants stay in the text's parameters as given.
 */
export function fixedStatement<Args extends object>(
  name: string,
  build: (arg: <Key extends keyof Args & string>(key: Key) => Args[Key], args: Args) => Prisma.Sql,
): FixedStatement<Args> {
  const arg = (key: string) => new Slot(key) as never;
  // `args.key` is `arg('key')`: a builder of records (a project's values) fills them from a run's.
  const args = new Proxy({} as Args, {
    get: (_target, key) => (typeof key === 'string' ? arg(key) : undefined),
  });
  const sql = prepared(name, build(arg, args));
  const text = sql.text;
  const template = sql.values;
  const statement = statementName({ sql: text });
  return {
    name: statement,
    text,
    bind: (args) =>
      new BoundStatement(
        statement,
        text,
        template.map((value) =>
          value instanceof Slot ? (args as Record<string, unknown>)[value.key] : value,
        ),
      ),
  };
}
