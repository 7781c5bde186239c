// The attachments' part of code-hosting-api's soak workload: uploads to a few issues of one
// repository, renames, deletes, reads of one attachment and lists of an issue's. Every client acts
// on every attachment, so renames and deletes collide (a rename of a deleted one: 404).
import { ABSENT, type History, type SoakApi } from '@repo/testing/soak';
import type { Caller } from './organizations';
import { attachmentName, canonical, isJson, observedAttachment } from './registers';

export const REPOSITORY = 'soak-repo';
const ISSUES = 3;
/** The attachments kept between these bounds. */
const MIN_LIVE = 4;
const MAX_LIVE = 12;

interface KnownAttachment {
  id: number;
  issue: number;
  deleted: boolean;
}

export function attachmentSteps(caller: Caller, owner: string) {
  const { send, token } = caller;
  const attachments = new Map<number, KnownAttachment>();
  const issuePath = (issue: number) => `/api/v1/repos/${owner}/${REPOSITORY}/issues/${issue}/assets`;
  const live = () => [...attachments.values()].filter((a) => !a.deleted);
  /** The repository as attachment events name it (Gitea's RepositoryMeta), from its creation's answer. */
  let repository: Record<string, unknown> = {};
  /** An attachment event's data: the write's answer, with the repository and issue it is in. */
  const eventData = (answer: unknown, issue: number) =>
    isJson(answer) ? { ...answer, repository, issue_index: issue } : answer;

  async function upload(api: SoakApi, client: number, issue: number): Promise<void> {
    const name = `${token('file')}.txt`;
    const op = await send(api, client, {
      name: 'upload-attachment',
      method: 'POST',
      path: `${issuePath(issue)}?name=${name}`,
      file: {
        field: 'attachment',
        fileName: 'upload.txt',
        content: Buffer.from(`soak ${name}\n`),
        contentType: 'text/plain',
      },
    });
    op.expectsEvent = { type: 'attachment.created' };
    if (op.outcome !== 'ok' || !isJson(op.response)) return;
    const id = Number(op.response['id']);
    op.writes = [{ register: attachmentName(id), value: name, state: canonical(op.response) }];
    op.expectsEvent = {
      type: 'attachment.created',
      resource: `attachments.${id}`,
      data: eventData(op.response, issue),
    };
    attachments.set(id, { id, issue, deleted: false });
  }

  async function rename(api: SoakApi, client: number, attachment: KnownAttachment): Promise<void> {
    const name = `${token('name')}.txt`;
    const op = await send(api, client, {
      name: 'rename-attachment',
      method: 'PATCH',
      path: `${issuePath(attachment.issue)}/${attachment.id}`,
      json: { name },
    });
    const ok = op.outcome === 'ok' && isJson(op.response);
    op.writes = [
      {
        register: attachmentName(attachment.id),
        value: name,
        ...(ok ? { state: canonical(op.response) } : {}),
      },
    ];
    op.expectsEvent = {
      type: 'attachment.renamed',
      resource: `attachments.${attachment.id}`,
      ...(ok ? { data: eventData(op.response, attachment.issue) } : {}),
    };
    if (op.status === 404) attachment.deleted = true;
  }

  async function remove(api: SoakApi, client: number, attachment: KnownAttachment): Promise<void> {
    const op = await send(api, client, {
      name: 'delete-attachment',
      method: 'DELETE',
      path: `${issuePath(attachment.issue)}/${attachment.id}`,
    });
    op.writes = [{ register: attachmentName(attachment.id), value: token('deleted'), removes: true }];
    // 204: the event's data is the attachment just before, checked as what it shows.
    op.expectsEvent = { type: 'attachment.deleted', resource: `attachments.${attachment.id}` };
    if (op.outcome === 'ok' || op.status === 404) attachment.deleted = true;
  }

  async function get(api: SoakApi, client: number, attachment: KnownAttachment): Promise<void> {
    const op = await send(api, client, {
      name: 'get-attachment',
      method: 'GET',
      path: `${issuePath(attachment.issue)}/${attachment.id}`,
    });
    if (op.outcome === 'ok' && isJson(op.response)) {
      op.observes = [observedAttachment(op.response)];
    } else if (op.status === 404) {
      op.outcome = 'ok';
      op.observes = [{ register: attachmentName(attachment.id), value: ABSENT }];
      attachment.deleted = true;
    }
  }

  /** An issue's attachments: each listed one's name, and ABSENT for each known one not listed. */
  async function list(api: SoakApi, client: number, issue: number): Promise<void> {
    const known = [...attachments.values()].filter((a) => a.issue === issue).map((a) => a.id);
    const op = await send(api, client, { name: 'list-attachments', method: 'GET', path: issuePath(issue) });
    if (op.outcome !== 'ok' || !Array.isArray(op.response)) return;
    const listed = new Set<number>();
    op.observes = [];
    for (const item of op.response) {
      if (!isJson(item)) continue;
      listed.add(Number(item['id']));
      op.observes.push(observedAttachment(item));
    }
    for (const id of known) {
      if (!listed.has(id)) op.observes.push({ register: attachmentName(id), value: ABSENT });
    }
  }

  const randomIssue = (api: SoakApi) => 1 + api.random.int(ISSUES);

  return {
    /** `created`: the answer to the repository's creation. */
    async setup(api: SoakApi, created: unknown) {
      const { id, name, full_name, owner: user } = isJson(created) ? created : {};
      repository = { id, name, owner: isJson(user) ? user['login'] : undefined, full_name };
      for (let issue = 1; issue <= ISSUES; issue += 1) {
        const op = await send(api, -1, {
          name: 'create-issue',
          method: 'POST',
          path: `/api/v1/repos/${owner}/${REPOSITORY}/issues`,
          json: { title: `soak issue ${issue}` },
        });
        if (op.outcome !== 'ok') throw new Error(`soak setup: issue ${issue}: ${op.status ?? op.error}`);
        await upload(api, -1, issue);
        await upload(api, -1, issue);
      }
      if (live().length !== 2 * ISSUES) throw new Error('soak setup: an upload failed');
    },
    async step(api: SoakApi, client: number) {
      const candidates = live();
      const roll = api.random.next();
      if (candidates.length === 0 || (roll < 0.2 && candidates.length < MAX_LIVE)) {
        return upload(api, client, randomIssue(api));
      }
      const attachment = api.random.pick(candidates);
      if (roll < 0.45) return rename(api, client, attachment);
      if (roll < 0.57)
        return candidates.length > MIN_LIVE ? remove(api, client, attachment) : get(api, client, attachment);
      if (roll < 0.85) return get(api, client, attachment);
      return list(api, client, randomIssue(api));
    },
    async finalReads(api: SoakApi) {
      for (let issue = 1; issue <= ISSUES; issue += 1) await list(api, -1, issue);
      for (const attachment of attachments.values()) await get(api, -1, attachment);
    },
    /** An upload whose answer never came: its event (if it committed) says which attachment it made. */
    resolve(history: History) {
      const created = new Map(
        history.events.filter((e) => e.type === 'attachment.created').map((e) => [e.requestId, e]),
      );
      for (const op of history.operations) {
        if (op.name !== 'upload-attachment' || op.writes) continue;
        const event = created.get(op.requestId);
        if (!event || !isJson(event.data)) continue;
        const name = new URL(op.path, 'http://soak').searchParams.get('name') ?? '';
        op.writes = [{ register: attachmentName(Number(event.data['id'])), value: name }];
        op.expectsEvent = { type: 'attachment.created', resource: event.resource };
      }
    },
  };
}
