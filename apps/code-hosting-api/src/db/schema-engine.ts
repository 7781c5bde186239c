// Generated from apps/project-service/src/db/schema-engine.ts by `npm run sync:copies`: edit that file, not this copy.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg' with {
  'resolution-mode': 'import',
};

/**
 * Prisma's schema engine compiled to WebAssembly. The native engine cannot be
 * downloaded on our machines; this one ships on npm and talks to the database
 * through the same driver adapters as Prisma Client.
 */
type SchemaEngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg', {
  with: { 'resolution-mode': 'import' },
});

let engineModule: Promise<SchemaEngineModule> | undefined;

/**
 * The engine arms timeouts (10 s) through the glue's setTimeout import and
 * never clears them; unref them so a finished migration does not hold the
 * process open for their remainder.
 */
function withUnrefTimers(glue: SchemaEngineModule): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(imports).filter((key) => key.startsWith('__wbg_setTimeout_'))) {
    imports[name] = (callback: () => void, milliseconds: number) =>
      setTimeout(callback, milliseconds >>> 0).unref();
  }
  return imports;
}

function loadSchemaEngineModule(): Promise<SchemaEngineModule> {
  engineModule ??= (async () => {
    // The package is ESM-only and a wasm-bindgen "bundler" build: instantiate it by hand.
    const glue: SchemaEngineModule = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmFile = path.join(
      path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
      'schema_engine_bg.wasm',
    );
    const module = await WebAssembly.compile(await readFile(wasmFile));
    const instance = await WebAssembly.instantiate(module, {
      './schema_engine_bg.js': withUnrefTimers(glue),
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
    return glue;
  })();
  return engineModule;
}

export const appRoot = path.resolve(__dirname, '..', '..');
export const schemaFile = path.join(appRoot, 'prisma', 'schema.prisma');
export const migrationsDir = path.join(appRoot, 'prisma', 'migrations');

/**
 * Runs `task` with a schema engine over `adapterFactory`, then frees the engine
 * and disposes every connection it opened (the engine itself never does, and
 * an open pool or PGlite would keep the process alive).
 */
export async function withSchemaEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  task: (engine: SchemaEngine) => Promise<T>,
  schemaPath = schemaFile,
): Promise<T> {
  const opened: SqlDriverAdapter[] = [];
  const track = async (connection: Promise<SqlDriverAdapter>) => {
    const adapter = await connection;
    opened.push(adapter);
    return adapter;
  };
  const trackingFactory: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: () => track(adapterFactory.connect()),
    connectToShadowDb: () => track(adapterFactory.connectToShadowDb()),
  };
  const glue = await loadSchemaEngineModule();
  const schema = await readFile(schemaPath, 'utf8');
  const engine = await glue.SchemaEngine.new(
    { datamodels: [[path.basename(schemaPath), schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(trackingFactory),
  );
  try {
    return await task(engine);
  } finally {
    engine.free();
    await Promise.all(opened.map((adapter) => adapter.dispose()));
  }
}
