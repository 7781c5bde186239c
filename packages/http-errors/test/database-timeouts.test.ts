import { RETRY_AFTER_SECONDS, toHttpError } from '../src';
import { DriverAdapterError, PrismaClientKnownRequestError } from './fixtures';

// A frozen or partitioned PostgreSQL answers nothing: node-postgres gives up by its own timeouts,
// and a stopping server cancels statements. Each is the dependency being unavailable: 503, never 500.
describe('database timeouts and shutdowns → 503 with Retry-After', () => {
  test.each([
    ['pg pool: no free connection in time', new Error('timeout exceeded when trying to connect')],
    ['pg client: connect timed out', new Error('Connection terminated due to connection timeout')],
    ['pg client: query read timeout', new Error('Query read timeout')],
    ['pg client: connection lost', new Error('Connection terminated unexpectedly')],
    [
      'wrapped by Prisma',
      Object.assign(new Error('Invalid `prisma.project.findMany()` invocation'), {
        cause: new Error('Query read timeout'),
      }),
    ],
    [
      'statement_timeout (57014) from the adapter',
      new DriverAdapterError({ kind: 'postgres', code: '57014' }),
    ],
    ['server shutting down (57P01)', new DriverAdapterError({ kind: 'postgres', code: '57P01' })],
    [
      'server starting up (57P03)',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    [
      'connection failure (08006) in Prisma meta',
      new PrismaClientKnownRequestError('raw query failed', { code: 'P2010', meta: { code: '08006' } }),
    ],
  ])('%s', (_name, error) => {
    const mapped = toHttpError(error);
    expect(mapped.status).toBe(503);
    expect(mapped.headers).toEqual({ 'Retry-After': String(RETRY_AFTER_SECONDS) });
  });

  test('an ordinary failure with a timeout-free message stays a 500', () => {
    expect(toHttpError(new Error('Query failed for another reason')).status).toBe(500);
  });
});
