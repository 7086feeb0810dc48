import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';

describe('config', () => {
  it('has the documented defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 8080,
      webPort: 3000,
      apiUrl: 'http://localhost:8080',
      frontendUrl: 'http://localhost:3000',
      adminEmail: 'admin@balcao.local',
      serveWeb: true,
      databaseUrl: undefined,
    });
    expect(isAbsolute(c.dataDir)).toBe(true);
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('derives URLs from the ports and reads booleans', () => {
    const c = parseConfig({ PORT: '9000', WEB_PORT: '9001', SERVE_WEB: 'false', DATA_DIR: '/tmp/x' });
    expect(c).toMatchObject({ apiUrl: 'http://localhost:9000', frontendUrl: 'http://localhost:9001', serveWeb: false, dataDir: '/tmp/x' });
  });

  it('rejects a bad environment with a readable message', () => {
    expect(() => parseConfig({ PORT: 'eighty', ADMIN_EMAIL: 'nope', JWT_SECRET: 'short' })).toThrow(/PORT[\s\S]*ADMIN_EMAIL[\s\S]*JWT_SECRET/);
  });
});
