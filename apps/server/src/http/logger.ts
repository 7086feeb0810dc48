import type { Config } from '../config.js';

/**
 * pino options: secrets never reach the log. A person at a terminal reads colourised lines
 * (pino-pretty); anything else (a file, a log collector) gets one JSON object per line.
 */
export function loggerOptions(level: Config['logLevel'], tty: boolean = process.stdout.isTTY === true) {
  return {
    level,
    ...(tty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'headers.authorization',
        'headers.cookie',
        '*.password',
        '*.passwordHash',
        '*.token',
        'password',
        'token',
      ],
      censor: '[redacted]',
    },
  };
}
