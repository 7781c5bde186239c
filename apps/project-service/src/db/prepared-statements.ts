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
