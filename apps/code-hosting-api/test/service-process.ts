import path from 'node:path';
import { createServiceHome, type ServiceHome } from '@repo/testing';

export const processAdmin = { username: 'process-admin', password: 'process-admin-password' };
export const processAdminAuthorization = `Basic ${Buffer.from(`${processAdmin.username}:${processAdmin.password}`).toString('base64')}`;

/** The built service as a child process, with a site administrator, restartable on the same data. */
export function serviceHome(): Promise<ServiceHome> {
  return createServiceHome(path.resolve(__dirname, '..'), {
    ADMIN_USERNAME: processAdmin.username,
    ADMIN_PASSWORD: processAdmin.password,
    PASSWORD_HASH_COST: '16',
  });
}
