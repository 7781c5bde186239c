-- AlterTable
ALTER TABLE "event_outbox" ADD COLUMN     "renderer" TEXT;
