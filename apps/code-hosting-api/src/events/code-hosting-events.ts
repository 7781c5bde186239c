import type { ChangeLog, Transaction } from '../db/change-log';
import type { AccountRecord, AttachmentPlace, AttachmentRecord } from '../domain/records';
import type { Wire } from '../wire/wire';
import type { AttachmentEventData } from './event-types';
import type { EventRecorder } from './service-events';

/** How the events render their resources: the JSON API's own rendering (src/wire/wire.ts). */
export type EventRendering = Pick<Wire, 'toSignedInOrganization' | 'toAttachment' | 'toRepositoryMeta'>;

/**
 * An attachment event's `data`: the attachment as the JSON API answers it, with where it is (its
 * repository as Gitea's RepositoryMeta, its issue's index), so a consumer can look it up.
 */
export function attachmentEventData(
  wire: EventRendering,
  attachment: AttachmentRecord,
  place: AttachmentPlace,
): AttachmentEventData {
  return {
    ...wire.toAttachment(attachment),
    repository: wire.toRepositoryMeta(place.repository),
    issue_index: place.issueIndex ?? null,
  };
}

/**
 * code-hosting-api's change log (src/db/change-log.ts) over the outbox recorder: each write's event
 * with its type (src/events/event-types.ts), its subject (`orgs.<id>.<action>`,
 * `attachments.<id>.<action>`) and, as `data`, the resource as the JSON API answered the write
 * (an organization as its signed-in writer sees it; an attachment with its repository and issue).
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
  const attachment =
    (type: string) => async (tx: Transaction, record: AttachmentRecord, place: AttachmentPlace) => {
      await recorder.record(tx, {
        type,
        aggregate: 'attachments',
        resourceId: String(record.id),
        data: attachmentEventData(wire, record, place),
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
