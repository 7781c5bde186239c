// Generated from apps/project-service/src/lifecycle.ts by `npm run sync:copies`: edit that file, not this copy.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { TerminusOptions } from '@godaddy/terminus';
import { markStopping } from './http/health';
import type { ServerTimeouts, ShutdownSettings } from './operations-config';

interface LifecycleLogger {
  info(fields: object, message: string): void;
}

/**
 * Explicit server timeouts. Node checks them only every `connectionsCheckingInterval`
 * (30 s by default), so that interval shrinks with them; set before `listen`.
 */
export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts): void {
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  // Read when the server starts listening (not in @types/node's Server).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    100,
    Math.min(1000, Math.floor(Math.min(timeouts.requestTimeoutMs, timeouts.headersTimeoutMs) / 4)),
  );
}

/**
 * Terminus options for a rolling restart without lost requests, spread into createTerminus:
 * on SIGTERM readiness turns 503 and the server goes on serving for the drain period (each
 * response now closes its connection, so clients reconnect through the load balancer, which
 * routes them elsewhere); then the server stops accepting, in-flight requests get the grace
 * period, and only then terminus runs onSignal (closing the database). SIGINT (Ctrl-C) skips
 * the drain: no load balancer routes to a developer's terminal.
 */
export function gracefulShutdown(
  server: Server,
  settings: ShutdownSettings,
  logger: LifecycleLogger,
): Pick<TerminusOptions, 'beforeShutdown' | 'timeout'> {
  let signal: NodeJS.Signals | undefined;
  // Registered before terminus's own handlers, so the signal is known when beforeShutdown runs.
  for (const name of ['SIGTERM', 'SIGINT'] as const) {
    process.once(name, () => {
      signal ??= name;
    });
  }
  // When the server closes, the connections it sees idle are ended (FIN), but Node still parses
  // what arrives on them: a request whose first bytes crossed the close would be acted on (a
  // create written) with no way left to answer it. Such a request is dropped with its connection.
  for (const listener of server.listeners('request') as RequestListener[]) {
    server.removeListener('request', listener);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.socket.writableEnded) {
        req.socket.destroy();
        return;
      }
      listener.call(server, req, res);
    });
  }
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  // First among the request listeners: a response not yet started closes its connection once draining.
  server.prependListener('request', (_req, res) => {
    if (draining) {
      res.shouldKeepAlive = false;
      return;
    }
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  return {
    timeout: settings.graceMs,
    beforeShutdown: async () => {
      markStopping();
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      const drainMs = signal === 'SIGINT' ? 0 : settings.drainMs;
      logger.info(
        { signal, drainMs, graceMs: settings.graceMs },
        'shutting down: readiness is 503, serving until the drain period ends',
      );
      await new Promise((resolve) => setTimeout(resolve, drainMs));
      logger.info(
        { inFlight: inFlight.size },
        'drain period over: no new connections, finishing requests in flight',
      );
    },
  };
}
