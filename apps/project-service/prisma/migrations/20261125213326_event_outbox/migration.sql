-- CreateTable
CREATE TABLE "event_outbox" (
    "position" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "aggregate" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "sequence" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSON NOT NULL,
    "actor" TEXT,
    "request_id" TEXT,
    "occurred_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(6),
    "claimed_by" TEXT,
    "claimed_until" TIMESTAMPTZ(6),

    CONSTRAINT "event_outbox_pkey" PRIMARY KEY ("position")
);

-- CreateTable
CREATE TABLE "event_sequences" (
    "aggregate" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "last_sequence" BIGINT NOT NULL,

    CONSTRAINT "event_sequences_pkey" PRIMARY KEY ("aggregate","resource_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "event_outbox_id_key" ON "event_outbox"("id");

-- CreateIndex
CREATE INDEX "event_outbox_published_at_position_idx" ON "event_outbox"("published_at", "position");

-- CreateIndex
CREATE INDEX "event_outbox_aggregate_resource_id_published_at_position_idx" ON "event_outbox"("aggregate", "resource_id", "published_at", "position");
