-- The lists order by name in byte order (COLLATE "C", the same order on every server, which the
-- page tokens rely on). An index in the default collation of the database cannot serve that
-- order, so each page sorted the whole table. Built CONCURRENTLY, so replicas keep writing while
-- it builds: one statement alone in its migration, which therefore runs outside a transaction
-- (README, Migrations with replicas running). No semicolon in these comments: the migration
-- engine splits the script into statements at each one, comments included.
CREATE INDEX CONCURRENTLY "projects_name_c_uid_idx" ON "projects" ("name" COLLATE "C", "uid");
