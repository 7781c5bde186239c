-- Replaced by projects_name_c_uid_idx (the previous migration), dropped without blocking writes.
DROP INDEX CONCURRENTLY IF EXISTS "projects_name_uid_idx";
