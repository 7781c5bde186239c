import { z } from 'zod';
import { defaultDatabaseLimits, READ_TIMEOUT_MARGIN_MS } from '../src/db/database';
import { operationsEnvironmentShape, toOperationsSettings } from '../src/operations-config';

// The operations contract: with the default settings, no request waits more than 10 s for the
// database before its 503 (a connection, pool wait or connect, then a statement the client stops
// waiting for READ_TIMEOUT_MARGIN_MS after statement_timeout when a frozen server cannot cancel
// it), and /readyz gives up before any request. scripts/fault-test.sh measures it on a real
// cluster, frozen with SIGSTOP.
describe('default database limits', () => {
  const fromEnvironment = toOperationsSettings(z.object(operationsEnvironmentShape).parse({})).database;

  it('are the same whether the environment sets nothing or a caller passes none', () => {
    expect(fromEnvironment).toEqual(defaultDatabaseLimits);
  });

  it('keep the longest wait for the database at 10 s', () => {
    const { connectTimeoutMs, statementTimeoutMs, readinessTimeoutMs } = fromEnvironment;
    expect(connectTimeoutMs + statementTimeoutMs + READ_TIMEOUT_MARGIN_MS).toBeLessThanOrEqual(10_000);
    expect(readinessTimeoutMs).toBeLessThan(statementTimeoutMs);
  });
});
