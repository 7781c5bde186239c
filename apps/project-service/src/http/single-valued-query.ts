import { badRequest } from '@repo/http-errors';

/**
 * The operation's query, each parameter it declares given at most once and by its name alone:
 * `?page_size=1&page_size=2` (an array from Express's `simple` query parser, app.ts) and
 * `?public[]=true` or `?page_size[a]=1` (a name of its own there) are a 400 naming the parameter,
 * rather than one value picked or the filter silently dropped. Names the operation does not
 * declare are ignored, however they are written.
 */
export function singleValuedQuery(query: Record<string, unknown>, declared: readonly string[]): void {
  for (const [key, value] of Object.entries(query)) {
    const name = /^([^[]+)\[/.exec(key)?.[1] ?? key;
    if (!declared.includes(name)) continue;
    if (name !== key) throw badRequest(`${name}: must be given as ${name}=<value>, not ${key}`);
    if (Array.isArray(value)) throw badRequest(`${name}: must be given at most once`);
  }
}
