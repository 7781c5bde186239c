import { HttpError } from './http-error';
import { readProperty, readString, readStringArray } from './guards';

// Prisma errors, duck-typed: the client is generated per app, so it cannot be imported here.
// Prisma 7 driver adapters wrap the database failure in `meta.driverAdapterError`, whose `cause`
// is the adapter's mapped error: `{ kind, originalCode (SQLSTATE), constraint? }`.

type DatabaseFailure =
  'uniqueViolation' | 'foreignKeyViolation' | 'writeConflict' | 'recordNotFound' | 'unstorableValue';

const FAILURE_BY_PRISMA_CODE: Readonly<Record<string, DatabaseFailure>> = {
  P2002: 'uniqueViolation',
  P2003: 'foreignKeyViolation',
  P2025: 'recordNotFound',
  P2034: 'writeConflict',
};

const FAILURE_BY_ADAPTER_KIND: Readonly<Record<string, DatabaseFailure>> = {
  UniqueConstraintViolation: 'uniqueViolation',
  ForeignKeyConstraintViolation: 'foreignKeyViolation',
  RestrictViolation: 'foreignKeyViolation',
  TransactionWriteConflict: 'writeConflict',
};

// PostgreSQL SQLSTATEs, as raw queries report them (P2010 / P2039).
const FAILURE_BY_SQLSTATE: Readonly<Record<string, DatabaseFailure>> = {
  '23505': 'uniqueViolation',
  '23503': 'foreignKeyViolation',
  '23001': 'foreignKeyViolation',
  '40001': 'writeConflict',
  '40P01': 'writeConflict',
};

const PRISMA_CODE = /^P\d{4}$/;

/** Prisma's error code: `code` on request errors, `errorCode` on initialization errors. */
export function prismaCode(error: unknown): string | undefined {
  const code = readString(error, 'code') ?? readString(error, 'errorCode');
  return code !== undefined && PRISMA_CODE.test(code) ? code : undefined;
}

/** The driver adapter's mapped error: inside a Prisma error's meta, or a DriverAdapterError's cause. */
export function adapterError(error: unknown): unknown {
  const wrapped = readProperty(readProperty(error, 'meta'), 'driverAdapterError');
  if (wrapped !== undefined) return readProperty(wrapped, 'cause');
  if (readString(error, 'name') === 'DriverAdapterError') return readProperty(error, 'cause');
  return undefined;
}

/**
 * node-postgres's own error for a statement the server refused (a statement run straight on pg,
 * not through Prisma): its SQLSTATE in `code`, beside the server's `severity`.
 */
function postgresState(error: unknown): string | undefined {
  const code = readString(error, 'code');
  if (code === undefined || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  return readString(error, 'severity') === undefined ? undefined : code;
}

/** The PostgreSQL SQLSTATE behind a Prisma, driver adapter or node-postgres error, when it has one. */
export function sqlState(error: unknown): string | undefined {
  if (prismaCode(error) !== undefined) {
    const fromMeta = readString(readProperty(error, 'meta'), 'code');
    if (fromMeta !== undefined) return fromMeta;
  }
  const mapped = adapterError(error);
  if (readString(mapped, 'kind') === 'postgres') return readString(mapped, 'code');
  return readString(mapped, 'originalCode') ?? postgresState(error);
}

/**
 * SQLSTATE class 22 ("data exception": a NUL byte in text, a value out of range,
 * a malformed literal) means a request value reached the database that
 * validation should have refused: the client's fault, never a 500.
 */
function dataException(state: string): DatabaseFailure | undefined {
  return state.startsWith('22') ? 'unstorableValue' : undefined;
}

function classify(error: unknown): DatabaseFailure | undefined {
  const code = prismaCode(error);
  const kind = readString(adapterError(error), 'kind');
  const state = sqlState(error);
  return (
    (code === undefined ? undefined : FAILURE_BY_PRISMA_CODE[code]) ??
    (kind === undefined ? undefined : FAILURE_BY_ADAPTER_KIND[kind]) ??
    (state === undefined ? undefined : (FAILURE_BY_SQLSTATE[state] ?? dataException(state)))
  );
}

/** Column names from `meta.target` (classic engine) or the adapter's constraint (Prisma 7). */
function uniqueFields(error: unknown): string[] | undefined {
  const target = readStringArray(readProperty(error, 'meta'), 'target');
  const constraintFields = readStringArray(readProperty(adapterError(error), 'constraint'), 'fields');
  const fields = target ?? constraintFields;
  // PostgreSQL quotes mixed-case identifiers in its error detail: `Key ("ownerId", name)`.
  return fields?.length ? fields.map((field) => field.replace(/^"(.*)"$/, '$1')) : undefined;
}

function uniqueViolation(error: unknown): HttpError {
  const fields = uniqueFields(error);
  if (fields === undefined) return new HttpError(409, 'resource already exists', { cause: error });
  return new HttpError(409, `resource with the same ${fields.join(', ')} already exists`, {
    cause: error,
    details: { fields },
  });
}

export function fromDatabaseError(error: unknown, validationStatus: 400 | 422 = 400): HttpError | undefined {
  switch (classify(error)) {
    case 'unstorableValue':
      return new HttpError(validationStatus, unstorableValueMessage(sqlState(error)), { cause: error });
    case 'uniqueViolation':
      return uniqueViolation(error);
    case 'foreignKeyViolation':
      return new HttpError(409, 'operation conflicts with related resources', { cause: error });
    case 'writeConflict':
      return new HttpError(409, 'conflicting concurrent update, retry the request', { cause: error });
    case 'recordNotFound':
      return new HttpError(404, 'record not found', { cause: error });
    case undefined:
      return undefined;
  }
}

function unstorableValueMessage(state: string | undefined): string {
  return state === '22021'
    ? 'request contains a NUL character (U+0000), which is not accepted'
    : 'request contains a value the database does not accept';
}

/** True when a Prisma write broke a unique constraint: for a store to report "name taken" as a result. */
export function isUniqueConstraintViolation(error: unknown): boolean {
  return classify(error) === 'uniqueViolation';
}

/** True when a Prisma write broke a foreign key (a missing parent, or a row still referenced). */
export function isForeignKeyConstraintViolation(error: unknown): boolean {
  return classify(error) === 'foreignKeyViolation';
}
