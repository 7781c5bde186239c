import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Structured JSON logs; credentials are redacted wherever they would appear. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    name: 'code-hosting-api',
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["proxy-authorization"]'],
  };
  return destination ? pino(options, destination) : pino(options);
}
