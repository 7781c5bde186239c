import type { TestApp } from '@repo/testing';
import { ADMIN_PRINCIPAL, bearer } from './app';

export const admin = () => bearer(ADMIN_PRINCIPAL);

let counter = 0;
/** A slug no other test in this process uses. */
export function uniqueSlug(prefix = 'p'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface UserInfoInput {
  username: string;
  name?: string;
  email?: string;
  avatar?: string;
}

/** The root project's uid, as any admin sees it through the list. */
export async function rootUid(service: TestApp): Promise<string> {
  const response = await service.request
    .get('/projects')
    .query({ slug: 'root' })
    .set('Authorization', admin())
    .expect(200);
  const root = (response.body as { projects: { uid: string }[] }).projects[0];
  if (!root) throw new Error('no root project');
  return root.uid;
}

/** Creates a project as the admin (arranging data; throws on failure). */
export async function createProject(
  service: TestApp,
  fields: Record<string, unknown> & { parent_uid: string },
): Promise<Record<string, unknown> & { uid: string; slug: string }> {
  const response = await service.request
    .post('/projects')
    .set('Authorization', admin())
    .send({ slug: uniqueSlug(), name: 'A project', description: 'made by a test', ...fields });
  if (response.status !== 201)
    throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown> & { uid: string; slug: string };
}

/**
 * A request's values as the service answers them: an unset field ("" or an empty list) is left
 * out, at any depth (members' fields too), except `description`, which is always present.
 */
export function asAnswered<Value>(value: Value): Value {
  if (Array.isArray(value)) return value.map((item: unknown) => asAnswered(item)) as Value;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(
        ([key, field]) =>
          key === 'description' || !(field === '' || (Array.isArray(field) && field.length === 0)),
      )
      .map(([key, field]) => [key, asAnswered(field)]),
  ) as Value;
}
