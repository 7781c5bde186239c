import http from 'node:http';
import net from 'node:net';
import { PROCESS_START_MS, httpRequest, startServiceProcess, type ServiceProcess } from '../service-process';
import { createTestDatabase, type TestDatabase } from '../test-database';

/**
 * PostgreSQL's ErrorResponse for a connection an administrator ends (`pg_terminate_backend`):
 * FATAL 57P01, as the server sends it before closing.
 */
function terminatingError(): Buffer {
  const fields = Buffer.from(
    'SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0',
    'latin1',
  );
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/** The end of the first ReadyForQuery ('Z') message in `bytes`, the server's start-up answer. */
function endOfFirstReady(bytes: Buffer): number | undefined {
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = String.fromCharCode(bytes[at]!);
    const end = at + 1 + bytes.readInt32BE(at + 1);
    if (end > bytes.length) return undefined;
    if (type === 'Z') return end;
    at = end;
  }
  return undefined;
}

/**
 * A TCP relay to a PostgreSQL server that, once armed, ends the connections open then at once, and
 * every second new one as it opens: its FATAL in the same packet as the server's "ready for
 * query", the moment pg hands the connection to whoever asked for it. The others work, so a request
 * gets past its first statement and meets an ended connection wherever it takes a new one.
 */
async function startEndingRelay(target: URL) {
  let armed = false;
  let opened = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    open.add(client).add(upstream);
    const forget = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', forget).on('error', forget);
    upstream.on('close', forget).on('error', forget);
    client.pipe(upstream);
    opened += 1;
    if (!armed || opened % 2 === 0) {
      upstream.pipe(client);
      return;
    }
    let startup = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      startup = Buffer.concat([startup, chunk]);
      const ready = endOfFirstReady(startup);
      if (ready === undefined) return;
      upstream.destroy();
      client.end(Buffer.concat([startup.subarray(0, ready), terminatingError()]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    /** Ends the connections open now, and every second one from now on. */
    arm() {
      armed = true;
      for (const socket of open) socket.destroy();
    },
    disarm() {
      armed = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface EndedConnectionsOptions {
  /** The app's folder: its built dist/main.js is what starts. */
  appDir: string;
  /** What the service needs to start besides its database. */
  env?: Record<string, string>;
  /**
   * Requests that take a connection from the pool each way the service does (a statement alone,
   * a transaction), given the service's base URL; each must answer 2xx on a working database.
   */
  requests: (service: ServiceProcess, agent: http.Agent) => Promise<{ label: string; status?: number }[]>;
}

/**
 * PostgreSQL ends a connection at any moment (a restart, a failover, `pg_terminate_backend`),
 * even just as it opens: the service answers what it can, stays up and recovers without a
 * restart. Needs DATABASE_URL (the server is reached through a relay that ends connections).
 */
export function describeEndedConnections(options: EndedConnectionsOptions): void {
  describe('connections the database server ends', () => {
    let database: TestDatabase;
    let relay: Awaited<ReturnType<typeof startEndingRelay>>;
    let service: ServiceProcess;
    const agent = new http.Agent({ keepAlive: true });

    beforeAll(async () => {
      database = await createTestDatabase();
      if (database.source.kind !== 'postgres') throw new Error('DATABASE_URL must be set for this suite');
      const url = new URL(database.source.url);
      relay = await startEndingRelay(url);
      const viaRelay = new URL(url);
      viaRelay.hostname = '127.0.0.1';
      viaRelay.port = String(relay.port);
      service = await startServiceProcess(options.appDir, {
        ...options.env,
        DATABASE_URL: viaRelay.toString(),
      });
    }, PROCESS_START_MS);

    afterAll(async () => {
      agent.destroy();
      service?.kill('SIGKILL');
      await service?.exited;
      await relay?.close();
      await database?.drop();
    });

    it('stays up when connections end as they open, and recovers once they no longer do', async () => {
      const before = await options.requests(service, agent);
      expect(before.filter((outcome) => (outcome.status ?? 0) >= 300)).toEqual([]);

      let exit: number | string | undefined;
      void service.exited.then((code) => (exit = code));
      // Each round from no open connection, several requests at once: the pool opens connections
      // in the middle of requests too, not only for their first statement.
      for (let round = 0; round < 8; round++) {
        relay.arm();
        await Promise.all(Array.from({ length: 4 }, () => options.requests(service, agent)));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect({ exit, lastLines: exit === undefined ? [] : service.output.slice(-5) }).toEqual({
        exit: undefined,
        lastLines: [],
      });

      relay.disarm();
      // Recovery: the pool opens new connections; the first answers may still be 503.
      let after: { label: string; status?: number }[] = [];
      for (let attempt = 0; attempt < 20; attempt++) {
        after = await options.requests(service, agent);
        if (after.every((outcome) => outcome.status !== undefined && outcome.status < 300)) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(after.filter((outcome) => (outcome.status ?? 0) >= 300)).toEqual([]);
      expect((await httpRequest(service.baseUrl, agent, 'GET', '/readyz')).status).toBe(200);
    }, 120_000);
  });
}
