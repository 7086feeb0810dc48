import type { Config } from '../config.js';

/** pino options: secrets never reach the log. */
export function loggerOptions(level: Config['logLevel']) {
  return {
    level,
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
