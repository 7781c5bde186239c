import { isRecordNotFound, isUniqueConstraintViolation, isUnstorableValue } from '@repo/http-errors';
import type { WriteOutcome } from '../domain/write-outcome';

/** Runs a write that may collide with an existing name; a unique violation becomes `name-taken`. */
export async function unlessNameTaken<T>(write: () => Promise<T>): Promise<WriteOutcome<T>> {
  try {
    return { kind: 'written', value: await write() };
  } catch (error) {
    if (isUniqueConstraintViolation(error)) return { kind: 'name-taken' };
    throw error;
  }
}

/**
 * A guarded write (checked and made in one statement) that failed on a value the database cannot
 * store (a NUL character) wrote nothing: undefined, and the caller's full path answers, which
 * decides who may act before the value reaches the database (Gitea's order: 403 before 422).
 */
export async function unlessUnstorable<T>(write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (isUnstorableValue(error)) return undefined;
    throw error;
  }
}

/**
 * A write of a row by its id that found no row (deleted since the caller read it; Prisma's P2025):
 * undefined, and the domain decides what that means for the request.
 */
export async function unlessRecordGone<T>(write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (isRecordNotFound(error)) return undefined;
    throw error;
  }
}
