import path from 'node:path';
import { z } from 'zod';
import type { DatabaseLocation } from './db/database';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Every environment variable the service reads, parsed once at start-up. */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data/code-hosting-api'),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  ROOT_URL: z.url({ protocol: /^https?$/ }).optional(),
});

export interface Config {
  environment: 'development' | 'test' | 'production';
  port: number;
  database: DatabaseLocation;
  logLevel: (typeof logLevels)[number];
  /** Public base URL with a trailing slash; absolute URLs in responses start with it. */
  rootUrl: string;
}

export class ConfigError extends Error {}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    // Name the variable and the rule, never the value: it may be a secret.
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const env = parsed.data;
  return {
    environment: env.NODE_ENV,
    port: env.PORT,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.resolve(env.DATA_DIR) },
    logLevel: env.LOG_LEVEL,
    rootUrl: withTrailingSlash(env.ROOT_URL ?? `http://localhost:${env.PORT}/`),
  };
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
