import type { Database } from './db/database';
import { PrismaProjectStore } from './db/project-store';
import { projectService } from './domain/projects';
import { projectChangeLog } from './events/project-events';
import { buildApp, type AppOptions } from './http/app';
import type { ObservedApp } from './http/request-observation';

// The composition root: the one module that knows every layer. It builds the store on the
// database, the change log (events on), the use cases over them, and gives the HTTP layer the
// services only; src/http imports nothing of src/db.

/** What the service is built from: the database, and what the HTTP app takes besides its services. */
export type ServiceDependencies = Omit<AppOptions, 'services' | 'isReady'> & { database: Database };

/** The use cases on `database`, and the app serving them (main.ts and the tests build it so). */
export function composeApp(dependencies: ServiceDependencies): ObservedApp {
  const { database, ...options } = dependencies;
  // With events on, the store records each write's change event in its transaction.
  const store = new PrismaProjectStore(database, options.events && projectChangeLog(options.events.recorder));
  return buildApp({
    ...options,
    isReady: () => database.isReady(),
    services: { projects: projectService(store) },
  });
}
