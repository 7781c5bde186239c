-- The organization lists' count (X-Total-Count) of those visible to everyone under the caller's
-- scope: with the type and the visibility in one index it is an index-only scan, where the index
-- on the name made it read every organization's row (5 ms at 10,000 organizations).
-- Built CONCURRENTLY, so replicas keep writing while it builds: one statement alone in its
-- migration, which therefore runs outside a transaction (README, Migrations with replicas running).
-- No semicolon in these comments: the migration engine splits the script into statements at each
-- one, comments included.
CREATE INDEX CONCURRENTLY "accounts_type_visibility_idx" ON "accounts" ("type", "visibility");
