import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: Number(process.env.WEB_PORT ?? 3000),
    strictPort: true,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // bench/bundle-size.mjs reads it to add up the chunks each route downloads.
    manifest: true,
    rollupOptions: {
      output: {
        // React itself changes least often: its own chunk stays cached across releases
        // and keeps the entry under Vite's 500 kB warning.
        manualChunks: (id) => (/\/node_modules\/(react|react-dom|scheduler)\//.test(id) ? 'react' : undefined),
      },
      onwarn(warning, warn) {
        // zod's bundled comments trip Rollup's annotation check; harmless noise.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
});
