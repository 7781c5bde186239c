// Generated from apps/project-service/src/logger.ts by `npm run sync:copies`: edit that file, not this copy.
import { SERVICE_NAME } from './service-name';
import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { REQUEST_REJECTED } from '@repo/http-errors';
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

type LogRecord = Record<string, unknown>;

/** Refusals held for their access line at most; past it the oldest is printed alone. */
const HELD_REFUSALS_MAX = 1000;

/** An access line's text, `GET /items/… 200 12ms`; undefined for any other line. */
function accessText(log: LogRecord): string | undefined {
  const req = log['req'] as { method?: string; url?: string } | undefined;
  const res = log['res'] as { statusCode?: number } | undefined;
  if (!req || !res) return undefined;
  return `${req.method} ${req.url} ${res.statusCode} ${String(log['responseTime'])}ms`;
}

/** The error handler's `request rejected` line as one readable line: `GET /items 401: <message>`. */
function refusalAlone(log: LogRecord): LogRecord {
  const { method, path, status, message, requestId: _id, type: _type, ...rest } = log;
  return { ...rest, msg: `${String(method)} ${String(path)} ${String(status)}: ${String(message)}` };
}

/**
 * For a person at a terminal: one readable line per request, `GET /items/… 200 12ms`. A refused
 * request (4xx) is logged twice, the error handler's `request rejected` line and then the access
 * line; here they make one: the access line followed by the message the client got
 * (`GET /items 401 3ms: missing Authorization header`). The refusal waits for its access line,
 * matched by request id; when no access line will come (a level above info), it is printed alone.
 */
function prettyDestination(accessLines: boolean, out: NodeJS.WritableStream): DestinationStream {
  const pretty = prettyFactory({
    colorize: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name,req,res,responseTime,request_id',
  });
  const held = new Map<string, LogRecord>();
  const print = (log: LogRecord) => out.write(pretty(log));
  return {
    write(line: string) {
      const log = JSON.parse(line) as LogRecord;
      const id = typeof log['request_id'] === 'string' ? log['request_id'] : undefined;
      if (log['msg'] === REQUEST_REJECTED) {
        if (!accessLines || id === undefined) return print(refusalAlone(log));
        held.set(id, log);
        // A request whose access line never comes (a probe's path) must not hold memory forever.
        const [oldest] = held;
        if (held.size > HELD_REFUSALS_MAX && oldest) {
          held.delete(oldest[0]);
          print(refusalAlone(oldest[1]));
        }
        return;
      }
      const access = accessText(log);
      if (access === undefined) return print(log);
      const refusal = id === undefined ? undefined : held.get(id);
      if (id !== undefined) held.delete(id);
      print({ ...log, msg: refusal ? `${access}: ${String(refusal['message'])}` : access });
    },
  };
}

/** JSON lines for machines (the default, and always in production); `pretty` for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * Structured logs; credentials are masked on every line, by name and by shape (log-secrets.ts),
 * before any destination sees it. To `destination`, or to stdout in `destination`'s format (JSON
 * by default; the pretty format, to `out` when given, is made from the masked line).
 */
export function createLogger(
  level: string,
  destination: DestinationStream | LogFormat = 'json',
  out: NodeJS.WritableStream = process.stdout,
): Logger {
  const options: LoggerOptions = {
    name: SERVICE_NAME,
    level,
    mixin: correlationFields,
    hooks: { streamWrite: scrubbed },
  };
  if (destination === 'json') return pino(options);
  if (destination !== 'pretty') return pino(options, destination);
  const accessLines = (pino.levels.values[level] ?? Infinity) <= pino.levels.values['info']!;
  return pino(options, prettyDestination(accessLines, out));
}
