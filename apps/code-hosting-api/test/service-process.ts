import path from 'node:path';
import { createServiceHome, rawHttp, type ServiceHome, type ServiceProcess } from '@repo/testing';

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

/** A new access token of the process's site administrator, with every scope: its 40 hex digits. */
export async function processAdminToken(service: ServiceProcess, name: string): Promise<string> {
  const created = await rawHttp(service.baseUrl, {
    method: 'POST',
    path: `/api/v1/users/${processAdmin.username}/tokens`,
    headers: [
      ['Authorization', processAdminAuthorization],
      ['Content-Type', 'application/json'],
    ],
    body: JSON.stringify({ name, scopes: ['all'] }),
  });
  if (created.status !== 201)
    throw new Error(`creating a token: ${created.status} ${created.body.toString()}`);
  return (created.json as { sha1: string }).sha1;
}
