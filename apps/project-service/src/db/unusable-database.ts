/**
 * The tables each service's migrations create. Each service has its own database: one that holds
 * another service's tables is refused at start-up (test/unusable-database.test.ts checks that a
 * service's own entry is what its migrations create). Every service's tables on purpose, in this
 * copied file: a service tells another's database by them, and one list cannot drift.
 */
export const SERVICE_TABLES = {
  'project-service': ['projects', 'project_members'],
  'code-hosting-api': [
    'accounts',
    'access_tokens',
    'teams',
    'team_members',
    'repositories',
    'collaborations',
    'issues',
    'actions',
    'attachments',
    'login_failures',
    'trusted_logins',
  ],
} as const;

/**
 * The tables every service's migrations create alike (the change events' outbox): they tell no
 * service's database from another's, so they are in no entry above.
 */
export const COMMON_TABLES = ['event_outbox', 'event_sequences'] as const;

type ServiceName = keyof typeof SERVICE_TABLES;

/** Why the service cannot use its database, in one line fit for a terminal: no password, no stack. */
export class UnusableDatabaseError extends Error {
  override readonly name = 'UnusableDatabaseError';
}

/** `database "app" on db.example:5432` (never the user's password). */
export function describePostgres(url: string): string {
  const parsed = new URL(url);
  const socket = parsed.searchParams.get('host');
  const host = parsed.hostname || socket || 'localhost';
  const database =
    decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username);
  return `database "${database}" on ${host}:${parsed.port || '5432'}`;
}

function describeLocation(
  location: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string },
): string {
  return location.kind === 'postgres'
    ? describePostgres(location.url)
    : `the PGlite database in ${location.dataDir ?? 'memory'}`;
}

/**
 * Refuses a database that holds another service's tables: each service has its own, and one
 * migrating into another's would mix their schemas and their `_prisma_migrations`.
 */
export function refuseForeignTables(
  service: ServiceName,
  location: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string },
  tables: readonly string[],
): void {
  for (const [other, owned] of Object.entries(SERVICE_TABLES)) {
    if (other === service) continue;
    const found = owned.filter((table) => tables.includes(table));
    if (found.length === 0) continue;
    const remedy =
      location.kind === 'postgres'
        ? `give ${service} a database of its own (DATABASE_URL; under the root npm start, ${service.toUpperCase().replace(/-/g, '_')}_DATABASE_URL)`
        : `give ${service} a folder of its own (DATA_DIR; under the root npm start, ${service.toUpperCase().replace(/-/g, '_')}_DATA_DIR)`;
    throw new UnusableDatabaseError(
      `refusing to start: ${describeLocation(location)} holds ${other}'s tables (${found.join(', ')}); ${remedy}`,
    );
  }
}

/**
 * The one line for a PostgreSQL server that cannot be used (unreachable, no such database, the
 * credentials refused); undefined for any other failure, which keeps its own message.
 */
export function explainConnectionFailure(url: string, error: unknown): UnusableDatabaseError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const where = describePostgres(url);
  const user = decodeURIComponent(new URL(url).username) || 'the default user';
  if (code === '3D000') {
    return new UnusableDatabaseError(
      `cannot start: ${where} does not exist; create it (createdb) or point DATABASE_URL at an existing one`,
    );
  }
  if (code === '28P01' || code === '28000') {
    return new UnusableDatabaseError(
      `cannot start: the server refused ${user}'s credentials for ${where}; check the user and password in DATABASE_URL`,
    );
  }
  const network = [
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'ETIMEDOUT',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ECONNRESET',
  ];
  if ((typeof code === 'string' && network.includes(code)) || /connection timeout/i.test(error.message)) {
    const reason = typeof code === 'string' ? code : 'connection timed out';
    return new UnusableDatabaseError(
      `cannot start: no PostgreSQL server answers for ${where} (${reason}); start it, or fix the host and port in DATABASE_URL`,
    );
  }
  return undefined;
}
