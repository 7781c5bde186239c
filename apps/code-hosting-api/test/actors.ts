import type { TestApp } from '@repo/testing';
import { siteAdmin } from './app';

// Arranging data through the API itself, as a Gitea client would.

export interface Actor {
  username: string;
  password: string;
  /** A token with every scope. */
  token: string;
  id: number;
}

export const api = '/api/v1';

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export const adminAuthorization = basic(siteAdmin.username, siteAdmin.password);

let counter = 0;
/** A fresh account name, unique within the test file. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

export async function createToken(
  service: TestApp,
  user: { username: string; password: string },
  scopes: string[],
  name = uniqueName('token'),
): Promise<string> {
  const response = await service.request
    .post(`${api}/users/${user.username}/tokens`)
    .set('Authorization', basic(user.username, user.password))
    .send({ name, scopes })
    .expect(201);
  return response.body.sha1 as string;
}

export async function createUser(
  service: TestApp,
  prefix = 'user',
  options: { visibility?: string } = {},
): Promise<Actor> {
  const username = uniqueName(prefix);
  const password = `${username}-password`;
  const response = await service.request
    .post(`${api}/admin/users`)
    .set('Authorization', adminAuthorization)
    .send({ username, email: `${username}@example.com`, password, ...options })
    .expect(201);
  const token = await createToken(service, { username, password }, ['all']);
  return { username, password, token, id: response.body.id as number };
}

export async function adminToken(service: TestApp, scopes = ['all']): Promise<string> {
  return createToken(service, siteAdmin, scopes);
}

export function auth(token: string): [string, string] {
  return ['Authorization', `token ${token}`];
}

export async function createOrg(
  service: TestApp,
  owner: Actor | string,
  body: Record<string, unknown> = {},
): Promise<{ name: string; id: number }> {
  const token = typeof owner === 'string' ? owner : owner.token;
  const name = (body['username'] as string | undefined) ?? uniqueName('org');
  const response = await service.request
    .post(`${api}/orgs`)
    .set(...auth(token))
    .send({ ...body, username: name })
    .expect(201);
  return { name, id: response.body.id as number };
}

export async function createTeam(
  service: TestApp,
  ownerToken: string,
  org: string,
  body: {
    permission?: string;
    can_create_org_repo?: boolean;
    includes_all_repositories?: boolean;
    name?: string;
  } = {},
): Promise<number> {
  const response = await service.request
    .post(`${api}/orgs/${org}/teams`)
    .set(...auth(ownerToken))
    .send({ name: uniqueName('team'), ...body })
    .expect(201);
  return response.body.id as number;
}

export async function addToTeam(
  service: TestApp,
  ownerToken: string,
  teamId: number,
  username: string,
): Promise<void> {
  await service.request
    .put(`${api}/teams/${teamId}/members/${username}`)
    .set(...auth(ownerToken))
    .expect(204);
}

export async function createOrgRepo(
  service: TestApp,
  token: string,
  org: string,
  body: { name?: string; private?: boolean } = {},
): Promise<string> {
  const name = body.name ?? uniqueName('repo');
  await service.request
    .post(`${api}/orgs/${org}/repos`)
    .set(...auth(token))
    .send({ ...body, name })
    .expect(201);
  return name;
}
