import { Prisma } from '../generated/prisma/client';

/** An attachment's columns over the alias `table`, named as AttachmentRow and AttachmentJson name them. */
export function attachmentColumns(table: 't' | 'a'): Prisma.Sql {
  return Prisma.raw(
    [
      ['id', 'id'],
      ['uuid', 'uuid'],
      ['repo_id', 'repoId'],
      ['issue_id', 'issueId'],
      ['uploader_id', 'uploaderId'],
      ['name', 'name'],
      ['content_type', 'contentType'],
      ['size', 'size'],
      ['download_count', 'downloadCount'],
      ['created_at', 'createdAt'],
    ]
      .map(([column, field]) => `${table}.${column} AS "${field}"`)
      .join(', '),
  );
}
