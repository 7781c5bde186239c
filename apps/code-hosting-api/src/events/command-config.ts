import type { Config } from '../config';
import { attachmentPlaces } from '../db/attachment-places';
import type { SnapshotReader } from '../db/outbox';
import {
  attachmentIdsAfter,
  attachmentsById,
  organizationIdsAfter,
  organizationsById,
} from '../db/snapshot-reads';
import { createWire } from '../wire/wire';
import { attachmentEventData } from './code-hosting-events';

// What the event commands (src/events/*-command.ts, the same in both services) need of
// code-hosting-api alone: the events' source, and how the snapshot reads its resources.

/** The events' `source`, as main.ts gives it to the relay. */
export function eventSourceOf(config: Config): string {
  return config.rootUrl;
}

/**
 * Every organization (`organization.snapshot`, on `orgs.<id>.snapshot`) and every attachment
 * (`attachment.snapshot`, on `attachments.<id>.snapshot`); `data` as the JSON API renders them
 * (src/wire/wire.ts under ROOT_URL), an organization as a signed-in caller sees it, an attachment
 * with its repository and issue index, like the change events of its writes.
 */
export function snapshotReaders(config: Pick<Config, 'rootUrl'>): SnapshotReader[] {
  const wire = createWire(config.rootUrl);
  return [
    {
      aggregate: 'orgs',
      type: 'organization.snapshot',
      idsAfter: organizationIdsAfter,
      async read(transaction, ids) {
        const organizations = await organizationsById(transaction, ids);
        return new Map(organizations.map((org) => [String(org.id), wire.toSignedInOrganization(org)]));
      },
    },
    {
      aggregate: 'attachments',
      type: 'attachment.snapshot',
      idsAfter: attachmentIdsAfter,
      async read(transaction, ids) {
        const attachments = await attachmentsById(transaction, ids);
        const places = await attachmentPlaces(transaction, attachments);
        return new Map(
          attachments.map((attachment, index) => [
            String(attachment.id),
            attachmentEventData(wire, attachment, places[index]!),
          ]),
        );
      },
    },
  ];
}
