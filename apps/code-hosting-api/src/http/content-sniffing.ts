import type { FileTypeResult } from 'file-type' with { 'resolution-mode': 'import' };

/** Bytes file-type needs to recognise every format it knows (its `reasonableDetectionSizeInBytes`). */
export const SNIFF_BYTES = 4100;

type FileTypeModule = typeof import('file-type', { with: { 'resolution-mode': 'import' } });
let fileTypeModule: Promise<FileTypeModule> | undefined;

/** file-type is ESM-only: a native dynamic import, which tsc (module Node16) and Jest's SWC keep as is. */
function loadFileType(): Promise<FileTypeModule> {
  fileTypeModule ??= import('file-type');
  return fileTypeModule;
}

/**
 * WHATWG MIME Sniffing's binary data bytes: control characters that never occur in text. Their
 * absence is what makes Go's http.DetectContentType (Gitea's sniffer) answer text/plain.
 */
function looksBinary(head: Uint8Array): boolean {
  return head.some(
    (byte) =>
      byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f),
  );
}

/**
 * The MIME type of a file from its first bytes (at most SNIFF_BYTES): file-type's magic numbers,
 * else text/plain for text and application/octet-stream for anything else, as Go's sniffer falls
 * back. Parameters (`; charset=`) are never part of the answer.
 */
export async function sniffContentType(head: Uint8Array): Promise<string> {
  const { fileTypeFromBuffer } = await loadFileType();
  const detected: FileTypeResult | undefined = head.length === 0 ? undefined : await fileTypeFromBuffer(head);
  if (detected) return detected.mime.split(';')[0]!.trim().toLowerCase();
  return looksBinary(head) ? 'application/octet-stream' : 'text/plain';
}
