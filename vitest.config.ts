import { defineConfig } from 'vitest/config';

// One run covers every package; each project keeps its own environment and setup.
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/server', 'apps/web'],
  },
});
