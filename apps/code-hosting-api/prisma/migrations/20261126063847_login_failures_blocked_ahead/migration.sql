-- A constant default: PostgreSQL adds the column without rewriting the table, and replicas still
-- on the previous release insert rows without it (false: a refusal they start is a real one).
-- AlterTable
ALTER TABLE "login_failures" ADD COLUMN     "blocked_ahead" BOOLEAN NOT NULL DEFAULT false;
