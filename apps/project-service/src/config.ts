import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { DEVELOPMENT_ADMIN, type AuthConfig, type VerificationKey } from './auth/auth-config';
import type { DatabaseLocation } from './db/database';
import type { LogFormat } from './logger';
import { UNPAGED_LIST_DEFAULTS, type ConcurrencyLimits } from './http/concurrency-gate';
import {
  operationsEnvironmentShape,
  operationsProblems,
  toOperationsSettings,
  type OperationsSettings,
} from './operations-config';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Every environment variable the service reads (but OTEL_*: src/tracing.ts), parsed once at start-up. */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data/project-service'),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  // `pretty`, one readable line per request, is for a person at a terminal: the default when
  // stdout is one (the root `npm start` says when yours is); JSON otherwise, and always in production.
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  JWKS_URL: z.url().optional(),
  JWT_PUBLIC_KEY: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  JWT_ISSUER: z.string().min(1).optional(),
  JWT_AUDIENCE: z.string().min(1).optional(),
  ADMIN_PRINCIPALS: z.string().default(''),
  ADMIN_GROUP: z.string().min(1).default('project-admins'),
  // Unpaged GET /projects streaming at once, and how long one more waits for a turn before its 429.
  UNPAGED_LIST_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(UNPAGED_LIST_DEFAULTS.concurrency),
  UNPAGED_LIST_QUEUE_MS: z.coerce.number().int().min(0).max(60_000).default(UNPAGED_LIST_DEFAULTS.queueMs),
  // Server timeouts, shutdown, database bounds, metrics: src/operations-config.ts.
  ...operationsEnvironmentShape,
});

/** Each variable of the schema and its own schema (the README's table is tested against them). */
export const CONFIG_VARIABLES = environmentSchema.shape;

export interface Config {
  environment: 'development' | 'test' | 'production';
  port: number;
  database: DatabaseLocation;
  logLevel: (typeof logLevels)[number];
  logFormat: LogFormat;
  auth: AuthConfig;
  /** The bound of concurrent unpaged lists (for the app's ConcurrencyGate). */
  unpagedLists: ConcurrencyLimits;
  /** Server timeouts, shutdown periods, database bounds, metrics token. */
  operations: OperationsSettings;
  /** Set when no key was configured outside production: the generated secret, to print a development token. */
  developmentSecret?: string;
}

export class ConfigError extends Error {}

/** `terminal`: whether stdout is a terminal, which makes `pretty` the default log format. */
export function loadConfig(
  environment: NodeJS.ProcessEnv = process.env,
  terminal = process.stdout.isTTY === true,
): Config {
  const parsed = environmentSchema.safeParse(environment);
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
  const configuredKeys: VerificationKey[] = [
    ...(env.JWKS_URL ? [{ kind: 'jwks' as const, url: env.JWKS_URL }] : []),
    // Environments often carry PEM newlines escaped as \n.
    ...(env.JWT_PUBLIC_KEY
      ? [{ kind: 'public-key' as const, publicKeyPem: env.JWT_PUBLIC_KEY.replace(/\\n/g, '\n') }]
      : []),
    ...(env.JWT_SECRET ? [{ kind: 'secret' as const, secret: env.JWT_SECRET }] : []),
  ];
  if (configuredKeys.length > 1) {
    throw new ConfigError('invalid configuration: set only one of JWKS_URL, JWT_PUBLIC_KEY and JWT_SECRET');
  }
  if (configuredKeys.length === 0 && env.NODE_ENV === 'production') {
    throw new ConfigError(
      'refusing to start: NODE_ENV=production but no token verification key is configured; set JWKS_URL, JWT_PUBLIC_KEY or JWT_SECRET',
    );
  }
  const adminPrincipals = env.ADMIN_PRINCIPALS.split(',')
    .map((principal) => principal.trim())
    .filter(Boolean);
  // Development without a key: a random secret for this run, and its admin listed as such.
  const developmentSecret = configuredKeys.length === 0 ? randomBytes(32).toString('base64url') : undefined;
  const key = configuredKeys[0] ?? { kind: 'secret' as const, secret: developmentSecret ?? '' };
  return {
    auth: {
      key,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      adminPrincipals: developmentSecret ? [...adminPrincipals, DEVELOPMENT_ADMIN] : adminPrincipals,
      adminGroup: env.ADMIN_GROUP,
    },
    developmentSecret,
    environment: env.NODE_ENV,
    port: env.PORT,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.resolve(env.DATA_DIR) },
    logLevel: env.LOG_LEVEL,
    logFormat: env.NODE_ENV === 'production' ? 'json' : (env.LOG_FORMAT ?? (terminal ? 'pretty' : 'json')),
    unpagedLists: { concurrency: env.UNPAGED_LIST_CONCURRENCY, queueMs: env.UNPAGED_LIST_QUEUE_MS },
    operations: toOperationsSettings(env),
  };
}
