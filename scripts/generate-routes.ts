/**
 * Regenerates client/routeTree.gen.ts from client/routes/ without building the client (the Vite
 * plugin does the same during `vite build`/`npm run dev`). Same options as vite.config.ts.
 * Usage: npm run routes
 */
import { fileURLToPath } from 'node:url';
import { Generator, getConfig } from '@tanstack/router-generator';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = getConfig(
  {
    target: 'react',
    routesDirectory: fileURLToPath(new URL('../client/routes', import.meta.url)),
    generatedRouteTree: fileURLToPath(new URL('../client/routeTree.gen.ts', import.meta.url)),
    autoCodeSplitting: true,
    quoteStyle: 'single',
  },
  root,
);
await new Generator({ config, root }).run();
