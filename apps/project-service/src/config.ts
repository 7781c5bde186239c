import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DEVELOPMENT_ADMIN, type AuthConfig, type VerificationKey } from './auth/auth-config';
import { UNPAGED_LIST_DEFAULTS, type ConcurrencyLimits } from './http/concurrency-gate';
import { eventsEnvironmentShape, toEventsSettings, type EventsSettings } from './events/events-config';
import { operationsEnvironmentShape } from './operations-config';
import {
  ConfigError,
  parseEnvironment,
  runtimeEnvironmentShape,
  toRuntimeSettings,
  type RuntimeSettings,
} from './runtime-config';

// Where main.ts and the tests catch it: beside loadConfig, which throws it.
export { ConfigError };

/** Every environment variable the service reads (but OTEL_*: src/tracing.ts), parsed once at start-up. */
const environmentSchema = z.object({
  // NODE_ENV, PORT, DATABASE_URL, DATA_DIR, LOG_LEVEL, LOG_FORMAT: src/runtime-config.ts. 8080: each app
  // keeps the port its deployments already use (infra/k8s, the Dockerfile).
  ...runtimeEnvironmentShape(8080),
  JWKS_URL: z.url().optional(),
  JWT_PUBLIC_KEY: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  JWT_ISSUER: z.string().min(1).optional(),
  JWT_AUDIENCE: z.string().min(1).optional(),
  // false: accept tokens without exp (a gateway that mints none).
  JWT_REQUIRE_EXP: z.stringbool().default(true),
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
  // The service's public URL: the `source` of its change events. http://localhost:<PORT>/ when unset.
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Server timeouts, shutdown, database bounds, metrics: src/operations-config.ts.
  ...operationsEnvironmentShape,
  // NATS, the stream, the outbox: src/events/events-config.ts.
  ...eventsEnvironmentShape,
});

/** Each variable of the schema and its own schema (the README's table is tested against them). */
export const CONFIG_VARIABLES = environmentSchema.shape;

export interface Config extends RuntimeSettings {
  auth: AuthConfig;
  /** The bound of concurrent unpaged lists (for the app's ConcurrencyGate). */
  unpagedLists: ConcurrencyLimits;
  /** Change events: undefined when off (NATS_URL unset). */
  events?: EventsSettings;
  /** The events' `source`. */
  publicUrl: string;
  /** X-Sync's bound on waiting for the write's event. */
  xSyncTimeoutMs: number;
  /** Set when no key was configured outside production: the generated secret, to print a development token. */
  developmentSecret?: string;
}

/** `terminal`: whether stdout is a terminal, which makes `pretty` the default log format. */
export function loadConfig(
  environment: NodeJS.ProcessEnv = process.env,
  terminal = process.stdout.isTTY === true,
): Config {
  const env = parseEnvironment(environmentSchema, environment);
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
    ...toRuntimeSettings(env, terminal),
    auth: {
      key,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      adminPrincipals: developmentSecret ? [...adminPrincipals, DEVELOPMENT_ADMIN] : adminPrincipals,
      adminGroup: env.ADMIN_GROUP,
      requireExp: env.JWT_REQUIRE_EXP,
    },
    developmentSecret,
    unpagedLists: { concurrency: env.UNPAGED_LIST_CONCURRENCY, queueMs: env.UNPAGED_LIST_QUEUE_MS },
    events: toEventsSettings(env),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}/`,
    xSyncTimeoutMs: env.X_SYNC_TIMEOUT_MS,
  };
}
