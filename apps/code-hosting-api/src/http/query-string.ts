/**
 * The query string as Gitea reads it (Go's url.Values.Get, behind ctx.FormString and FormInt):
 * each parameter's first value, and a name as written, brackets included, so `?limit[]=1` is a
 * parameter named `limit[]` that no operation reads. Express's `query parser` (app.ts): `req.query`
 * is this wherever it is read (the route table's query schemas, the `token`, `access_token` and
 * `sudo` credentials), never an array or an object.
 */
export function firstValues(queryString: string): Record<string, string> {
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(queryString)) {
    if (!Object.hasOwn(values, name)) values[name] = value;
  }
  return values;
}
