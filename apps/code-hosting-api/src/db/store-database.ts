import type { Database } from './database';

// `changes`: the change events the writes record in their transactions (src/db/change-log.ts);
// without it (events off) every write runs exactly as it would with no events at all. The hottest
// reads (a token, an account by name, a user's teams) run straight on pg (Database.query).
/** What the stores use of the database: Prisma, and Database.query for the hottest reads. */
export type StoreDatabase = Pick<Database, 'prisma' | 'query'>;
