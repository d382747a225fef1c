/**
 * The server build (`npm run build:server`, docs/decisions/0042): Vite's SSR build (Rolldown)
 * bundles server/index.ts with the server and shared modules it imports into one ES module,
 * dist/server/index.js, that plain Node runs (`npm run serve`). Packages stay external: they are
 * imported from node_modules at run time, as under tsx. drizzle/ and dist/client are found from
 * the project root at run time (server/core/paths.ts), not bundled.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  // No .env reading here: the server reads its environment when it starts (server/core/env.ts).
  envDir: false,
  build: {
    ssr: 'server/index.ts',
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    // Readable stack frames; NODE_OPTIONS=--enable-source-maps maps them to the TypeScript.
    minify: false,
    sourcemap: true,
  },
});
