import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; credentials are redacted wherever they would appear. */
export function createLogger(level: string): Logger {
  return pino({
    name: 'code-hosting-api',
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["proxy-authorization"]'],
  });
}
