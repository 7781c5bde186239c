import { isUniqueConstraintViolation } from '@repo/http-errors';
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
