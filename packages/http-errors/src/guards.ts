// Narrowing helpers for duck-typing errors from libraries this package does not import.

export type UnknownRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === 'object' && value !== null;
}

export function readProperty(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

export function readString(value: unknown, key: string): string | undefined {
  const property = readProperty(value, key);
  return typeof property === 'string' ? property : undefined;
}

export function readNumber(value: unknown, key: string): number | undefined {
  const property = readProperty(value, key);
  return typeof property === 'number' ? property : undefined;
}

export function readStringArray(value: unknown, key: string): string[] | undefined {
  const property = readProperty(value, key);
  return Array.isArray(property) && property.every((item) => typeof item === 'string') ? property : undefined;
}

/** The error itself followed by its `cause` chain, at most `maxDepth` causes deep (cycles stop there too). */
export function causeChain(error: unknown, maxDepth: number): unknown[] {
  const chain: unknown[] = [error];
  let current = error;
  for (let depth = 0; depth < maxDepth; depth += 1) {
    current = readProperty(current, 'cause');
    if (current === undefined || current === null) break;
    chain.push(current);
  }
  return chain;
}
