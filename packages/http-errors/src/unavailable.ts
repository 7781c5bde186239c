import { HttpError } from './http-error';
import { causeChain, readString } from './guards';
import { adapterError, prismaCode, sqlState } from './database';

/** Seconds a client should wait before retrying while a dependency is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

// Prisma: can't reach / timed out / database missing / operation timeout / server closed connection /
// pool timeout / too many connections.
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1003', 'P1008', 'P1017', 'P2024', 'P2037']);

// Driver adapter `kind`s (on a DriverAdapterError's cause, or on the mapped error itself).
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'DatabaseDoesNotExist',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

const UNAVAILABLE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND']);

// PostgreSQL SQLSTATEs: 57014 query_canceled (statement_timeout), 57P01–57P03 the server shutting down or
// starting up, class 08 connection exceptions, 53300 too many connections.
const UNAVAILABLE_SQLSTATE = /^(57014|57P0[1-3]|08...|53300)$/;

// node-postgres's own timeouts and lost connections carry neither a code nor a kind, only these messages
// (a frozen server answers nothing: the client gives up on connecting, on a free connection, or on reading).
const UNAVAILABLE_DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Query read timeout',
  'Connection terminated unexpectedly',
  'Client has encountered a connection error and is not queryable',
];

// Wrappers such as `fetch failed` → ECONNREFUSED, or Prisma → DriverAdapterError → mapped error.
const MAX_CAUSE_DEPTH = 4;

function signalsUnavailability(error: unknown): boolean {
  const code = prismaCode(error);
  if (code !== undefined && UNAVAILABLE_PRISMA_CODES.has(code)) return true;
  const kind = readString(error, 'kind') ?? readString(adapterError(error), 'kind');
  if (kind !== undefined && UNAVAILABLE_ADAPTER_KINDS.has(kind)) return true;
  const networkCode = readString(error, 'code');
  if (networkCode !== undefined && UNAVAILABLE_NETWORK_CODES.has(networkCode)) return true;
  const state = sqlState(error) ?? networkCode;
  if (state !== undefined && UNAVAILABLE_SQLSTATE.test(state)) return true;
  const message = readString(error, 'message');
  return message !== undefined && UNAVAILABLE_DRIVER_MESSAGES.some((known) => message.includes(known));
}

export function fromUnavailableDependency(error: unknown): HttpError | undefined {
  if (!causeChain(error, MAX_CAUSE_DEPTH).some(signalsUnavailability)) return undefined;
  return new HttpError(503, 'service unavailable', {
    cause: error,
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  });
}
