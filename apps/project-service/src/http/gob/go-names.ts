/**
 * Go field names for JSON names, as Go API generators (Goa) write them: each
 * `_`-separated word capitalized, the common initialisms upper-cased
 * (`parent_uid` → `ParentUID`, `charter_url` → `CharterURL`). gob matches
 * struct fields by these names.
 */
const INITIALISMS = new Set([
  'acl',
  'api',
  'ascii',
  'cpu',
  'css',
  'dns',
  'eof',
  'guid',
  'html',
  'http',
  'https',
  'id',
  'ip',
  'json',
  'jwt',
  'lhs',
  'qps',
  'ram',
  'rhs',
  'rpc',
  'sla',
  'smtp',
  'sql',
  'ssh',
  'tcp',
  'tls',
  'ttl',
  'udp',
  'ui',
  'uid',
  'uri',
  'url',
  'utf8',
  'uuid',
  'vm',
  'xml',
  'xmpp',
  'xsrf',
  'xss',
]);

export function goFieldName(jsonName: string): string {
  return jsonName
    .split('_')
    .filter((word) => word !== '')
    .map((word) =>
      INITIALISMS.has(word.toLowerCase())
        ? word.toUpperCase()
        : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join('');
}
