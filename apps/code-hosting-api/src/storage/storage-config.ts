import path from 'node:path';
import { z } from 'zod';
import { DiskStorage } from './disk-storage';
import type { S3StorageOptions } from './s3-storage';
import type { Storage } from './storage';

/** Gitea's [attachment] ALLOWED_TYPES default. */
export const GITEA_ALLOWED_TYPES =
  '.avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip';

export const DEFAULT_ATTACHMENT_MAX_SIZE = 100 * 1024 * 1024;

// `.ext`, `type/subtype` or `type/*` (and `*/*`, every type), as Gitea reads them.
const TYPE_ENTRY =
  /^(\.[a-z0-9][a-z0-9._+-]*|[a-z0-9][a-z0-9!#$&^_.+-]*\/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)|\*\/\*)$/;

const allowedTypes = z
  .string()
  .default(GITEA_ALLOWED_TYPES)
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== ''),
  )
  .pipe(z.array(z.string().regex(TYPE_ENTRY, 'entries are .ext, type/subtype or type/*')))
  // Gitea: an empty list allows every type.
  .transform((entries) => (entries.length === 0 ? ['*/*'] : entries));

/**
 * The attachment settings among the environment variables. A plain object
 * shape, so config.ts can spread it into its own schema; the rules that tie
 * several variables together live in attachmentSettingsSchema.
 */
export const attachmentEnvironmentShape = {
  ATTACHMENT_STORAGE: z.enum(['disk', 's3']).default('disk'),
  // Bytes; a file of exactly this size is accepted.
  ATTACHMENT_MAX_SIZE: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(DEFAULT_ATTACHMENT_MAX_SIZE),
  ATTACHMENT_ALLOWED_TYPES: allowedTypes,
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.stringbool().default(false),
};

export interface AttachmentSettings {
  /** Largest accepted upload, in bytes (inclusive). */
  maxSize: number;
  /** Lowercase `.ext`, `type/subtype`, `type/*` entries; the entry star-slash-star allows every type. */
  allowedTypes: string[];
  storage: { kind: 'disk' } | ({ kind: 's3' } & S3StorageOptions);
}

type AttachmentEnvironment = z.infer<z.ZodObject<typeof attachmentEnvironmentShape>>;

/**
 * The settings from the parsed variables, with the rules that tie several of them together
 * reported on `context`. config.ts runs it inside its own schema.
 */
export function toAttachmentSettings(
  env: AttachmentEnvironment,
  context: z.RefinementCtx,
): AttachmentSettings {
  const settings = { maxSize: env.ATTACHMENT_MAX_SIZE, allowedTypes: env.ATTACHMENT_ALLOWED_TYPES };
  if (env.ATTACHMENT_STORAGE === 'disk') return { ...settings, storage: { kind: 'disk' } };

  if (env.S3_BUCKET === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['S3_BUCKET'],
      message: 'required when ATTACHMENT_STORAGE is s3',
    });
  }
  const keyId = env.S3_ACCESS_KEY_ID;
  const secret = env.S3_SECRET_ACCESS_KEY;
  if ((keyId === undefined) !== (secret === undefined)) {
    context.addIssue({
      code: 'custom',
      path: [keyId === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'],
      message:
        'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or neither, for the SDK default credentials)',
    });
  }
  return {
    ...settings,
    storage: {
      kind: 's3',
      bucket: env.S3_BUCKET ?? '',
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      credentials:
        keyId !== undefined && secret !== undefined
          ? { accessKeyId: keyId, secretAccessKey: secret }
          : undefined,
    },
  };
}

/** Parses the attachment variables out of the whole environment (unknown keys pass through unread). */
export const attachmentSettingsSchema = z.object(attachmentEnvironmentShape).transform(toAttachmentSettings);

/** The configured backend: files under `<dataDir>/attachments`, or the S3 bucket. */
export function createStorage(settings: AttachmentSettings, dataDir: string): Storage {
  const { storage } = settings;
  if (storage.kind === 'disk') return new DiskStorage(path.join(path.resolve(dataDir), 'attachments'));
  const { kind: _kind, ...options } = storage;
  // Loaded only here: the AWS SDK adds about 7.5 MiB to the RSS of a process that loads it,
  // and a disk deployment never uses it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3Storage } = require('./s3-storage') as typeof import('./s3-storage');
  return new S3Storage(options);
}
