import { SERVICE_NAME } from './service-name';
import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { currentRequestId } from './http/request-id';
import { scrubbed } from './log-secrets';

export type { Logger };

/** On a request's logger (request-observation.ts): the id of its request, for every line it writes. */
export const LOGGER_REQUEST_ID = Symbol('request id');

/**
 * The request id (of the logger's request, else of the request context's), and the trace and span
 * ids when tracing is on, on every line.
 */
function correlationFields(_line: object, _level: number, logger: Logger): Record<string, string> {
  const fields: Record<string, string> = {};
  const id = (logger as Logger & { [LOGGER_REQUEST_ID]?: string })[LOGGER_REQUEST_ID] ?? currentRequestId();
  if (id !== undefined) fields['request_id'] = id;
  const span = trace.getActiveSpan()?.spanContext();
  if (span && span.traceId !== '00000000000000000000000000000000') {
    fields['trace_id'] = span.traceId;
    fields['span_id'] = span.spanId;
  }
  return fields;
}

/** One line per request for a person at a terminal: `GET /items/… 200 12ms`. */
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
 * Structured logs; credentials are masked on every line, by name and by shape (log-secrets.ts),
 * before any destination sees it. To `destination`, or to stdout in `destination`'s format (JSON
 * by default; the pretty format is made from the masked line).
 */
export function createLogger(level: string, destination: DestinationStream | LogFormat = 'json'): Logger {
  const options: LoggerOptions = {
    name: SERVICE_NAME,
    level,
    mixin: correlationFields,
    hooks: { streamWrite: scrubbed },
  };
  if (destination === 'json') return pino(options);
  return pino(options, destination === 'pretty' ? prettyStream() : destination);
}
