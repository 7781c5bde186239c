import { parseArgs } from 'node:util';
import { isHttpError } from '@repo/http-errors';
import { loadConfig } from './config';
import { connectPrisma, openDatabaseAt } from './db/database';
import { migrationRunner } from './db/migration-runner';
import { createStore } from './db/store';
import { accountService } from './domain/accounts';

const usage = `usage:
  admin create-user --username NAME --email EMAIL --password PASSWORD [--admin]
  admin create-token --username NAME --name TOKEN_NAME [--scopes all,public-only,...]`;

// The operator's command for users and tokens (Gitea's `gitea admin user create` / `generate-access-token`).
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      username: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean', default: false },
      name: { type: 'string' },
      scopes: { type: 'string', default: 'all' },
    },
  });
  if (!values.username || (command !== 'create-user' && command !== 'create-token')) throw new Error(usage);

  const config = loadConfig();
  const location = await openDatabaseAt(config.database);
  await migrationRunner.applyMigrations(location.source);
  const database = connectPrisma(location.source, { onClose: location.close });
  try {
    const accounts = accountService(createStore(database), config.settings);
    if (command === 'create-user') {
      if (!values.email || !values.password) throw new Error(usage);
      const account = await accounts.createUserAccount({
        username: values.username,
        email: values.email,
        password: values.password,
        isAdmin: values.admin,
      });
      console.log(
        `created user ${account.name} (id ${account.id})${account.isAdmin ? ' as site administrator' : ''}`,
      );
      return;
    }
    const account = await accounts.findAccount(values.username);
    if (!account || account.type !== 'user') throw new Error(`user ${values.username} does not exist`);
    const { secret } = await accounts.issueToken(
      account,
      values.name ?? 'cli',
      values.scopes.split(',').map((scope) => scope.trim()),
    );
    // The token itself is the command's output, for scripts: `TOKEN=$(npm run -s admin -- create-token ...)` at the repository root.
    console.log(secret);
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(isHttpError(error) || error instanceof Error ? error.message : error);
  process.exit(1);
});
