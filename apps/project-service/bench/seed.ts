/**
 * The bench's data, written with SQL in the rows the service itself writes (src/db/row-mappers.ts):
 * 10,000 projects under the migration's root in a 6-level tree (5, 25, 125, 625, 3,125 and 6,095
 * per level; the first level-5 project of the first branch has 150 children, for the paged list of
 * one parent), every field a realistic length, writers on levels 1–2 and auditors on levels 1–3
 * (with name, email and avatar, as a client sends them), meeting coordinators on level 1.
 *
 * The bench's caller `alice` is a writer of level-1 project 1 only: what she reads on level 6 she
 * may read through a role inherited five levels up.
 */
import type { Client } from 'pg';

export const CALLER = 'alice';
export const ADMIN = 'bench-admin';

/** The uid of plan row i: a version-4 UUID derived from i, so parents can be named before they exist. */
const uidOf = (i: string) =>
  `overlay(overlay(md5('bench-project-' || ${i}) placing '4' from 13) placing '8' from 17)::uuid`;

export async function seedProjects(client: Client): Promise<void> {
  await client.query(`
    CREATE TEMP TABLE plan AS
    WITH numbered AS (SELECT i FROM generate_series(1, 10000) AS i)
    SELECT i,
      CASE WHEN i <= 5 THEN 1 WHEN i <= 30 THEN 2 WHEN i <= 155 THEN 3 WHEN i <= 780 THEN 4 WHEN i <= 3905 THEN 5 ELSE 6 END AS level,
      CASE
        WHEN i <= 5 THEN 0
        WHEN i <= 30 THEN 1 + (i - 6) / 5
        WHEN i <= 155 THEN 6 + (i - 31) / 5
        WHEN i <= 780 THEN 31 + (i - 156) / 5
        WHEN i <= 3905 THEN 156 + (i - 781) / 5
        WHEN i < 3906 + 150 THEN 781
        ELSE 782 + (i - 3906 - 150) % 3124
      END AS parent
    FROM numbered`);
  await client.query(`
    INSERT INTO projects (uid, slug, name, description, parent_uid, public, is_foundation, autojoin_enabled,
      category, stage, legal_entity_type, legal_entity_name, funding_model, charter_url, logo_url,
      repository_url, website_url, formation_date, announcement_date, mission_statement,
      created_at, updated_at, settings_updated_at)
    SELECT ${uidOf('i')}, 'project-' || i,
      (ARRAY['Apache', 'Cloud', 'Data', 'Edge', 'Open', 'Secure', 'Native', 'Linux'])[1 + i % 8] || ' '
        || (ARRAY['Runtime', 'Mesh', 'Registry', 'Toolkit', 'Observability', 'Storage', 'Gateway'])[1 + i % 7]
        || ' ' || i,
      'A level-' || level || ' project of the benchmark tree, with a description of the length people write: '
        || repeat('what it builds, who uses it and how to take part. ', 4),
      CASE WHEN parent = 0 THEN (SELECT uid FROM projects WHERE slug = 'root') ELSE ${uidOf('parent')} END,
      i % 3 = 0, level = 1, i % 4 = 0,
      (ARRAY['Sandbox', 'Incubating', 'Graduated', 'Active', 'SIG', ''])[1 + i % 6],
      (ARRAY['Active', 'Formation - Engaged', 'Archived', ''])[1 + i % 4],
      CASE WHEN level <= 2 THEN 'Series LLC' ELSE 'Subproject' END,
      CASE WHEN level <= 2 THEN 'Benchmark Foundation Series ' || i || ' LLC' ELSE '' END,
      CASE WHEN i % 2 = 0 THEN ARRAY['Membership'] ELSE ARRAY['Crowdfunding', 'Alternate Funding'] END,
      'https://example.org/charters/project-' || i || '.pdf',
      'https://example.org/logos/project-' || i || '.svg',
      'https://git.example.org/bench/project-' || i,
      'https://project-' || i || '.example.org/',
      to_char(date '2015-01-01' + (i % 3000), 'YYYY-MM-DD'),
      to_char(date '2015-02-01' + (i % 3000), 'YYYY-MM-DD'),
      'To build and steward project ' || i || ' in the open. ' || repeat('A mission statement sentence. ', 6),
      timestamptz '2026-01-01 00:00:00Z' + i * interval '1 minute',
      timestamptz '2026-06-01 00:00:00Z' + i * interval '1 minute',
      timestamptz '2026-06-02 00:00:00Z' + i * interval '1 minute'
    FROM plan`);
  // Writers on levels 1–2 (alice on project 1), auditors on levels 1–3, coordinators on level 1.
  await client.query(`
    INSERT INTO project_members (project_uid, role, position, username, name, email, avatar)
    SELECT ${uidOf('p.i')}, r.role, g.position, u.username,
      initcap(replace(u.username, '-', ' ')), u.username || '@example.org',
      'https://avatars.example.org/u/' || u.username || '?s=460'
    FROM plan p
    CROSS JOIN (VALUES ('writer', 2), ('auditor', 3), ('meeting_coordinator', 1)) AS r(role, max_level)
    CROSS JOIN generate_series(0, 1) AS g(position)
    CROSS JOIN LATERAL (SELECT CASE
        WHEN p.i = 1 AND r.role = 'writer' AND g.position = 0 THEN '${CALLER}'
        ELSE r.role || '-' || p.i || '-' || g.position END AS username) AS u
    WHERE p.level <= r.max_level`);
  await client.query('DROP TABLE plan');
  await client.query('ANALYZE');
}

/** Level-6 projects `alice` may write only through level-1 project 1, in a fixed order. */
export async function deepProjects(client: Client, count: number): Promise<string[]> {
  const { rows } = await client.query<{ uid: string }>(
    `WITH RECURSIVE sub AS (
       SELECT uid, 1 AS level FROM projects WHERE slug = 'project-1'
       UNION ALL SELECT p.uid, s.level + 1 FROM projects p JOIN sub s ON p.parent_uid = s.uid
     )
     SELECT uid::text AS uid FROM sub WHERE level = 6 ORDER BY uid LIMIT $1`,
    [count],
  );
  return rows.map((row) => row.uid);
}
