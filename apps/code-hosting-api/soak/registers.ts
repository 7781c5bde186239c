// code-hosting-api's registers for the soak's checker: an organization has two, its name (set by
// the create and each rename) and its description (set by the create and each edit, with its
// full_name); an attachment has one, its name (set by the upload and each rename, removed by the
// delete). Every write's value is its own (a new name, a description token), so a read or an event
// names the write it shows.
import type { Observation, StreamEvent } from '@repo/testing/soak';

export type Json = Record<string, unknown>;

export const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const orgName = (id: number) => `org:${id}:name`;
export const orgDescription = (id: number) => `org:${id}:description`;
export const attachmentName = (id: number) => `attachment:${id}:name`;

/** JSON with sorted keys: equal representations give equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isJson(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** An Organization as the API renders it: both its registers. */
export function observedOrganization(org: Json): Observation[] {
  const id = Number(org['id']);
  return [
    { register: orgName(id), value: String(org['name']) },
    { register: orgDescription(id), value: String(org['description']) },
  ];
}

/** An Attachment as the API renders it: its name, with the whole representation to compare. */
export function observedAttachment(attachment: Json, extra: Partial<Observation> = {}): Observation {
  return {
    register: attachmentName(Number(attachment['id'])),
    value: String(attachment['name']),
    state: canonical(attachment),
    ...extra,
  };
}

/**
 * What an event's data shows: the organization or attachment after its write (a rename's data is
 * the resource as a GET shows it after the rename), or just before it (a deletion's).
 */
export function observeCodeHostingEvent(event: StreamEvent): Observation[] {
  const data = event.data;
  if (!isJson(data)) return [];
  if (event.type.startsWith('organization.')) {
    return observedOrganization(data).map((seen) =>
      event.type === 'organization.deleted' ? { ...seen, before: true } : seen,
    );
  }
  if (event.type.startsWith('attachment.')) {
    // What the API shows of the attachment: the event adds where it is (checked against the write's
    // path for the events that answer a write: attachments.ts, eventData).
    const { repository: _repository, issue_index: _issueIndex, ...attachment } = data;
    return [observedAttachment(attachment, event.type === 'attachment.deleted' ? { before: true } : {})];
  }
  return [];
}
