/**
 * The bench's data, written with SQL in the rows the service itself writes (src/db/*-store.ts):
 * 1,000 users (the password hash of the bootstrapped admin, so every user can sign in), 1,000
 * organizations (70% public, 20% limited, 10% private), each with Gitea's Owners team and a write
 * and a read team (7 members), 5,000 repositories (5 per organization, one in five private),
 * 20,000 issues and pull requests, 50,000 activity rows (create_repo, create_issue /
 * create_pull_request with `index|title`, close_issue with `index|`), and an `all`-scope token for
 * each of the first 100 users (secret: tokenSecret(i)).
 */
import { createHash } from 'node:crypto';
import type { Client } from 'pg';

export const USERS = 1000;
export const ORGS = 1000;

/** The 40-hex secret of user i's token. */
export function tokenSecret(i: number): string {
  return createHash('sha1').update(`bench-token-${i}`).digest('hex');
}

export async function seedAccounts(client: Client, adminName: string): Promise<void> {
  await client.query(
    `INSERT INTO accounts (name, lower_name, full_name, email, type, visibility, description, website, location,
       password_hash, created_at, updated_at)
     SELECT 'user' || i, 'user' || i, 'User Number ' || i, 'user' || i || '@example.org', 'user', 'public',
       'Writes code for a living.', 'https://user' || i || '.example.org', 'Earth',
       (SELECT password_hash FROM accounts WHERE lower_name = lower($1)),
       timestamptz '2025-01-01Z' + i * interval '1 hour', timestamptz '2025-06-01Z' + i * interval '1 hour'
     FROM generate_series(1, ${USERS}) AS i`,
    [adminName],
  );
  await client.query(
    `INSERT INTO access_tokens (account_id, name, token_hash, token_last_eight, scopes, created_at)
     SELECT a.id, 'bench', encode(sha256(convert_to(t.secret, 'UTF8')), 'hex'), right(t.secret, 8), 'all', now()
     FROM unnest($1::text[]) WITH ORDINALITY AS t(secret, i)
     JOIN accounts a ON a.lower_name = 'user' || t.i`,
    [Array.from({ length: 100 }, (_, i) => tokenSecret(i + 1))],
  );
  await client.query(
    `INSERT INTO accounts (name, lower_name, full_name, email, type, visibility, description, website, location,
       repo_admin_change_team_access, created_at, updated_at)
     SELECT 'org' || i, 'org' || i, 'Organization ' || i || ' Inc.', 'contact@org' || i || '.example.org',
       'organization', CASE WHEN i % 10 < 7 THEN 'public' WHEN i % 10 < 9 THEN 'limited' ELSE 'private' END,
       'Organization ' || i || ': we build things together.', 'https://org' || i || '.example.org', 'Remote',
       i % 2 = 0, timestamptz '2025-02-01Z' + i * interval '1 hour', timestamptz '2025-07-01Z' + i * interval '1 hour'
     FROM generate_series(1, ${ORGS}) AS i`,
  );
  await client.query(
    `INSERT INTO teams (org_id, name, lower_name, description, permission, can_create_org_repo, includes_all_repositories)
     SELECT o.id, t.name, lower(t.name), t.description, t.permission, t.permission = 'owner', t.permission <> 'read'
     FROM accounts o
     CROSS JOIN (VALUES ('Owners', '', 'owner'), ('Developers', 'Everyone who writes code', 'write'),
                        ('Readers', 'Read access', 'read')) AS t(name, description, permission)
     WHERE o.type = 'organization'`,
  );
  // Org i: owner user ((i*7) % 1000)+1; developers and readers the next users; user1 in about 1 org in 30.
  await client.query(
    `INSERT INTO team_members (team_id, account_id)
     SELECT DISTINCT t.id, u.id
     FROM teams t
     JOIN accounts o ON o.id = t.org_id
     CROSS JOIN LATERAL (SELECT substr(o.lower_name, 4)::int AS n) AS org
     CROSS JOIN LATERAL generate_series(0, CASE t.permission WHEN 'owner' THEN 0 ELSE 2 END) AS g(k)
     JOIN accounts u ON u.lower_name = 'user' || CASE
       WHEN t.permission = 'write' AND g.k = 0 AND org.n % 30 = 1 THEN 1
       ELSE 1 + ((org.n * 7 + g.k * 13 + CASE t.permission WHEN 'write' THEN 1 WHEN 'read' THEN 500 ELSE 0 END) % ${USERS})
     END`,
  );
  await client.query(
    `INSERT INTO repositories (owner_id, name, lower_name, description, website, is_private, last_issue_index,
       created_at, updated_at)
     SELECT o.id, 'repo-' || r, 'repo-' || r, 'Repository ' || r || ' of ' || o.name, '', r = 5, 4,
       o.created_at + r * interval '1 day', o.updated_at + r * interval '1 day'
     FROM accounts o CROSS JOIN generate_series(1, 5) AS r
     WHERE o.type = 'organization'`,
  );
  await client.query(
    `INSERT INTO issues (repo_id, index, poster_id, title, body, is_closed, is_pull, head_branch, base_branch,
       closed_at, created_at, updated_at)
     SELECT r.id, k, 1 + (r.id * 3 + k) % ${USERS} + (SELECT min(id) - 1 FROM accounts WHERE lower_name = 'user1'),
       'Issue ' || k || ' of ' || r.name || ': something does not work', repeat('Steps to reproduce. ', 10),
       k = 2, k = 4, CASE WHEN k = 4 THEN 'feature-' || k ELSE '' END, CASE WHEN k = 4 THEN 'main' ELSE '' END,
       CASE WHEN k = 2 THEN r.created_at + interval '3 days' END,
       r.created_at + k * interval '1 day', r.created_at + k * interval '2 days'
     FROM repositories r CROSS JOIN generate_series(1, 4) AS k`,
  );
  // 10 feed entries per repository: its creation, its 4 issues and pull requests, a close, and 4 closes/reopens.
  await client.query(
    `INSERT INTO actions (act_user_id, op_type, repo_id, is_private, content, ref_name, created_at)
     SELECT CASE WHEN e = 1 THEN (SELECT tm.account_id FROM teams t JOIN team_members tm ON tm.team_id = t.id
                                   WHERE t.org_id = r.owner_id AND t.permission = 'owner' LIMIT 1)
                 ELSE i.poster_id END,
       CASE WHEN e = 1 THEN 'create_repo'
            WHEN e <= 5 THEN CASE WHEN i.is_pull THEN 'create_pull_request' ELSE 'create_issue' END
            WHEN e % 2 = 0 THEN CASE WHEN i.is_pull THEN 'close_pull_request' ELSE 'close_issue' END
            ELSE CASE WHEN i.is_pull THEN 'reopen_pull_request' ELSE 'reopen_issue' END END,
       r.id, r.is_private,
       CASE WHEN e = 1 THEN '' WHEN e <= 5 THEN i.index || '|' || i.title ELSE i.index || '|' END,
       '', r.created_at + e * interval '1 hour'
     FROM repositories r CROSS JOIN generate_series(1, 10) AS e
     LEFT JOIN issues i ON i.repo_id = r.id AND i.index = CASE WHEN e = 1 THEN 1 WHEN e <= 5 THEN e - 1 ELSE 1 + e % 4 END`,
  );
  await client.query('ANALYZE');
}
