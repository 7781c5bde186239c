import { badRequest, createHttpError } from '@repo/http-errors';
import contentDisposition from 'content-disposition';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import parseRange from 'range-parser';
import { assertUploadedFileAllowed } from '../../domain/attachment-types';
import type { AttachmentRecord } from '../../domain/records';
import type { ByteRange } from '../../storage/storage';
import type { ApiServices } from '../api-services';
import { countingStream } from '../attachment-metrics';
import { receiveAttachment } from '../attachment-upload';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

const attachmentPath = '/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}';

/** Issue attachments (Gitea routers/api/v1/repo/issue_attachment.go) and their download URL. */
export function attachmentRoutes(
  table: RouteTable,
  { attachments, storage, settings, wire }: ApiServices,
): void {
  const routes = table.resource({ tag: 'issue', scope: 'issue' });
  routes.add({
    method: 'get',
    path: '/repos/{owner}/{repo}/issues/{index}/assets',
    params: s.IssueParams,
    operationId: 'issueListIssueAttachments',
    summary: "List issue's attachments",
    // Gitea's list takes no page or limit: an issue's attachments come all at once.
    response: { status: 200, description: 'AttachmentList', schema: s.Attachment.array() },
    errors: [404],
    async handle({ res, caller, params }) {
      const { attachments: found } = await attachments.list(caller, params.owner, params.repo, params.index);
      res.json(found.map(wire.toAttachment));
    },
  });

  routes.add({
    method: 'post',
    path: '/repos/{owner}/{repo}/issues/{index}/assets',
    params: s.IssueParams,
    operationId: 'issueCreateIssueAttachment',
    xSync: true,
    summary: 'Create an issue attachment',
    query: s.AttachmentUploadQuery,
    formData: s.AttachmentUploadForm,
    response: { status: 201, description: 'Attachment', schema: s.Attachment },
    errors: [400, 401, 403, 404, 413, 422, 423],
    async handle({ req, res, caller, query, params, settleSync }) {
      // Every refusal that needs no byte of the file comes first.
      const target = await attachments.uploadTarget(
        caller,
        params.owner,
        params.repo,
        params.index,
        query.name,
      );
      const written = await receiveAttachment(req, res, {
        storage,
        maxBytes: settings.attachmentMaxSize,
        checkFile: (fileName, sniffedType) =>
          assertUploadedFileAllowed(settings.attachmentAllowedTypes, fileName, sniffedType),
      });
      if (!written) throw badRequest('attachment: the multipart part "attachment" (a file) is required');
      const attachment = await attachments.recordUpload(target, written);
      await settleSync();
      res.status(201).json(wire.toAttachment(attachment));
    },
  });

  routes.add({
    method: 'get',
    path: attachmentPath,
    params: s.AttachmentParams,
    operationId: 'issueGetIssueAttachment',
    summary: 'Get an issue attachment',
    response: { status: 200, description: 'Attachment', schema: s.Attachment },
    errors: [404],
    async handle({ res, caller, params }) {
      const attachment = await attachments.get(
        caller,
        params.owner,
        params.repo,
        params.index,
        params.attachment_id,
      );
      res.json(wire.toAttachment(attachment));
    },
  });

  routes.add({
    method: 'patch',
    path: attachmentPath,
    params: s.AttachmentParams,
    operationId: 'issueEditIssueAttachment',
    xSync: true,
    summary: 'Edit an issue attachment',
    body: s.EditAttachmentOptions,
    auth: {
      authorize: ({ caller, params }) =>
        attachments.writableIssue(caller, params.owner, params.repo, params.index),
    },
    response: { status: 201, description: 'Attachment', schema: s.Attachment },
    errors: [401, 403, 404, 422, 423],
    async handle({ res, caller, body, params, settleSync }) {
      const attachment = await attachments.rename(
        caller,
        params.owner,
        params.repo,
        params.index,
        params.attachment_id,
        body.name,
      );
      await settleSync();
      // The contract (and Gitea) answer an edit with 201.
      res.status(201).json(wire.toAttachment(attachment));
    },
  });

  routes.add({
    method: 'delete',
    path: attachmentPath,
    params: s.AttachmentParams,
    operationId: 'issueDeleteIssueAttachment',
    xSync: true,
    summary: 'Delete an issue attachment',
    response: { status: 204, description: 'empty' },
    errors: [401, 403, 404, 423],
    async handle({ res, caller, params, settleSync }) {
      await attachments.remove(caller, params.owner, params.repo, params.index, params.attachment_id);
      await settleSync();
      res.status(204).end();
    },
  });

  routes.add({
    method: 'get',
    path: '/attachments/{uuid}',
    siteRoot: true,
    operationId: 'downloadAttachment',
    summary: 'Download an attachment (its browser_download_url); Range requests answer 206',
    response: {
      status: 200,
      description: 'the file',
      mediaType: 'application/octet-stream',
      headers: {
        'Content-Disposition': {
          description: 'the attachment name (RFC 6266, filename* for non-ASCII names)',
          schema: { type: 'string' },
        },
        'Accept-Ranges': { description: 'bytes', schema: { type: 'string' } },
      },
    },
    errors: [404, 416],
    async handle({ req, res, caller, params }) {
      const attachment = await attachments.forDownload(caller, params.uuid);
      const range = requestedRange(req, attachment.size);
      setDownloadHeaders(res, attachment);
      if (req.method === 'HEAD') {
        res.setHeader('Content-Length', attachment.size);
        res.status(200).end();
        return;
      }
      const object = await storage.read(attachment.uuid, range);
      // A download counts once: a whole file, or a range from its first byte (a resumed one does not).
      if (range === undefined || range.start === 0) await attachments.countDownload(attachment);
      res.setHeader('Content-Length', object.range.end - object.range.start + 1);
      if (range !== undefined) {
        res.status(206);
        res.setHeader('Content-Range', `bytes ${object.range.start}-${object.range.end}/${object.size}`);
      } else {
        res.status(200);
      }
      try {
        await pipeline(object.body, countingStream('out'), res);
      } catch (error) {
        // A client that stops reading is not a server failure; anything else after the headers is logged.
        if (!res.destroyed) req.log.error({ err: error }, 'attachment download failed');
      }
    },
  });
}

/**
 * The one byte range asked for, or undefined for the whole file: no Range header, a malformed
 * one, or several ranges (answered whole, which RFC 9110 allows). Unsatisfiable: 416.
 */
function requestedRange(req: Request, size: number): ByteRange | undefined {
  const header = req.headers.range;
  if (header === undefined) return undefined;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) {
    throw createHttpError(416, `the requested range is not satisfiable (the file has ${size} bytes)`, {
      headers: { 'Content-Range': `bytes */${size}` },
    });
  }
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  const [only] = ranges;
  return only && { start: only.start, end: only.end };
}

/** Types a browser may show in place (Gitea serves images, media and PDFs inline); the rest is saved. */
const inlineTypes = /^(image\/(png|jpeg|gif|webp|avif)|video\/|audio\/|application\/pdf$)/;

function setDownloadHeaders(res: Response, attachment: AttachmentRecord): void {
  res.setHeader('Content-Type', attachment.contentType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'private, max-age=300');
  res.setHeader(
    'Content-Disposition',
    contentDisposition(attachment.name, {
      type: inlineTypes.test(attachment.contentType) ? 'inline' : 'attachment',
    }),
  );
}
