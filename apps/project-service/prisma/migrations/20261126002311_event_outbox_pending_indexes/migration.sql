-- DropIndex
DROP INDEX "event_outbox_aggregate_resource_id_published_at_position_idx";

-- DropIndex
DROP INDEX "event_outbox_published_at_position_idx";

-- CreateIndex
CREATE INDEX "event_outbox_pending_idx" ON "event_outbox"("position") WHERE (published_at IS NULL);

-- CreateIndex
CREATE INDEX "event_outbox_pending_resource_idx" ON "event_outbox"("aggregate", "resource_id", "position") WHERE (published_at IS NULL);

-- A queue table: every event is inserted, claimed, marked published, and deleted after the
-- retention. Vacuumed and analyzed after every few thousand changes rather than after a tenth of
-- the table, so dead versions of claimed and published rows do not pile up in the pending indexes
-- and the planner's statistics follow the share of pending rows.
ALTER TABLE "event_outbox" SET (
  autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 5000
);
