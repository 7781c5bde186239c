// Stand-ins for errors from libraries this package does not depend on, carrying the same
// `name`/`code`/`meta`/`cause` fields the real ones set (Prisma 7.x, @prisma/driver-adapter-utils).

export class PrismaClientKnownRequestError extends Error {
  override name = 'PrismaClientKnownRequestError';
  readonly code: string;
  readonly meta: Record<string, unknown>;
  readonly clientVersion: string;

  constructor(
    message: string,
    options: { code: string; meta?: Record<string, unknown>; clientVersion?: string },
  ) {
    super(message);
    this.code = options.code;
    this.meta = options.meta ?? {};
    this.clientVersion = options.clientVersion ?? '7.10.0';
  }
}

export class PrismaClientInitializationError extends Error {
  override name = 'PrismaClientInitializationError';
  constructor(
    message: string,
    readonly clientVersion: string,
    readonly errorCode?: string,
  ) {
    super(message);
  }
}

/** As in @prisma/driver-adapter-utils: the mapped error (`kind`, `originalCode`…) is the `cause`. */
export class DriverAdapterError extends Error {
  override name = 'DriverAdapterError';
  constructor(mapped: Record<string, unknown> & { kind: string }) {
    super(typeof mapped['message'] === 'string' ? mapped['message'] : mapped.kind, { cause: mapped });
  }
}

/** What Prisma 7 throws for a unique violation through @prisma/adapter-pg or pglite-prisma-adapter. */
export function adapterUniqueViolation(fields: string[]): PrismaClientKnownRequestError {
  const adapterError = new DriverAdapterError({
    kind: 'UniqueConstraintViolation',
    constraint: { fields },
    originalCode: '23505',
    originalMessage: 'duplicate key value violates unique constraint "Repo_ownerId_name_key"',
  });
  return new PrismaClientKnownRequestError(`Unique constraint failed on the fields: (${fields.join(', ')})`, {
    code: 'P2002',
    meta: { modelName: 'Repo', driverAdapterError: adapterError },
  });
}

export function recordNotFound(): PrismaClientKnownRequestError {
  return new PrismaClientKnownRequestError(
    'An operation failed because it depends on one or more records that were required but not found.',
    { code: 'P2025', meta: { modelName: 'Repo', cause: 'Record to update not found.' } },
  );
}

/** A Node socket error like the one `net`/`pg` raise, wrapped the way fetch or an app would wrap it. */
export function connectionRefused(): Error {
  const socketError = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), {
    code: 'ECONNREFUSED',
    errno: -111,
    syscall: 'connect',
    address: '10.0.0.5',
    port: 5432,
  });
  const fetchError = new TypeError('fetch failed', { cause: socketError });
  return new Error('loading repository settings failed', { cause: fetchError });
}
