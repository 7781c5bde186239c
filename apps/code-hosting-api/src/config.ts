import path from 'node:path';
import { z } from 'zod';
import { defaultLoginThrottleSettings, type LoginThrottleSettings } from './domain/login-throttle';
import { eventsEnvironmentShape, toEventsSettings, type EventsSettings } from './events/events-config';
import { operationsEnvironmentShape } from './operations-config';
import {
  ConfigError,
  parseEnvironment,
  runtimeEnvironmentShape,
  toRuntimeSettings,
  type RuntimeSettings,
} from './runtime-config';
import {
  attachmentEnvironmentShape,
  DEFAULT_ATTACHMENT_MAX_SIZE,
  GITEA_ALLOWED_TYPES,
  toAttachmentSettings,
  type AttachmentSettings,
} from './storage/storage-config';

/**
 * The Gitea release whose API v1 the service follows: the reference Swagger document
 * (test/fixtures/gitea-api-v1-subset.swagger.json) is Gitea 1.23's, and the operations in scope
 * behave as 1.23's.
 */
export const GITEA_API_VERSION = '1.23.8';

// Where main.ts and the tests catch it: beside loadConfig, which throws it.
export { ConfigError };

/** The settings without an environment: tests and buildApp's default; the variables below default to them. */
export const defaultSettings: ServiceSettings = {
  defaultPageSize: 30,
  maxPageSize: 50,
  passwordHashCost: 32768,
  orgDangerZoneRestricted: false,
  disableRegularOrgCreation: false,
  defaultAllowCreateOrganization: true,
  attachmentMaxSize: DEFAULT_ATTACHMENT_MAX_SIZE,
  attachmentAllowedTypes: GITEA_ALLOWED_TYPES.split(','),
  loginThrottle: defaultLoginThrottleSettings,
  trustProxy: false,
  tokenUseIntervalMs: 60_000,
  giteaVersion: GITEA_API_VERSION,
};

const count = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const seconds = (fallback: number) => z.coerce.number().positive().default(fallback);

/** `true`/`false`, a hop count, or Express's comma-separated addresses, subnets and names (`loopback`). */
function toTrustProxy(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Every environment variable the service reads (but OTEL_*: src/tracing.ts), parsed once at start-up. */
const environmentSchema = z
  .object({
    // NODE_ENV, PORT, DATABASE_URL, DATA_DIR, LOG_LEVEL, LOG_FORMAT: src/runtime-config.ts. 3000: each app
    // keeps the port its deployments already use (infra/k8s, the Dockerfile).
    ...runtimeEnvironmentShape(3000),
    ROOT_URL: z.url({ protocol: /^https?$/ }).optional(),
    // Gitea's [api] DEFAULT_PAGING_NUM and MAX_RESPONSE_ITEMS.
    API_DEFAULT_PAGING_NUM: z.coerce.number().int().min(1).default(defaultSettings.defaultPageSize),
    API_MAX_RESPONSE_ITEMS: z.coerce.number().int().min(1).default(defaultSettings.maxPageSize),
    // scrypt cost N (a power of two); tests lower it to stay fast.
    PASSWORD_HASH_COST: z.coerce
      .number()
      .int()
      .min(2)
      .refine((n) => (n & (n - 1)) === 0, 'must be a power of two')
      .default(defaultSettings.passwordHashCost),
    ADMIN_USERNAME: z.string().min(1).optional(),
    ADMIN_PASSWORD: z.string().min(1).optional(),
    ADMIN_EMAIL: z.string().min(1).optional(),
    // The Gitea release whose API v1 this service follows, answered by GET /api/v1/version:
    // clients such as the Go SDK read it to decide which calls the server supports.
    GITEA_VERSION: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'must be a Gitea release number such as 1.23.8')
      .default(defaultSettings.giteaVersion),
    // Comma-separated; "danger_zone" restricts rename, delete and visibility changes to site admins.
    ORG_DISABLED_FEATURES: z.string().default(''),
    // Gitea's [admin] DISABLE_REGULAR_ORG_CREATION and [service] DEFAULT_ALLOW_CREATE_ORGANIZATION.
    ORG_DISABLE_REGULAR_CREATION: z.stringbool().default(defaultSettings.disableRegularOrgCreation),
    ORG_DEFAULT_ALLOW_CREATE: z.stringbool().default(defaultSettings.defaultAllowCreateOrganization),
    // ATTACHMENT_STORAGE, ATTACHMENT_MAX_SIZE, ATTACHMENT_ALLOWED_TYPES, S3_*: src/storage/storage-config.ts.
    ...attachmentEnvironmentShape,
    // Failed password logins (src/domain/login-throttle.ts): failures allowed per (account,
    // address), per address and per account within the window, then backoff (seconds); the rows
    // kept per counter kind in the database.
    LOGIN_THROTTLE_WINDOW: seconds(defaultLoginThrottleSettings.windowSeconds),
    LOGIN_THROTTLE_PAIR_FAILURES: count(defaultLoginThrottleSettings.pairFailures),
    LOGIN_THROTTLE_ADDRESS_FAILURES: count(defaultLoginThrottleSettings.addressFailures),
    LOGIN_THROTTLE_ACCOUNT_FAILURES: count(defaultLoginThrottleSettings.accountFailures),
    LOGIN_THROTTLE_BASE_DELAY: seconds(defaultLoginThrottleSettings.baseDelaySeconds),
    LOGIN_THROTTLE_MAX_DELAY: seconds(defaultLoginThrottleSettings.maxDelaySeconds),
    LOGIN_THROTTLE_MAX_ENTRIES: count(defaultLoginThrottleSettings.maxEntries),
    // Express's "trust proxy": which proxies' X-Forwarded-For gives the client's address.
    TRUST_PROXY: z.string().default('false').transform(toTrustProxy),
    // Server timeouts, shutdown, database bounds, metrics: src/operations-config.ts.
    ...operationsEnvironmentShape,
    // NATS, the stream, the outbox: src/events/events-config.ts.
    ...eventsEnvironmentShape,
  })
  .transform((env, context) => ({ ...env, attachments: toAttachmentSettings(env, context) }));

/** Each variable of the schema and its own schema (the README's table is tested against them). */
export const CONFIG_VARIABLES = environmentSchema.in.shape;

export interface Config extends RuntimeSettings {
  /** Change events: undefined when off (NATS_URL unset). */
  events?: EventsSettings;
  /** X-Sync's bound on waiting for the write's event. */
  xSyncTimeoutMs: number;
  /** Public base URL with a trailing slash; absolute URLs in responses start with it. */
  rootUrl: string;
  settings: ServiceSettings;
  /** Attachment limits and where attachments are stored (disk under DATA_DIR, or S3). */
  attachments: AttachmentSettings;
  /** DATA_DIR, resolved: PGlite's files and the disk storage's `attachments/` folder. */
  dataDir: string;
  /** Site administrator to ensure at start-up, when configured. */
  bootstrapAdmin?: { username: string; password: string; email?: string };
}

/** The deployment settings the API's rules read. */
export interface ServiceSettings {
  defaultPageSize: number;
  maxPageSize: number;
  passwordHashCost: number;
  /** Danger-zone actions on organizations are for site administrators only. */
  orgDangerZoneRestricted: boolean;
  /** Only site administrators may create organizations. */
  disableRegularOrgCreation: boolean;
  /** Whether new users may create organizations. */
  defaultAllowCreateOrganization: boolean;
  /** Largest attachment accepted, in bytes (inclusive). */
  attachmentMaxSize: number;
  /** Lowercase `.ext`, `type/subtype`, `type/*` entries an attachment must match. */
  attachmentAllowedTypes: string[];
  /** Backoff on failed password logins. */
  loginThrottle: LoginThrottleSettings;
  /** Express's "trust proxy" setting: whose X-Forwarded-For names the client's address. */
  trustProxy: boolean | number | string;
  /** The Gitea release whose API this service follows (GET /api/v1/version). */
  giteaVersion: string;
  /** A token's `last_used_at` is written at most once per this many milliseconds (one minute). */
  tokenUseIntervalMs: number;
}

/** `terminal`: whether stdout is a terminal, which makes `pretty` the default log format. */
export function loadConfig(
  environment: NodeJS.ProcessEnv = process.env,
  terminal = process.stdout.isTTY === true,
): Config {
  const env = parseEnvironment(environmentSchema, environment);
  return {
    ...toRuntimeSettings(env, terminal),
    dataDir: path.resolve(env.DATA_DIR),
    attachments: env.attachments,
    rootUrl: withTrailingSlash(env.ROOT_URL ?? `http://localhost:${env.PORT}/`),
    events: toEventsSettings(env),
    xSyncTimeoutMs: env.X_SYNC_TIMEOUT_MS,
    settings: {
      defaultPageSize: env.API_DEFAULT_PAGING_NUM,
      maxPageSize: env.API_MAX_RESPONSE_ITEMS,
      passwordHashCost: env.PASSWORD_HASH_COST,
      orgDangerZoneRestricted: env.ORG_DISABLED_FEATURES.split(',')
        .map((feature) => feature.trim())
        .includes('danger_zone'),
      disableRegularOrgCreation: env.ORG_DISABLE_REGULAR_CREATION,
      defaultAllowCreateOrganization: env.ORG_DEFAULT_ALLOW_CREATE,
      attachmentMaxSize: env.attachments.maxSize,
      attachmentAllowedTypes: env.attachments.allowedTypes,
      loginThrottle: {
        windowSeconds: env.LOGIN_THROTTLE_WINDOW,
        pairFailures: env.LOGIN_THROTTLE_PAIR_FAILURES,
        addressFailures: env.LOGIN_THROTTLE_ADDRESS_FAILURES,
        accountFailures: env.LOGIN_THROTTLE_ACCOUNT_FAILURES,
        baseDelaySeconds: env.LOGIN_THROTTLE_BASE_DELAY,
        maxDelaySeconds: env.LOGIN_THROTTLE_MAX_DELAY,
        maxEntries: env.LOGIN_THROTTLE_MAX_ENTRIES,
      },
      trustProxy: env.TRUST_PROXY,
      tokenUseIntervalMs: defaultSettings.tokenUseIntervalMs,
      giteaVersion: env.GITEA_VERSION,
    },
    bootstrapAdmin:
      env.ADMIN_USERNAME && env.ADMIN_PASSWORD
        ? { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD, email: env.ADMIN_EMAIL }
        : undefined,
  };
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
