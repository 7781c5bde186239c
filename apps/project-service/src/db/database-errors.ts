// Which constraint a Prisma write broke. Prisma 7 reports it as a Prisma code
// (P2002/P2003), or through the driver adapter's mapped error in meta.
// (@repo/http-errors classifies the same way internally but does not export it.)

function property(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function adapterCause(error: unknown): unknown {
  return property(property(property(error, 'meta'), 'driverAdapterError'), 'cause');
}

function matches(error: unknown, prismaCode: string, adapterKinds: string[], sqlStates: string[]): boolean {
  const cause = adapterCause(error);
  const kind = property(cause, 'kind');
  const state =
    property(cause, 'originalCode') ?? property(cause, 'code') ?? property(property(error, 'meta'), 'code');
  return (
    property(error, 'code') === prismaCode ||
    (typeof kind === 'string' && adapterKinds.includes(kind)) ||
    (typeof state === 'string' && sqlStates.includes(state))
  );
}

export function isUniqueViolation(error: unknown): boolean {
  return matches(error, 'P2002', ['UniqueConstraintViolation'], ['23505']);
}

export function isForeignKeyViolation(error: unknown): boolean {
  return matches(error, 'P2003', ['ForeignKeyConstraintViolation', 'RestrictViolation'], ['23503', '23001']);
}
