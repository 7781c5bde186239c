import type { AttachmentStore } from './domain/attachment-store';
import type { Storage } from './storage/storage';
import { sweepAttachments, type SweepReport } from './storage/sweep';

/**
 * Reconciles the attachment storage with the attachment rows (storage/sweep.ts): objects older
 * than an hour that no row names are removed; rows whose object is missing are reported.
 */
export function sweepAttachmentStorage(store: AttachmentStore, storage: Storage): Promise<SweepReport> {
  return sweepAttachments(storage, {
    keysWithRows: (keys) => store.attachmentUuidsAmong(keys),
    rowKeys: store.allAttachmentUuids(),
  });
}

/** The report as log fields: counts, and the keys of lost files for a person to look at. */
export function sweepSummary(report: SweepReport): { removed: number; missing: string[] } {
  return { removed: report.removed.length, missing: report.missing };
}
