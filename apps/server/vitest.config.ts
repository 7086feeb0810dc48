import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One embedded PostgreSQL per run; each test file clones the migrated template database.
    globalSetup: ['./test/global-setup.ts'],
    // Loopback only: no test reaches Meta, WhatsApp or any other host.
    setupFiles: ['./test/network-guard.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
