import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import type { TestDatabaseSource } from './database-template';
import { createTestDatabase, type TestDatabase } from './test-database';

/** What an app's factory hands the harness: a request listener and how to close what it opened. */
export interface TestAppInstance {
  app: http.RequestListener;
  close(): Promise<void>;
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
 * Registers beforeAll/afterAll hooks that give the calling test file its own
 * migrated database and the real app listening on a free port, and close both
 * afterwards so Jest exits without --forceExit.
 */
export function useTestApp(createApp: TestAppFactory): TestApp {
  let state:
    { database: TestDatabase; instance: TestAppInstance; server: http.Server; baseUrl: string } | undefined;

  beforeAll(async () => {
    const database = await createTestDatabase();
    // Listening first, so the factory can hand the app its own URL; nothing is sent before it exists.
    const handler: { app?: http.RequestListener } = {};
    const server = http.createServer((req, res) => handler.app?.(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    let instance: TestAppInstance;
    try {
      instance = await createApp(database.source, { baseUrl });
    } catch (error) {
      await new Promise((resolve) => server.close(resolve));
      await database.drop();
      throw error;
    }
    handler.app = instance.app;
    state = { database, instance, server, baseUrl };
  });

  afterAll(async () => {
    if (!state) return;
    const { server, instance, database } = state;
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
    await instance.close();
    await database.drop();
    state = undefined;
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
