import { defineConfig } from 'vite';

/**
 * The console's browser code, built by `npm run build` (`vite build console/web`) into dist/console/web, which the
 * console process serves. No plugin is needed: Vite 8 compiles TSX itself (Oxc) and fast refresh is a dev nicety.
 */
export default defineConfig({
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../../dist/console/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // One chunk per page would shave the first render further; the whole console is small enough to ship at once.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      onwarn(warning, warn) {
        // React Router marks its modules "use client" for server components; in a browser bundle that is moot.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    // `npx vite console/web` while a console process runs on 3100 serves the pages with hot reload.
    proxy: { '/api': 'http://127.0.0.1:3100' },
  },
});
