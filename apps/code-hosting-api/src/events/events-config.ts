// Generated from apps/project-service/src/events/events-config.ts by `npm run sync:copies`: edit that file, not this copy.
import { z } from 'zod';
import { EVENT_STREAM_NAME } from './catalog';

const HOUR_MS = 3_600_000;

/**
 * The change-event variables (src/events), spread into config.ts's environment schema; the same in
 * both services but for the stream's default name (src/events/catalog.ts). Off when NATS_URL is unset.
 */
export const eventsEnvironmentShape = {
  // One or more servers, comma-separated; user and password may be in the URL (never logged).
  NATS_URL: z
    .string()
    .regex(
      /^((nats|tls|ws|wss):\/\/[^,\s]+)(,(nats|tls|ws|wss):\/\/[^,\s]+)*$/,
      'must be nats:// URLs, comma-separated',
    )
    .optional(),
  // A NATS credentials file (JWT and NKey seed), as `nsc` writes it.
  NATS_CREDS: z.string().min(1).optional(),
  EVENTS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -')
    .default(EVENT_STREAM_NAME),
  // Put before every subject (`staging.` → `staging.projects.<uid>.created`); empty by default.
  EVENTS_SUBJECT_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\.)*$/, 'tokens each followed by a dot')
    .max(64)
    .default(''),
  EVENTS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  // The stream's limits when the service creates it (an existing stream is left as it is).
  EVENTS_STREAM_MAX_AGE_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(87_600)
    .default(24 * 7),
  EVENTS_STREAM_MAX_BYTES: z.coerce.number().int().min(-1).default(-1),
  EVENTS_STREAM_DUPLICATE_WINDOW_MS: z.coerce.number().int().min(1000).max(HOUR_MS).default(120_000),
  // How long published events stay in the outbox (for replay) before they are deleted.
  EVENTS_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(87_600)
    .default(24 * 7),
  // One publish's wait for JetStream's acknowledgement.
  EVENTS_PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  // X-Sync: true (src/http/x-sync.ts) waits this long for the write's event to be acknowledged by JetStream.
  X_SYNC_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
};

export type EventsEnvironment = z.infer<z.ZodObject<typeof eventsEnvironmentShape>>;

export interface StreamSettings {
  name: string;
  subjectPrefix: string;
  replicas: number;
  maxAgeMs: number;
  maxBytes: number;
  duplicateWindowMs: number;
}

export interface EventsSettings {
  /** The servers, comma-separated as given. */
  natsUrl: string;
  natsCreds?: string;
  stream: StreamSettings;
  retentionMs: number;
  publishTimeoutMs: number;
}

/** The events' settings, or undefined when NATS_URL is unset (events off). */
export function toEventsSettings(env: EventsEnvironment): EventsSettings | undefined {
  if (!env.NATS_URL) return undefined;
  return {
    natsUrl: env.NATS_URL,
    natsCreds: env.NATS_CREDS,
    stream: {
      name: env.EVENTS_STREAM,
      subjectPrefix: env.EVENTS_SUBJECT_PREFIX,
      replicas: env.EVENTS_STREAM_REPLICAS,
      maxAgeMs: env.EVENTS_STREAM_MAX_AGE_HOURS * HOUR_MS,
      maxBytes: env.EVENTS_STREAM_MAX_BYTES,
      duplicateWindowMs: env.EVENTS_STREAM_DUPLICATE_WINDOW_MS,
    },
    retentionMs: env.EVENTS_RETENTION_HOURS * HOUR_MS,
    publishTimeoutMs: env.EVENTS_PUBLISH_TIMEOUT_MS,
  };
}
