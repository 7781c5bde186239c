import { HttpError } from './http-error';
import { readString } from './guards';

// Multer limit codes that mean "the upload is bigger than allowed".
const TOO_LARGE_CODES = new Set([
  'LIMIT_PART_COUNT',
  'LIMIT_FILE_SIZE',
  'LIMIT_FILE_COUNT',
  'LIMIT_FIELD_KEY',
  'LIMIT_FIELD_VALUE',
  'LIMIT_FIELD_COUNT',
]);

// Busboy reports malformed multipart/urlencoded input as plain Errors with these fixed messages.
const BUSBOY_MESSAGES = new Set([
  'Unexpected end of form',
  'Unexpected end of file',
  'Malformed part header',
  'Multipart: Boundary not found',
  'Malformed content type',
  'Malformed urlencoded form',
]);

function withField(message: string, field: string | undefined): string {
  return field === undefined ? message : `${message}: ${field}`;
}

export function fromMulterError(error: unknown): HttpError | undefined {
  const code = readString(error, 'code');
  if (readString(error, 'name') !== 'MulterError' || code === undefined) return undefined;

  const message = (readString(error, 'message') ?? 'invalid multipart request').toLowerCase();
  const field = readString(error, 'field');
  if (TOO_LARGE_CODES.has(code)) return new HttpError(413, withField(message, field), { cause: error });
  if (code === 'LIMIT_UNEXPECTED_FILE') {
    return new HttpError(400, withField('unexpected file field', field), { cause: error });
  }
  return new HttpError(400, withField(message, field), { cause: error });
}

export function fromBusboyError(error: unknown): HttpError | undefined {
  if (!(error instanceof Error) || !BUSBOY_MESSAGES.has(error.message)) return undefined;
  return new HttpError(400, `malformed request body: ${error.message.toLowerCase()}`, { cause: error });
}
