-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "announcement_date" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "mission_statement" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "settings_revision" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "settings_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "project_members" (
    "project_uid" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "username" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "avatar" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "project_members_pkey" PRIMARY KEY ("project_uid","role","position")
);

-- CreateIndex
CREATE INDEX "project_members_username_role_idx" ON "project_members"("username", "role");

-- AddForeignKey
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_uid_fkey" FOREIGN KEY ("project_uid") REFERENCES "projects"("uid") ON DELETE CASCADE ON UPDATE CASCADE;

-- The single root project every other project descends from (spec: slug root,
-- name ROOT, no parent, not public). Its uid is generated once per database.
INSERT INTO "projects" ("uid", "slug", "name", "description", "parent_uid", "public")
SELECT gen_random_uuid(), 'root', 'ROOT', '', NULL, false
WHERE NOT EXISTS (SELECT 1 FROM "projects" WHERE "slug" = 'root');
