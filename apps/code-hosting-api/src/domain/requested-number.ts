/**
 * A team id, issue index or attachment id as the client wrote it. `value` is undefined when
 * the text cannot name a row of ours: not a plain decimal, or past 2^53, which ids and
 * indexes never reach (int64 columns, handed out one by one). Such a lookup is simply
 * "not found", and messages quote `text`: never a wrapped (-1) or rounded number.
 * The route table reads path parameters into it (http/parameters.ts), so handlers get it ready.
 */
export interface RequestedNumber {
  readonly value: number | undefined;
  readonly text: string;
}

export function requestedNumber(text: string): RequestedNumber {
  const value = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
  return { value: Number.isSafeInteger(value) ? value : undefined, text };
}
