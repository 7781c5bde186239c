import path from 'node:path';
import { DiskStorage } from '../src/storage/disk-storage';
import { S3Storage } from '../src/storage/s3-storage';
import {
  attachmentSettingsSchema,
  createStorage,
  DEFAULT_ATTACHMENT_MAX_SIZE,
  GITEA_ALLOWED_TYPES,
} from '../src/storage/storage-config';

function issuesOf(environment: NodeJS.ProcessEnv): string[] {
  const parsed = attachmentSettingsSchema.safeParse(environment);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('attachment settings from the environment', () => {
  it('defaults to disk storage, 100 MiB and Gitea’s type list', () => {
    const settings = attachmentSettingsSchema.parse({ PATH: '/usr/bin' });
    expect(settings).toEqual({
      maxSize: 100 * 1024 * 1024,
      allowedTypes: GITEA_ALLOWED_TYPES.split(','),
      storage: { kind: 'disk' },
    });
    expect(settings.allowedTypes).toContain('.zip');
    expect(DEFAULT_ATTACHMENT_MAX_SIZE).toBe(104857600);
  });

  it('reads the size in bytes and the type entries trimmed and lowercased', () => {
    const settings = attachmentSettingsSchema.parse({
      ATTACHMENT_MAX_SIZE: '1024',
      ATTACHMENT_ALLOWED_TYPES: ' .TXT, image/* ,application/pdf,,',
    });
    expect(settings.maxSize).toBe(1024);
    expect(settings.allowedTypes).toEqual(['.txt', 'image/*', 'application/pdf']);
  });

  it('allows every type when the list is empty, as Gitea does', () => {
    expect(attachmentSettingsSchema.parse({ ATTACHMENT_ALLOWED_TYPES: '' }).allowedTypes).toEqual(['*/*']);
  });

  it.each(['exe', '.', 'image/', '*', 'text/plain; charset=utf-8'])('refuses the type entry %j', (entry) => {
    expect(issuesOf({ ATTACHMENT_ALLOWED_TYPES: `.txt,${entry}` })).toEqual([
      expect.stringMatching(/^ATTACHMENT_ALLOWED_TYPES\.1: entries are/),
    ]);
  });

  it.each(['-1', '1.5', 'lots'])('refuses the size %j', (size) => {
    expect(issuesOf({ ATTACHMENT_MAX_SIZE: size })).toEqual([
      expect.stringMatching(/^ATTACHMENT_MAX_SIZE: /),
    ]);
  });

  it('reads the S3 settings', () => {
    const settings = attachmentSettingsSchema.parse({
      ATTACHMENT_STORAGE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-west-1',
      S3_BUCKET: 'attachments',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(settings.storage).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      bucket: 'attachments',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('leaves S3 credentials to the SDK’s default chain when none are set', () => {
    const settings = attachmentSettingsSchema.parse({ ATTACHMENT_STORAGE: 's3', S3_BUCKET: 'attachments' });
    expect(settings.storage).toMatchObject({
      kind: 's3',
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it('requires a bucket for S3, and both keys or neither, without echoing a secret', () => {
    const issues = issuesOf({ ATTACHMENT_STORAGE: 's3', S3_SECRET_ACCESS_KEY: 'hunter2' });
    expect(issues).toEqual([
      'S3_BUCKET: required when ATTACHMENT_STORAGE is s3',
      expect.stringMatching(/^S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/),
    ]);
    expect(issues.join()).not.toContain('hunter2');
  });

  it('refuses an unknown backend', () => {
    expect(issuesOf({ ATTACHMENT_STORAGE: 'ftp' })).toEqual([expect.stringMatching(/^ATTACHMENT_STORAGE: /)]);
  });
});

describe('createStorage', () => {
  it('puts disk attachments under DATA_DIR/attachments', async () => {
    const storage = createStorage(attachmentSettingsSchema.parse({}), 'some/data');
    expect(storage).toBeInstanceOf(DiskStorage);
    expect((storage as DiskStorage).root).toBe(path.resolve('some/data', 'attachments'));
    await storage.close();
  });

  it('builds the S3 backend from the S3 settings', async () => {
    const storage = createStorage(
      attachmentSettingsSchema.parse({ ATTACHMENT_STORAGE: 's3', S3_BUCKET: 'b' }),
      'data',
    );
    expect(storage).toBeInstanceOf(S3Storage);
    await storage.close();
  });
});
