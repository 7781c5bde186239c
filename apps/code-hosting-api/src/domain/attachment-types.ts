import { unprocessableEntity } from '@repo/http-errors';

// Which files may be attached: Gitea's [attachment] ALLOWED_TYPES (modules/upload Verify),
// entries `.ext`, `type/subtype`, `type/*` or `*/*`, lower case.

/** `.png` for `Photo.PNG`; '' for a name without one (`README`), as Go's filepath.Ext. */
export function fileExtension(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot).toLowerCase();
}

/** `text/plain` for `text/plain; charset=utf-8`: parameters never decide a type. */
export function mimeEssence(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

function typeEntryMatches(entry: string, type: string): boolean {
  if (entry.startsWith('.')) return false;
  if (entry === '*/*' || entry === type) return true;
  return entry.endsWith('/*') && type.startsWith(entry.slice(0, -1));
}

function typeAllowed(allowed: readonly string[], type: string | undefined): boolean {
  if (allowed.includes('*/*')) return true;
  if (type === undefined) return false;
  const essence = mimeEssence(type);
  return allowed.some((entry) => typeEntryMatches(entry, essence));
}

function extensionListed(allowed: readonly string[], extension: string): boolean {
  return extension !== '' && allowed.includes(extension);
}

/** Gitea's message, naming what was refused. */
export function forbiddenFileType(type: string): Error {
  return unprocessableEntity(`This file extension or type is not allowed to be uploaded. Type: ${type}`);
}

/**
 * The uploaded file (Gitea's Verify): its name's extension is listed, or the type sniffed from
 * its first bytes is. Throws 422 naming the sniffed type otherwise.
 */
export function assertUploadedFileAllowed(
  allowed: readonly string[],
  fileName: string,
  sniffedType: string,
): void {
  if (extensionListed(allowed, fileExtension(fileName)) || typeAllowed(allowed, sniffedType)) return;
  throw forbiddenFileType(mimeEssence(sniffedType));
}

/**
 * A display name (the `name` query on upload, the new name on edit): a name without an extension
 * is fine (`README`); one with an extension needs that extension allowed, listed as `.ext` or
 * standing for a listed type (`.png` under `image/*`). Throws 422 naming the extension otherwise.
 * `typeOfExtension` is the registered MIME type of an extension (`image/png` for `.png`).
 */
export function assertDisplayNameAllowed(
  allowed: readonly string[],
  name: string,
  typeOfExtension: (extension: string) => string | undefined,
): void {
  if (!displayNameAllowed(allowed, name, typeOfExtension)) throw forbiddenFileType(fileExtension(name));
}

/** assertDisplayNameAllowed's rule: whether the name may be shown. */
function displayNameAllowed(
  allowed: readonly string[],
  name: string,
  typeOfExtension: (extension: string) => string | undefined,
): boolean {
  const extension = fileExtension(name);
  return (
    extension === '' ||
    extensionListed(allowed, extension) ||
    typeAllowed(allowed, typeOfExtension(extension))
  );
}
