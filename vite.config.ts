import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { themeCssVariables } from './client/lib/theme.ts';
import { includeDevMailbox, startupNodeEnv } from './scripts/client-build-flags.ts';

const clientDir = fileURLToPath(new URL('./client', import.meta.url));
/** Routes whose screens are part of the entry chunk instead of a lazy chunk. */
const ENTRY_ROUTES = new Set(['/', '/$slug', '/discover']);
/** The boot script of a server-rendered page and its one import (client/boot.ts). */
const BOOT_MODULES = /[\\/](client[\\/]boot|shared[\\/]boot-script)\.ts$/;

/** The style sheet of the theme's CSS variables, imported by client/router.tsx. */
const THEME_CSS = 'virtual:theme-variables.css';

/**
 * `virtual:theme-variables.css`: the theme's CSS variables (client/lib/theme.ts), computed once when
 * the app is built and bundled with its other CSS, instead of a <style> MantineProvider computes on
 * every render (client/routes/__root.tsx turns that off). Read when Vite starts: a change to the theme
 * needs a new build or a restart of the dev server.
 */
function themeVariables(): Plugin {
  return {
    name: 'lastslot-theme-variables',
    // With its query kept: the dev server links it as a style sheet (`?direct`, server/http/pages.ts).
    resolveId: (id) => (id.split('?')[0] === THEME_CSS ? `\0${id}` : undefined),
    load: (id) => (id.split('?')[0] === `\0${THEME_CSS}` ? themeCssVariables() : undefined),
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  root: clientDir,
  define: {
    // false in a production build: the /dev/mailbox page is then not in the bundle (ADR 0032).
    'import.meta.env.LASTSLOT_DEV_MAILBOX': JSON.stringify(
      includeDevMailbox(process.env.LASTSLOT_DEV_MAILBOX, startupNodeEnv(), command),
    ),
  },
  // VITE_* settings (legal operator details, ADR 0021) come from the repository's .env, like the server's.
  envDir: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: 'public',
  plugins: [
    // Must come before react(): generates client/routeTree.gen.ts and splits route code.
    tanstackRouter({
      target: 'react',
      routesDirectory: fileURLToPath(new URL('./client/routes', import.meta.url)),
      generatedRouteTree: fileURLToPath(new URL('./client/routeTree.gen.ts', import.meta.url)),
      autoCodeSplitting: true,
      // The pages whose app loads at the first interaction, /, /{slug} (a QR code) and /discover,
      // come with the entry: the app hydrates them in one pass (a tap taken before it is answered
      // once they are live) with no second round trip. Every other route's component is a lazy chunk.
      codeSplittingOptions: {
        splitBehavior: ({ routeId }) => (ENTRY_ROUTES.has(routeId) ? [] : undefined),
      },
      // Only the browser's code is split: a lazy component would suspend the server's render, which
      // cannot wait for it.
      plugin: { vite: { environmentName: 'client' } },
      quoteStyle: 'single',
    }),
    react(),
    themeVariables(),
    // .br (quality 11) and .gz (level 9) beside each text file of a build, where smaller: the
    // server sends them to clients that accept them (@fastify/static preCompressed, ADR 0055).
    // Not for the server's render, which is never sent.
    !isSsrBuild && compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' }),
  ],
  // The server render (`vite build --ssr entry-server.tsx`) goes to dist/ssr, beside the client
  // build; its packages stay external, imported from node_modules like the server's own.
  build: isSsrBuild
    ? { outDir: fileURLToPath(new URL('./dist/ssr', import.meta.url)), emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
        emptyOutDir: true,
        // The app's entry chunk is about 630 KB minified (React DOM a third of it); the size that
        // matters, gzipped, is guarded by tests/integration/production-build.test.ts.
        chunkSizeWarningLimit: 700,
        // Read by the server for the entry's, the boot script's and the style sheets' addresses.
        manifest: true,
        rolldownOptions: {
          // The app, and the boot script of a page whose app loads at the first interaction.
          input: {
            app: fileURLToPath(new URL('./client/entry-client.tsx', import.meta.url)),
            boot: fileURLToPath(new URL('./client/boot.ts', import.meta.url)),
          },
          output: {
            codeSplitting: {
              // Everything the entry loads statically goes into one chunk, shared modules included:
              // fewer requests before the first paint on a phone.
              // The boot script and what it imports stay out of it: they load without the app, in
              // one file (the app imports nothing of the boot script's).
              groups: [{ name: 'app', tags: ['$initial'], test: (id) => !BOOT_MODULES.test(id) }],
            },
          },
        },
      },
}));
