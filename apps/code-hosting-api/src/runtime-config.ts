// Generated from apps/project-service/src/runtime-config.ts by `npm run sync:copies`: edit that file, not this copy.
import path from 'node:path';
import { z } from 'zod';
import type { DatabaseLocation } from './db/database';
import type { LogFormat } from './logger';
import {
  operationsProblems,
  toOperationsSettings,
  type OperationsEnvironment,
  type OperationsSettings,
} from './operations-config';
import { SERVICE_NAME } from './service-name';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The variables every service reads to run (environment, port, database, logs), spread first into
 * config.ts's environment schema; the default port is the app's own.
 */
export function runtimeEnvironmentShape(defaultPort: number) {
  return {
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(defaultPort),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
      .optional(),
    DATA_DIR: z.string().min(1).default(`./data/${SERVICE_NAME}`),
    LOG_LEVEL: z.enum(logLevels).default('info'),
    // `pretty`, one readable line per request, is for a person at a terminal: the default when
    // stdout is one (the root `npm start` says when yours is); JSON otherwise, and always in production.
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  };
}

type RuntimeEnvironment = z.infer<z.ZodObject<ReturnType<typeof runtimeEnvironmentShape>>> &
  OperationsEnvironment;

/** What every service's Config holds to run, whatever else its config.ts adds. */
export interface RuntimeSettings {
  environment: 'development' | 'test' | 'production';
  port: number;
  database: DatabaseLocation;
  logLevel: (typeof logLevels)[number];
  logFormat: LogFormat;
  /** Server timeouts, shutdown periods, database bounds, metrics token. */
  operations: OperationsSettings;
}

/** A configuration the service cannot start with; main.ts prints its message alone. */
export class ConfigError extends Error {}

/**
 * The environment as `schema` parses it, or a ConfigError naming each variable and its rule, and
 * the contradictions between the runtime variables.
 */
export function parseEnvironment<Schema extends z.ZodType<RuntimeEnvironment>>(
  schema: Schema,
  environment: NodeJS.ProcessEnv,
): z.output<Schema> {
  const parsed = schema.safeParse(environment);
  if (!parsed.success) {
    // Name the variable and the rule, never the value: it may be a secret.
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const env = parsed.data;
  const contradictions = operationsProblems(env);
  if (env.NODE_ENV === 'production' && env.LOG_FORMAT === 'pretty') {
    contradictions.push('LOG_FORMAT: pretty is for a terminal; production logs are JSON');
  }
  if (contradictions.length > 0) {
    throw new ConfigError(`invalid configuration: ${contradictions.join('; ')}`);
  }
  return env;
}

/** `terminal`: whether stdout is a terminal, which makes `pretty` the default log format. */
export function toRuntimeSettings(env: RuntimeEnvironment, terminal: boolean): RuntimeSettings {
  return {
    environment: env.NODE_ENV,
    port: env.PORT,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.resolve(env.DATA_DIR) },
    logLevel: env.LOG_LEVEL,
    logFormat: env.NODE_ENV === 'production' ? 'json' : (env.LOG_FORMAT ?? (terminal ? 'pretty' : 'json')),
    operations: toOperationsSettings(env),
  };
}
