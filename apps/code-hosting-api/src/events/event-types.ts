import type { z } from 'zod';
import { Attachment, Int64, Organization, RepositoryMeta } from '../wire/schemas';

/** One type of change event: its subject's aggregate, what it means, and its `data`. */
export interface EventTypeDefinition {
  type: string;
  aggregate: string;
  summary: string;
  data: z.ZodType;
}

/**
 * An attachment event's `data`: the attachment as the JSON API answers it (its `created_at` the
 * upload's time), with where it is, to look it up by: GET /repos/{owner}/{repo}/issues/{index}/assets/{id}.
 */
export const AttachmentEventData = Attachment.extend({
  created_at: Attachment.shape.created_at.describe(
    "when the attachment was uploaded, to the second (the event's `time` is when this change committed)",
  ),
  repository: RepositoryMeta.describe(
    "the attachment's repository: `owner` and `name` as its paths name them (/repos/{owner}/{repo}), at the time of the event",
  ),
  issue_index: Int64.nullable().describe(
    "the index of the attachment's issue, as its paths name it (/issues/{index}; Issue's `number`); null for an attachment of no issue, which this API does not make",
  ),
}).openapi('AttachmentEvent');
export type AttachmentEventData = z.infer<typeof AttachmentEventData>;

/** Every event code-hosting-api publishes (the AsyncAPI document lists these). */
export const EVENT_TYPES: readonly EventTypeDefinition[] = [
  {
    type: 'organization.created',
    aggregate: 'orgs',
    summary: 'An organization was created; data is the POST /orgs response.',
    data: Organization,
  },
  {
    type: 'organization.updated',
    aggregate: 'orgs',
    summary: "An organization's settings were edited; data is the PATCH /orgs/{org} response.",
    data: Organization,
  },
  {
    type: 'organization.renamed',
    aggregate: 'orgs',
    summary:
      'An organization was renamed (POST /orgs/{org}/rename); data is the organization as GET /orgs/{new_name} shows it after.',
    data: Organization,
  },
  {
    type: 'organization.deleted',
    aggregate: 'orgs',
    summary:
      'An organization was deleted; data is the organization as GET /orgs/{org} showed it just before.',
    data: Organization,
  },
  {
    type: 'organization.snapshot',
    aggregate: 'orgs',
    summary:
      'The current state of an organization, recorded by the snapshot command through the outbox: its `sequence` is the next after the last change it includes (a later change has a higher one), so consumers fold it like any event.',
    data: Organization,
  },
  {
    type: 'attachment.created',
    aggregate: 'attachments',
    summary:
      'An issue attachment was uploaded; data is the POST /repos/{owner}/{repo}/issues/{index}/assets response, with `repository` and `issue_index`.',
    data: AttachmentEventData,
  },
  {
    type: 'attachment.renamed',
    aggregate: 'attachments',
    summary:
      'An issue attachment was renamed; data is the PATCH /repos/{owner}/{repo}/issues/{index}/assets/{attachment_id} response, with `repository` and `issue_index`.',
    data: AttachmentEventData,
  },
  {
    type: 'attachment.deleted',
    aggregate: 'attachments',
    summary:
      'An issue attachment was deleted (alone, or with its repository); data is the attachment as GET …/assets/{attachment_id} showed it just before, with `repository` and `issue_index`.',
    data: AttachmentEventData,
  },
  {
    type: 'attachment.snapshot',
    aggregate: 'attachments',
    summary:
      'The current state of an attachment, recorded by the snapshot command through the outbox: its `sequence` is the next after the last change it includes (a later change has a higher one), so consumers fold it like any event. data is the attachment as GET …/assets/{attachment_id} answers, with `repository` and `issue_index`.',
    data: AttachmentEventData,
  },
];
