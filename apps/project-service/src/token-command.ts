import { parseArgs } from 'node:util';
import { mintToken } from './auth/development-token';

// Usage, at the repository root: JWT_SECRET=... npm run -s token -- --principal alice [--admin] [--expires-in 1h]
function main(): void {
  const { values } = parseArgs({
    options: {
      principal: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'expires-in': { type: 'string', default: '12h' },
    },
  });
  const secret = process.env.JWT_SECRET;
  if (!values.principal || !secret) {
    console.error(
      'usage: JWT_SECRET=<the service secret> npm run -s token -- --principal <name> [--admin] [--expires-in 12h]',
    );
    process.exit(2);
  }
  // --admin puts the caller in the admin group the service is configured with.
  const groups = values.admin ? [process.env.ADMIN_GROUP || 'project-admins'] : [];
  const expiresIn = values['expires-in'] as `${number}${'s' | 'm' | 'h' | 'd'}`;
  console.log(mintToken(secret, { principal: values.principal, groups }, expiresIn));
}

main();
