/** The database waits a service allows itself, in milliseconds. */
export interface DatabaseWaits {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  readinessTimeoutMs: number;
}

export interface DatabaseLimitsOptions {
  /** The limits the app's operations settings give when the environment sets nothing. */
  fromEnvironment: DatabaseWaits;
  /** The limits the app's database module uses when a caller passes none. */
  defaults: DatabaseWaits;
  /** How long after statement_timeout the client stops waiting for a statement. */
  readTimeoutMarginMs: number;
}

/**
 * The operations contract: with the default settings, no request waits more than 10 s for the
 * database before its 503 (a connection, pool wait or connect, then a statement the client stops
 * waiting for readTimeoutMarginMs after statement_timeout when a frozen server cannot cancel it),
 * and /readyz gives up before any request.
 */
export function describeDefaultDatabaseLimits(options: DatabaseLimitsOptions): void {
  describe('default database limits', () => {
    const { fromEnvironment } = options;

    it('are the same whether the environment sets nothing or a caller passes none', () => {
      expect(fromEnvironment).toEqual(options.defaults);
    });

    it('keep the longest wait for the database at 10 s', () => {
      const { connectTimeoutMs, statementTimeoutMs, readinessTimeoutMs } = fromEnvironment;
      expect(connectTimeoutMs + statementTimeoutMs + options.readTimeoutMarginMs).toBeLessThanOrEqual(10_000);
      expect(readinessTimeoutMs).toBeLessThan(statementTimeoutMs);
    });
  });
}
