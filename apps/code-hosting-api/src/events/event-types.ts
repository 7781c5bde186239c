import type { z } from 'zod';
import { Attachment, Organization } from '../http/schemas';

/** One type of change event: its subject's aggregate, what it means, and its `data`. */
export interface EventTypeDefinition {
  type: string;
  aggregate: string;
  summary: string;
  data: z.ZodType;
}

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
      'An issue attachment was uploaded; data is the POST /repos/{owner}/{repo}/issues/{index}/assets response.',
    data: Attachment,
  },
  {
    type: 'attachment.renamed',
    aggregate: 'attachments',
    summary:
      'An issue attachment was renamed; data is the PATCH /repos/{owner}/{repo}/issues/{index}/assets/{attachment_id} response.',
    data: Attachment,
  },
  {
    type: 'attachment.deleted',
    aggregate: 'attachments',
    summary:
      'An issue attachment was deleted; data is the attachment as GET …/assets/{attachment_id} showed it just before.',
    data: Attachment,
  },
  {
    type: 'attachment.snapshot',
    aggregate: 'attachments',
    summary:
      'The current state of an attachment, recorded by the snapshot command through the outbox: its `sequence` is the next after the last change it includes (a later change has a higher one), so consumers fold it like any event.',
    data: Attachment,
  },
];
