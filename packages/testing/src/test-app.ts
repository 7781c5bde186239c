import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import supertest from 'supertest';
import { startBalancer, type Balancer } from './balancer';
import type { TestDatabaseSource } from './database-template';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * What an app's factory hands the harness: a request listener (with the options its server is
 * created with in production, when it has any) and how to close what it opened.
 */
export interface TestAppInstance {
  app: http.RequestListener & { serverOptions?: http.ServerOptions };
  close(): Promise<void>;
}

/**
 * Options for a server that listens before its app exists: its requests and responses are made
 * by the app's own `serverOptions` once it is there, as the service's server makes them.
 */
function deferredServerOptions(handler: { app?: TestAppInstance['app'] }): http.ServerOptions {
  function Request(socket: Socket): http.IncomingMessage {
    return new (handler.app?.serverOptions?.IncomingMessage ?? http.IncomingMessage)(socket);
  }
  function Response(req: http.IncomingMessage, options?: object): http.ServerResponse {
    const Made = (handler.app?.serverOptions?.ServerResponse ?? http.ServerResponse) as new (
      req: http.IncomingMessage,
      options?: object,
    ) => http.ServerResponse;
    return new Made(req, options);
  }
  return {
    IncomingMessage: Request as unknown as typeof http.IncomingMessage,
    ServerResponse: Response as unknown as typeof http.ServerResponse,
  };
}

/** What the harness knows before the app exists: where it will be reached. */
export interface TestAppContext {
  /** http://127.0.0.1:<port> the server already listens on (for an app that must know its URL). */
  baseUrl: string;
}

export type TestAppFactory = (
  database: TestDatabaseSource,
  context: TestAppContext,
) => Promise<TestAppInstance>;

export interface TestApp {
  /** supertest over the real server: `t.request.get('/livez').expect(200)`. */
  readonly request: ReturnType<typeof supertest>;
  /** http://127.0.0.1:<port> of the running server, for real HTTP clients. */
  readonly baseUrl: string;
  /** The database behind the app, for assertions a response cannot show. */
  readonly database: TestDatabaseSource;
}

/**
 * How many instances of the app the harness runs behind one load balancer: TEST_APP_REPLICAS (1
 * when unset). With 2 or more every test file runs against that many instances of the real app,
 * each with its own connection pool and its own in-memory state (caches, throttles, relays), on
 * one PostgreSQL database, and its requests go to them in turn: the HTTP contract suites then show
 * that nothing a client sees depends on which replica answers.
 */
export function testAppReplicas(): number {
  const value = process.env['TEST_APP_REPLICAS'];
  if (value === undefined || value === '') return 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 8) {
    throw new Error(`TEST_APP_REPLICAS must be a whole number from 1 to 8, not ${JSON.stringify(value)}`);
  }
  if (count > 1 && !process.env['DATABASE_URL']) {
    throw new Error('TEST_APP_REPLICAS above 1 needs DATABASE_URL: replicas share one PostgreSQL database');
  }
  return count;
}

interface RunningInstance {
  instance: TestAppInstance;
  server: http.Server;
}

async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/**
 * Registers beforeAll/afterAll hooks that give the calling test file its own
 * migrated database and the real app listening on a free port, and close both
 * afterwards so Jest exits without --forceExit. With TEST_APP_REPLICAS above 1,
 * that many instances of the app behind a round-robin balancer (testAppReplicas).
 */
export function useTestApp(createApp: TestAppFactory): TestApp {
  let state:
    { database: TestDatabase; running: RunningInstance[]; balancer?: Balancer; baseUrl: string } | undefined;

  beforeAll(async () => {
    const count = testAppReplicas();
    const database = await createTestDatabase();
    const running: RunningInstance[] = [];
    let balancer: Balancer | undefined;
    try {
      // With replicas, every instance is told the balancer's URL: the one clients see.
      balancer = count > 1 ? await startBalancer({ checkEveryMs: 0 }) : undefined;
      for (let index = 0; index < count; index += 1) {
        // Listening first, so the factory can hand the app its own URL; nothing is sent before it exists.
        const handler: { app?: TestAppInstance['app'] } = {};
        const server = http.createServer(deferredServerOptions(handler), (req, res) =>
          handler.app?.(req, res),
        );
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const { port } = server.address() as AddressInfo;
        const ownUrl = `http://127.0.0.1:${port}`;
        let instance: TestAppInstance;
        try {
          instance = await createApp(database.source, { baseUrl: balancer?.url ?? ownUrl });
        } catch (error) {
          await closeServer(server);
          throw error;
        }
        handler.app = instance.app;
        running.push({ instance, server });
        balancer?.attach(index, ownUrl);
      }
      const baseUrl =
        balancer?.url ?? `http://127.0.0.1:${(running[0]!.server.address() as AddressInfo).port}`;
      state = { database, running, balancer, baseUrl };
    } catch (error) {
      await balancer?.stop();
      for (const { instance, server } of running) {
        await closeServer(server);
        await instance.close();
      }
      await database.drop();
      throw error;
    }
  });

  afterAll(async () => {
    if (!state) return;
    const { running, balancer, database } = state;
    state = undefined;
    await balancer?.stop();
    for (const { server, instance } of running) {
      await closeServer(server);
      await instance.close();
    }
    await database.drop();
  });

  const current = () => {
    if (!state) throw new Error('the test app is only available inside tests (after beforeAll)');
    return state;
  };
  return {
    get request() {
      return supertest(current().baseUrl);
    },
    get baseUrl() {
      return current().baseUrl;
    },
    get database() {
      return current().database.source;
    },
  };
}
