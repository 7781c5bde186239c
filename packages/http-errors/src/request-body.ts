import { HttpError } from './http-error';
import { readNumber, readProperty, readString } from './guards';

// body-parser / raw-body errors: jshttp errors carrying a `type` and a `status`.
// The original is never kept as `cause`: body-parser puts the raw request body on `error.body`
// and JSON.parse messages quote fragments of it, so neither may reach logs or clients.

const FIXED_MAPPINGS: Readonly<Record<string, { status: number; message: string }>> = {
  'entity.parse.failed': { status: 400, message: 'malformed request body' },
  'request.aborted': { status: 400, message: 'request aborted' },
  'encoding.unsupported': { status: 415, message: 'unsupported content encoding' },
  'charset.unsupported': { status: 415, message: 'unsupported charset' },
};

function statusOf(error: unknown): number | undefined {
  return readNumber(error, 'status') ?? readNumber(error, 'statusCode');
}

function tooLargeMessage(error: unknown): string {
  const limit = readNumber(error, 'limit');
  return limit === undefined ? 'request body too large' : `request body too large (limit ${limit} bytes)`;
}

export function fromRequestBodyError(error: unknown): HttpError | undefined {
  const type = readString(error, 'type');
  const status = statusOf(error);
  if (type === undefined || status === undefined) return undefined;

  const fixed = FIXED_MAPPINGS[type];
  if (fixed) return new HttpError(fixed.status, fixed.message);
  if (type === 'entity.too.large') return new HttpError(413, tooLargeMessage(error));
  if (status >= 400 && status < 500) {
    // Other body-parser client errors (e.g. 'request.size.invalid') have fixed, body-free messages.
    const message = readProperty(error, 'expose') === true ? readString(error, 'message') : undefined;
    return new HttpError(status, message);
  }
  return undefined;
}
