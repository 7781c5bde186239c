import path from 'node:path';
import { createServiceHome, type ServiceHome } from '@repo/testing';
import { ADMIN_PRINCIPAL, TEST_JWT_SECRET } from './app';

/** The built service as a child process, with the test token key, restartable on the same data. */
export function serviceHome(): Promise<ServiceHome> {
  return createServiceHome(path.resolve(__dirname, '..'), {
    JWT_SECRET: TEST_JWT_SECRET,
    ADMIN_PRINCIPALS: ADMIN_PRINCIPAL,
  });
}
