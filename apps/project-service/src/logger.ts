import { SERVICE_NAME } from './service-name';
import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { currentRequestId } from './http/request-id';

export type { Logger };

/** Headers and fields that carry credentials, wherever they appear in a log line. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'req.query.access_token',
  'req.query.token',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.access_token',
  '*.secret',
];

/**
 * Last line of defence, on the serialized line: credential-looking query parameters and
 * Authorization schemes are masked even where a field path could not name them.
 */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/([?&](?:access_token|token|api_key|apikey|password|secret|sudo_token)=)[^&"\s]*/gi, '$1[redacted]'],
  [/\b(Bearer|Basic|token)\s+[\w\-.~+/=]{8,}/g, '$1 [redacted]'],
  [/("(?:access_token|token|password|secret|authorization|cookie)":)"(?:[^"\\]|\\.)*"/gi, '$1"[redacted]"'],
];

function scrub(line: string): string {
  return SECRET_PATTERNS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), line);
}

/** The request id, and the trace and span ids when tracing is on, on every line. */
function correlationFields(): Record<string, string> {
  const fields: Record<string, string> = {};
  const id = currentRequestId();
  if (id !== undefined) fields['request_id'] = id;
  const span = trace.getActiveSpan()?.spanContext();
  if (span && span.traceId !== '00000000000000000000000000000000') {
    fields['trace_id'] = span.traceId;
    fields['span_id'] = span.spanId;
  }
  return fields;
}

/** One line per request for a person at a terminal: `GET /projects/… 200 12ms`. */
function prettyStream(): DestinationStream {
  return pretty({
    colorize: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name,req,res,responseTime,request_id',
    messageFormat: (log, messageKey) => {
      const req = log['req'] as { method?: string; url?: string } | undefined;
      const res = log['res'] as { statusCode?: number } | undefined;
      const message = String(log[messageKey] ?? '');
      if (!req || !res) return message;
      return `${req.method} ${req.url} ${res.statusCode} ${String(log['responseTime'])}ms`;
    },
  });
}

/** JSON lines for machines (the default, and always in production); `pretty` for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * Structured logs; credentials are redacted wherever they would appear. To `destination`, or
 * to stdout in `destination`'s format (JSON by default).
 */
export function createLogger(level: string, destination: DestinationStream | LogFormat = 'json'): Logger {
  const options: LoggerOptions = {
    name: SERVICE_NAME,
    level,
    redact: REDACTED_PATHS,
    mixin: correlationFields,
    hooks: { streamWrite: scrub },
  };
  if (destination === 'json') return pino(options);
  return pino(options, destination === 'pretty' ? prettyStream() : destination);
}
