import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client';

/**
 * Where the data lives: a PostgreSQL server, or embedded PGlite (an instance
 * the caller owns, a folder it persists to, or memory when neither is given).
 */
export type DatabaseSource = { kind: 'postgres'; url: string } | { kind: 'pglite'; pglite: PGlite };

export type DatabaseLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string };

export interface Database {
  prisma: PrismaClient;
  source: DatabaseSource;
  /** True when the database answers a trivial query. */
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

export function migrationAdapterFactory(source: DatabaseSource): SqlMigrationAwareDriverAdapterFactory {
  return source.kind === 'postgres'
    ? new PrismaPg({ connectionString: source.url })
    : new PrismaPGlite(source.pglite);
}

/** Opens the location's database (creating a PGlite folder when needed); the result owns it. */
export async function openDatabaseAt(
  location: DatabaseLocation,
): Promise<{ source: DatabaseSource; close(): Promise<void> }> {
  if (location.kind === 'postgres') return { source: location, close: async () => {} };
  if (location.dataDir) await mkdir(location.dataDir, { recursive: true });
  const pglite = new PGlite(location.dataDir);
  await pglite.waitReady;
  return { source: { kind: 'pglite', pglite }, close: () => pglite.close() };
}

export interface ConnectOptions {
  /** Runs after the client is closed (closing what the caller opened for it). */
  onClose?: () => Promise<void>;
  /** Called with each statement's SQL as it runs: tests count round trips with it. */
  onQuery?: (sql: string) => void;
}

export function connectPrisma(source: DatabaseSource, options: ConnectOptions = {}): Database {
  const { onClose = async () => {}, onQuery } = options;
  const adapter = migrationAdapterFactory(source);
  const prisma = onQuery
    ? new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] })
    : new PrismaClient({ adapter });
  if (onQuery) (prisma as PrismaClient<'query'>).$on('query', (event) => onQuery(event.query));
  return {
    prisma,
    source,
    async isReady() {
      try {
        await prisma.$queryRaw`SELECT 1`;
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await prisma.$disconnect();
      await onClose();
    },
  };
}
