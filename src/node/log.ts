import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured logs (pino, JSON lines) on stderr so stdout stays free for what
 * a person reads (the browser shell's URL). Level from `STARLANE_LOG_LEVEL`,
 * default `info`.
 */
export function createLogger(name: string, level = process.env.STARLANE_LOG_LEVEL ?? 'info'): Logger {
  return pino({ name, level }, pino.destination({ fd: 2, sync: true }));
}
