-- GET /orgs (and /admin/orgs) lists the organizations in name order, a page at a time, with their
-- count (X-Total-Count). The unique index on lower_name holds users and organizations alike, so a
-- page read users only to drop them (ten for each organization at the scale bench's shape), and a
-- deep page and the count read the whole accounts table. This one holds each type together in
-- name order: a page reads its organizations, the count every organization and no user.
-- Built CONCURRENTLY, so replicas keep writing while it builds: one statement alone in its
-- migration, which therefore runs outside a transaction (README, Migrations with replicas running).
-- No semicolon in these comments: the migration engine splits the script into statements at each
-- one, comments included.
CREATE INDEX CONCURRENTLY "accounts_type_lower_name_idx" ON "accounts" ("type", "lower_name");
