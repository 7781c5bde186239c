-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "projects" (
    "uid" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "parent_uid" UUID,
    "public" BOOLEAN NOT NULL DEFAULT false,
    "is_foundation" BOOLEAN NOT NULL DEFAULT false,
    "autojoin_enabled" BOOLEAN NOT NULL DEFAULT false,
    "category" TEXT NOT NULL DEFAULT '',
    "stage" TEXT NOT NULL DEFAULT '',
    "legal_entity_type" TEXT NOT NULL DEFAULT '',
    "legal_entity_name" TEXT NOT NULL DEFAULT '',
    "legal_parent_uid" TEXT NOT NULL DEFAULT '',
    "funding_model" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "charter_url" TEXT NOT NULL DEFAULT '',
    "entity_formation_document_url" TEXT NOT NULL DEFAULT '',
    "logo_url" TEXT NOT NULL DEFAULT '',
    "repository_url" TEXT NOT NULL DEFAULT '',
    "website_url" TEXT NOT NULL DEFAULT '',
    "formation_date" TEXT NOT NULL DEFAULT '',
    "entity_dissolution_date" TEXT NOT NULL DEFAULT '',
    "base_revision" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("uid")
);

-- CreateIndex
CREATE UNIQUE INDEX "projects_slug_key" ON "projects"("slug");

-- CreateIndex
CREATE INDEX "projects_parent_uid_idx" ON "projects"("parent_uid");

-- CreateIndex
CREATE INDEX "projects_name_uid_idx" ON "projects"("name", "uid");

-- AddForeignKey
ALTER TABLE "projects" ADD CONSTRAINT "projects_parent_uid_fkey" FOREIGN KEY ("parent_uid") REFERENCES "projects"("uid") ON DELETE RESTRICT ON UPDATE CASCADE;
