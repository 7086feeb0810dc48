import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger.js';

describe('log format (issue 12: `npm start` on a terminal)', () => {
  it('pretty-prints for a terminal and writes JSON lines otherwise', async () => {
    expect(loggerOptions('info', false)).not.toHaveProperty('transport');
    const { transport } = loggerOptions('info', true) as { transport: { target: string; options: Record<string, unknown> } };
    expect(transport.target).toBe('pino-pretty');

    // The same transport, written to a file instead of the terminal: readable lines, not JSON.
    const dir = mkdtempSync(join(tmpdir(), 'balcao-log-'));
    const file = join(dir, 'out.log');
    const stream = pino.transport({ target: transport.target, options: { ...transport.options, destination: file, colorize: false, mkdir: true } });
    const log = pino({ ...loggerOptions('info', false) }, stream);
    log.info({ password: 'hunter2' }, 'servidor pronto');
    await new Promise<void>((resolve) => {
      stream.on('close', () => resolve());
      stream.end();
    });
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/INFO.*servidor pronto/);
    expect(text.trimStart().startsWith('{')).toBe(false);
    expect(text).not.toContain('hunter2');
    rmSync(dir, { recursive: true, force: true });
  });
});
