import { S3Storage } from '../src/storage/s3-storage';
import { startS3Server, type S3TestServer } from './s3-server';
import { describeStorageContract } from './storage-contract';

let server: S3TestServer;
let prefixes = 0;

beforeAll(async () => {
  server = await startS3Server();
});

afterAll(async () => {
  await server.stop();
});

// Each test gets a prefix of its own in the one bucket: an empty storage.
describeStorageContract(
  's3',
  async () =>
    new S3Storage({
      endpoint: server.endpoint,
      region: server.region,
      bucket: server.bucket,
      credentials: server.credentials,
      forcePathStyle: true,
      prefix: `test-${++prefixes}/attachments/`,
    }),
);
