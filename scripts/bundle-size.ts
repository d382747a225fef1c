/**
 * The first load of a built client, measured from its Vite manifest, each file gzipped at level 9,
 * for the two kinds of page the server sends (server/http/pages.ts, `assetTags`):
 * - `app`: a page that loads the app at once: the entry script, its static imports and its CSS;
 * - `atFirstInteraction`: a page whose app loads at the visitor's first interaction (/, /{slug}):
 *   the boot script and its imports, and the same CSS with the style sheets the server links for
 *   those pages' routes (none while their code is in the entry); the app's script is not among them.
 * Used by the bench (bench/run.ts) and by the production build test
 * (tests/integration/production-build.test.ts, which fails above the ceiling or the budget).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readClientManifest, routeStyleSheets, staticImports } from '../server/http/client-manifest';

/** The product's budget for the first load of /{slug}, / and /discover, gzipped bytes. */
export const FIRST_LOAD_BUDGET = { js: 120 * 1024, css: 20 * 1024 } as const;

/**
 * What `npm test` enforces for the app's own first load (every page that loads the app at once),
 * gzipped bytes, with a little headroom, so that a change which grows it (a static import of a
 * large package, a dialog no longer lazy) fails. Lower it when the first load shrinks. The CSS
 * holds the theme's CSS variables (about 1 KB gzipped), which each page's HTML no longer carries,
 * and the public page's own style sheet (about 1 KB gzipped), which takes the place of the style
 * props Mantine resolved per element on every render (docs/decisions/0115).
 */
export const FIRST_LOAD_CEILING = { js: 194 * 1024, css: 15.25 * 1024 } as const;

/** Gzipped byte counts (zlib level 9) of one kind of first load. */
export interface FirstLoad {
  js: number;
  css: number;
  /** Every counted file with its gzipped size, largest first. */
  files: { file: string; bytes: number }[];
}

export interface BundleSizes {
  app: FirstLoad;
  atFirstInteraction: FirstLoad;
}

/** The route files of the pages whose app loads at the first interaction (vite.config.ts ENTRY_ROUTES). */
const AT_FIRST_INTERACTION_ROUTE_FILES = [
  'routes/__root.tsx',
  'routes/index.tsx',
  'routes/$slug.tsx',
  'routes/discover.tsx',
];

/** Measures `distDir`, a client built with its manifest (.vite/manifest.json). */
export function measureBundle(distDir: string): BundleSizes {
  const manifest = readClientManifest(distDir);
  const closure = (key: string) => {
    const chunks = staticImports(manifest, key);
    return { js: new Set(chunks.map((c) => c.file)), css: new Set(chunks.flatMap((c) => c.css ?? [])) };
  };
  const gz = (f: string) => gzipSync(readFileSync(path.join(distDir, f)), { level: 9 }).length;
  const measure = ({ js, css }: { js: Set<string>; css: Set<string> }): FirstLoad => {
    const files = [...js, ...css].map((file) => ({ file, bytes: gz(file) })).sort((a, b) => b.bytes - a.bytes);
    const sum = (set: Set<string>) => files.filter((f) => set.has(f.file)).reduce((n, f) => n + f.bytes, 0);
    return { js: sum(js), css: sum(css), files };
  };
  const app = closure('entry-client.tsx');
  const routeCss = routeStyleSheets(manifest, 'entry-client.tsx');
  const publicRouteCss = AT_FIRST_INTERACTION_ROUTE_FILES.flatMap((f) => routeCss[f] ?? []);
  return {
    app: measure(app),
    atFirstInteraction: measure({ js: closure('boot.ts').js, css: new Set([...app.css, ...publicRouteCss]) }),
  };
}

/** KB with one decimal, e.g. '178.5 KB'. */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
