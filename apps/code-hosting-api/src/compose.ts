import mime from 'mime-types';
import { defaultSettings } from './config';
import type { Database } from './db/database';
import { loginThrottleStore } from './db/login-throttle-store';
import { createStore } from './db/store';
import { accountService } from './domain/accounts';
import { attachmentService } from './domain/attachments';
import { LoginThrottle } from './domain/login-throttle';
import { organizationService } from './domain/organizations';
import { repositoryService } from './domain/repositories';
import { teamService } from './domain/teams';
import { codeHostingChangeLog } from './events/code-hosting-events';
import { buildApp, type AppOptions, type BuiltApp } from './http/app';
import { createWire } from './wire/wire';

// The composition root: the one module that knows every layer. It builds the stores on the
// database, the change log (events on), the use cases over them, and gives the HTTP layer the
// services only; src/http imports nothing of src/db.

/** What the service is built from: the database, and what the HTTP app takes besides its services. */
export type ServiceDependencies = Omit<AppOptions, 'services' | 'isReady'> & {
  database: Database;
  /** The time a token's use is recorded at (Date.now when not given). */
  clock?: () => number;
};

/** The use cases on `database`, and the app serving them (main.ts and the tests build it so). */
export function composeApp(dependencies: ServiceDependencies): BuiltApp {
  const { database, events, logger, rootUrl } = dependencies;
  const settings = dependencies.settings ?? defaultSettings;
  const wire = createWire(rootUrl);
  // With events on, the stores record each write's change event in its transaction.
  const store = createStore(database, events && codeHostingChangeLog(events.recorder, wire));
  // Written after the answer: the line names the request whose token it was (its request_id).
  const accounts = accountService(
    store,
    settings,
    (error, requestId) =>
      logger.error({ err: error, request_id: requestId }, "recording a token's last use failed"),
    dependencies.clock,
  );
  // The failed-login counters are in the database: every replica counts the same attempts.
  const throttle = new LoginThrottle(loginThrottleStore(database.prisma), settings.loginThrottle, (error) =>
    logger.error({ err: error }, 'deleting stale failed-login counters failed'),
  );
  return buildApp({
    ...dependencies,
    settings,
    isReady: () => database.isReady(),
    services: {
      accounts,
      throttle,
      organizations: organizationService(store, settings),
      teams: teamService(store),
      repositories: repositoryService(store),
      attachments: attachmentService(
        store,
        {
          allowedTypes: settings.attachmentAllowedTypes,
          typeOfExtension: (extension) => mime.lookup(extension) || undefined,
        },
        dependencies.storage,
      ),
      wire,
    },
  });
}
