import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { useTestApp, type TestApp, type TestDatabaseSource } from '@repo/testing';
import { defaultSettings, type ServiceSettings } from '../src/config';
import { connectPrisma, type ConnectOptions } from '../src/db/database';
import { createStore } from '../src/db/store';
import { accountService } from '../src/domain/accounts';
import type { EventsSettings } from '../src/events/events-config';
import { DATA_RENDERERS } from '../src/events/data-renderers';
import { startServiceEvents, type ServiceEvents } from '../src/events/service-events';
import { composeApp } from '../src/compose';
import { createLogger } from '../src/logger';
import { DiskStorage } from '../src/storage/disk-storage';
import { S3Storage } from '../src/storage/s3-storage';
import type { Storage } from '../src/storage/storage';
import { startS3Server } from './s3-server';

export const testRootUrl = 'http://code-hosting.test/';

/** The site administrator every test app starts with, as ADMIN_USERNAME/ADMIN_PASSWORD would create. */
export const siteAdmin = { username: 'root', password: 'root-password-for-tests' };

// A low scrypt cost keeps the suite fast; production uses the configured cost.
export const testSettings: ServiceSettings = { ...defaultSettings, passwordHashCost: 16 };

/** For apps whose tests never touch attachments: a folder nothing is written to. */
export const idleStorage: Storage = new DiskStorage(
  path.join(os.tmpdir(), 'code-hosting-api-idle-attachments'),
);

/** The app on a database that is down (port 1 on loopback refuses connections), for what needs none. */
export function appWithUnreachableDatabase() {
  const database = connectPrisma({ kind: 'postgres', url: 'postgresql://postgres@127.0.0.1:1/none' });
  const { app } = composeApp({
    database,
    logger: createLogger('silent'),
    rootUrl: testRootUrl,
    storage: idleStorage,
  });
  return { app, close: () => database.close() };
}

export type StorageKind = 'disk' | 's3';

/** Attachment storage of one test file: a fresh temporary folder, or a bucket of its own s3rver. */
export async function openTestStorage(
  kind: StorageKind,
): Promise<{ storage: Storage; close(): Promise<void> }> {
  const location = await openStorageLocation(kind);
  const storage = location.client();
  return {
    storage,
    close: async () => {
      await storage.close();
      await location.close();
    },
  };
}

/** Where a test file's attachments live; each app instance (replica) connects a client of its own. */
interface StorageLocation {
  client(): Storage;
  close(): Promise<void>;
}

async function openStorageLocation(kind: StorageKind): Promise<StorageLocation> {
  if (kind === 'disk') {
    // Several instances share the folder, as replicas would share one volume.
    const folder = await mkdtemp(path.join(os.tmpdir(), 'attachments-'));
    return {
      client: () => new DiskStorage(folder),
      close: () => rm(folder, { recursive: true, force: true }),
    };
  }
  const server = await startS3Server();
  return {
    client: () =>
      new S3Storage({
        bucket: server.bucket,
        region: server.region,
        endpoint: server.endpoint,
        forcePathStyle: true,
        credentials: server.credentials,
      }),
    close: () => server.stop(),
  };
}

/**
 * Waits (≤10 s) for the events' NATS connection, before the test's work loads the process: a
 * connection attempt the NATS client times out may leave its socket open (and Jest running).
 */
async function connected(events: ServiceEvents): Promise<void> {
  for (const deadline = Date.now() + 10_000; !events.publisher.isConnected();) {
    if (Date.now() > deadline) throw new Error('events: no NATS connection within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What a test app is built with besides its database; each has the default a test mostly wants. */
export interface TestAppOptions {
  /** testSettings when not given. */
  settings?: ServiceSettings;
  /** The database connection's options (a query observer, say). */
  connect?: ConnectOptions;
  /** A folder nothing is written to when not given (idleStorage). */
  storage?: Storage;
  /** testRootUrl when not given. */
  rootUrl?: string;
  /** Change events on, with these settings (as NATS_URL would turn them on). */
  events?: EventsSettings;
  /** X_SYNC_TIMEOUT_MS (5000 when not given). */
  xSyncTimeoutMs?: number;
  /** Nobody listens at the NATS URL: start without waiting for a connection. */
  natsUnreachable?: boolean;
  /** The time the app records a token's use at (Date.now when not given). */
  clock?: () => number;
}

/**
 * The real app over this test file's own database; with `events`, change events on, stopped
 * before the database closes.
 */
export async function createTestApp(
  source: TestDatabaseSource,
  {
    settings = testSettings,
    connect = {},
    storage = idleStorage,
    rootUrl = testRootUrl,
    events,
    xSyncTimeoutMs,
    natsUnreachable,
    clock,
  }: TestAppOptions = {},
) {
  const database = connectPrisma(source, connect);
  const logger = createLogger(process.env.LOG_LEVEL ?? 'silent');
  const serviceEvents =
    events &&
    startServiceEvents({
      settings: events,
      prisma: database.prisma,
      logger,
      source: rootUrl,
      renderers: DATA_RENDERERS,
    });
  const closeAll = async () => {
    await serviceEvents?.stop(Date.now() + 2000);
    await database.close();
  };
  try {
    if (serviceEvents && !natsUnreachable) await connected(serviceEvents);
    await accountService(createStore(database), settings).bootstrapAdmin(siteAdmin, false);
    const { app, settled } = composeApp({
      database,
      logger,
      rootUrl,
      settings,
      storage,
      events: serviceEvents,
      xSyncTimeoutMs,
      clock,
    });
    return {
      app,
      database,
      settled,
      close: async () => {
        await settled();
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

export interface CodeHostingTestApp extends TestApp {
  /** The attachment storage behind the app, to check what it holds. */
  readonly storage: Storage;
}

export function useCodeHostingApi(
  settings: Partial<ServiceSettings> = {},
  options: {
    storage?: StorageKind;
    /** ROOT_URL is the test server's own URL (a browser follows the document's links), not testRootUrl. */
    rootUrlIsServer?: boolean;
    /** Change events on, with these settings (test/events/event-stream.ts makes a test file's own). */
    events?: EventsSettings;
  } = {},
): CodeHostingTestApp {
  let storage: Storage | undefined;
  // One location per test file, opened by the first instance and closed with the last (with
  // TEST_APP_REPLICAS above 1 the harness makes several instances, each with its own client).
  let location: Promise<StorageLocation> | undefined;
  let instances = 0;
  const service = useTestApp(async (source, { baseUrl }) => {
    location ??= openStorageLocation(options.storage ?? 'disk');
    const opened = await location;
    instances += 1;
    const client = opened.client();
    storage ??= client;
    const release = async () => {
      await client.close();
      instances -= 1;
      if (instances > 0) return;
      location = undefined;
      storage = undefined;
      await opened.close();
    };
    try {
      const instance = await createTestApp(source, {
        settings: { ...testSettings, ...settings },
        storage: client,
        rootUrl: options.rootUrlIsServer ? `${baseUrl}/` : testRootUrl,
        events: options.events,
      });
      return {
        app: instance.app,
        close: async () => {
          await instance.close();
          await release();
        },
      };
    } catch (error) {
      await release();
      throw error;
    }
  });
  return Object.defineProperty(Object.create(service) as TestApp, 'storage', {
    get(): Storage {
      if (!storage) throw new Error('the storage is only available inside tests (after beforeAll)');
      return storage;
    },
  }) as CodeHostingTestApp;
}
