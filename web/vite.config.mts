import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The web app: built into dist/web, which the API process serves (api/web-ui/). The manifest records each chunk and
 * what it imports (bench/ui reads it for the sign-in view's first-load size). No inline scripts: the policy forbids them.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: path.join(import.meta.dirname, 'public'),
  build: {
    outDir: path.join(import.meta.dirname, '..', 'dist', 'web'),
    emptyOutDir: true,
    manifest: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // React libraries mark modules "use client" for server components; a client-only bundle has nothing to keep.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
