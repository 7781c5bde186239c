/**
 * The bench's data, written with SQL in the rows the service itself writes (src/db/row-mappers.ts):
 * projects under the migration's root in a tree (`TreeShape`: the default is 10,000 projects on 6
 * levels; the scale bench's are 2,000 and 200,000 on 8), every field a realistic length, a writer
 * on every project (two on levels 1–2) and auditors on levels 1–3 (with name, email and avatar, as
 * a client sends them), meeting coordinators on level 1. Level 1 has 5 projects and each level about the same factor
 * more, the last one filling up to the count; the first project of the last-but-one level has
 * 150 children of its own (the paged list of one parent), the rest are spread evenly.
 *
 * The bench's caller `alice` is a writer of level-1 project 1 only: what she reads on the last
 * level she may read through a role inherited from the top.
 */
import type { Client } from 'pg';

export const CALLER = 'alice';
export const ADMIN = 'bench-admin';

export interface TreeShape {
  projects: number;
  levels: number;
}

export const BENCH_TREE: TreeShape = { projects: 10_000, levels: 6 };
/** Children of the first project of the last-but-one level (slug `project-<n>`, see bigParentSlug). */
const BIG_PARENT_CHILDREN = 150;

/** Projects per level: 5 on level 1, a common factor more on each next one, summing to `projects`. */
export function levelSizes({ projects, levels }: TreeShape): number[] {
  const total = (factor: number) => {
    let sum = 0;
    for (let level = 0; level < levels; level++) sum += Math.round(5 * factor ** level);
    return sum;
  };
  let low = 1;
  let high = 100;
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2;
    if (total(middle) > projects) high = middle;
    else low = middle;
  }
  const sizes = Array.from({ length: levels }, (_, level) => Math.round(5 * low ** level));
  sizes[levels - 1]! += projects - sizes.reduce((sum, size) => sum + size, 0);
  return sizes;
}

/** The slug of the project with BIG_PARENT_CHILDREN children (the first of the last-but-one level). */
export function bigParentSlug(shape: TreeShape): string {
  const sizes = levelSizes(shape);
  return `project-${sizes.slice(0, -2).reduce((sum, size) => sum + size, 0) + 1}`;
}

/** The uid of plan row i: a version-4 UUID derived from i, so parents can be named before they exist. */
const uidOf = (i: string) =>
  `overlay(overlay(md5('bench-project-' || ${i}) placing '4' from 13) placing '8' from 17)::uuid`;

export async function seedProjects(client: Client, shape: TreeShape = BENCH_TREE): Promise<void> {
  const sizes = levelSizes(shape);
  await client.query('CREATE TEMP TABLE plan (i int PRIMARY KEY, level int NOT NULL, parent int NOT NULL)');
  let offset = 0;
  let parentOffset = 0;
  for (const [index, size] of sizes.entries()) {
    const level = index + 1;
    const parents = index === 0 ? 0 : sizes[index - 1]!;
    // j: the project's place on its level; its parent's place on the level above.
    const big = level === shape.levels && level > 1 ? Math.min(BIG_PARENT_CHILDREN, size) : 0;
    const parent =
      level === 1
        ? '0'
        : `${parentOffset} + 1 + CASE WHEN j < ${big} THEN 0 ELSE ((j - ${big})::bigint * ${parents} / ${Math.max(1, size - big)})::int END`;
    await client.query(
      `INSERT INTO plan SELECT ${offset} + 1 + j, ${level}, ${parent} FROM generate_series(0, ${size - 1}) AS j`,
    );
    parentOffset = offset;
    offset += size;
  }
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
  // Two writers on levels 1–2 (alice on project 1) and one on every project below, two auditors on
  // levels 1–3, two coordinators on level 1: the members table grows with the projects.
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
    WHERE p.level <= r.max_level OR (r.role = 'writer' AND g.position = 0)`);
  await client.query('DROP TABLE plan');
  await client.query('ANALYZE');
}

/** Last-level projects `alice` may write only through level-1 project 1, in a fixed order. */
export async function deepProjects(
  client: Client,
  count: number,
  shape: TreeShape = BENCH_TREE,
): Promise<string[]> {
  const { rows } = await client.query<{ uid: string }>(
    `WITH RECURSIVE sub AS (
       SELECT uid, 1 AS level FROM projects WHERE slug = 'project-1'
       UNION ALL SELECT p.uid, s.level + 1 FROM projects p JOIN sub s ON p.parent_uid = s.uid
     )
     SELECT uid::text AS uid FROM sub WHERE level = $2 ORDER BY uid LIMIT $1`,
    [count, shape.levels],
  );
  return rows.map((row) => row.uid);
}

/**
 * `count` new leaf projects under `parent`, each with a writer, for the DELETE scenario to delete
 * one by one (those an earlier run left are deleted first, so the tree stays the seeded one).
 */
export async function doomedProjects(client: Client, parent: string, count: number): Promise<string[]> {
  await client.query('DELETE FROM projects WHERE parent_uid = $1::uuid', [parent]);
  const tag = Date.now().toString(36);
  const { rows } = await client.query<{ uid: string }>(
    `INSERT INTO projects (uid, slug, name, description, parent_uid, category, stage, website_url)
     SELECT gen_random_uuid(), 'doomed-' || $3 || '-' || g, 'Doomed ' || g,
       'A leaf project the bench deletes, with a description of ordinary length.', $1::uuid,
       'Sandbox', 'Active', 'https://doomed-' || g || '.example.org/'
     FROM generate_series(1, $2::int) AS g
     RETURNING uid::text AS uid`,
    [parent, count, tag],
  );
  await client.query(
    `INSERT INTO project_members (project_uid, role, position, username, name, email)
     SELECT uid, 'writer', 0, 'doomed-writer', 'Doomed Writer', 'doomed@example.org'
     FROM projects WHERE parent_uid = $1::uuid`,
    [parent],
  );
  return rows.map((row) => row.uid);
}
