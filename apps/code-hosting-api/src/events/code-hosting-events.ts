import type { ChangeLog, Transaction } from '../db/change-log';
import type { AccountRecord, AttachmentRecord } from '../domain/records';
import type { Wire } from '../http/wire';
import type { EventRecorder } from './service-events';

/** How the events render their resources: the JSON API's own rendering (src/http/wire.ts). */
export type EventRendering = Pick<Wire, 'toSignedInOrganization' | 'toAttachment'>;

/**
 * code-hosting-api's change log (src/db/change-log.ts) over the outbox recorder: each write's event
 * with its type (src/events/event-types.ts), its subject (`orgs.<id>.<action>`,
 * `attachments.<id>.<action>`) and, as `data`, the resource as the JSON API answered the write
 * (an organization as its signed-in writer sees it).
 */
export function codeHostingChangeLog(recorder: EventRecorder, wire: EventRendering): ChangeLog {
  const organization = (type: string) => async (tx: Transaction, org: AccountRecord) => {
    await recorder.record(tx, {
      type,
      aggregate: 'orgs',
      resourceId: String(org.id),
      data: wire.toSignedInOrganization(org),
    });
  };
  const attachment = (type: string) => async (tx: Transaction, record: AttachmentRecord) => {
    await recorder.record(tx, {
      type,
      aggregate: 'attachments',
      resourceId: String(record.id),
      data: wire.toAttachment(record),
    });
  };
  return {
    organizationCreated: organization('organization.created'),
    organizationUpdated: organization('organization.updated'),
    organizationRenamed: organization('organization.renamed'),
    organizationDeleted: organization('organization.deleted'),
    attachmentCreated: attachment('attachment.created'),
    attachmentRenamed: attachment('attachment.renamed'),
    attachmentDeleted: attachment('attachment.deleted'),
  };
}
