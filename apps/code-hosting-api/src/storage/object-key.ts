import { randomUUID } from 'node:crypto';
import { InvalidObjectKeyError } from './storage';

// Lowercase canonical UUIDs only: no slash, no dot, nothing a path or an S3
// key could be steered with.
const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A fresh storage key; the attachment row keeps it as its UUID. */
export function newObjectKey(): string {
  return randomUUID();
}

export function isObjectKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Returns the key when this storage could have generated it; throws InvalidObjectKeyError otherwise. */
export function checkedObjectKey(key: string): string {
  if (!isObjectKey(key)) throw new InvalidObjectKeyError();
  return key;
}

/**
 * Where a committed object lives below the root, in Gitea's layout
 * (`attachments/a/b/ab…`): two levels of fan-out keep folders small, and a
 * Gitea data folder or bucket can be taken over as it is.
 */
export function committedPath(key: string): string {
  const checked = checkedObjectKey(key);
  return `${checked[0]}/${checked[1]}/${checked}`;
}

/** Folder of the objects written but not committed; never a fan-out folder name (one hex digit). */
export const TEMPORARY_FOLDER = 'tmp';

export function temporaryPath(key: string): string {
  return `${TEMPORARY_FOLDER}/${checkedObjectKey(key)}`;
}

/** The reverse of committedPath/temporaryPath; undefined for anything else (never swept). */
export function parseObjectPath(relativePath: string): { key: string; temporary: boolean } | undefined {
  const parts = relativePath.split('/');
  if (parts.length === 2 && parts[0] === TEMPORARY_FOLDER && isObjectKey(parts[1] ?? '')) {
    return { key: parts[1] as string, temporary: true };
  }
  const [first, second, key] = parts;
  if (parts.length === 3 && key !== undefined && isObjectKey(key) && first === key[0] && second === key[1]) {
    return { key, temporary: false };
  }
  return undefined;
}
