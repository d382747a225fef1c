/**
 * The public route's first load, measured from a `vite build --manifest` output, each file
 * gzipped at level 9:
 * - the app's: what index.html loads (entry script, modulepreload links, stylesheets) plus, when
 *   the `$slug` route's screen is a lazily split chunk, that chunk's static-import closure (JS and
 *   CSS). (vite.config.ts keeps the /{slug} screen in the entry; the closure covers a build that
 *   splits it.) What every page loads for a visitor with a session (ADR 0048);
 * - the server-rendered /{slug}'s, for a visitor without one: what the shell the server sends
 *   (`deferredAppShell`) loads before any interaction (ADR 0075).
 * Used by the bench (bench/run.ts, the budget rows) and by the production build test
 * (tests/integration/production-build.test.ts, which fails above the ceiling or the budget).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { deferredAppShell } from '../server/client-pages';
import { BOOT_MANIFEST_KEY, SERVER_RENDER_ENTRY } from '../server/public-page-render';

/**
 * The product's budget for the /{slug} first load, gzipped bytes: what the server-rendered page
 * loads (checked by the production build test, reported by the bench).
 */
export const FIRST_LOAD_BUDGET = { js: 120 * 1024, css: 20 * 1024 } as const;

/**
 * What `npm test` enforces for the app's first load, gzipped bytes: the size reached by ADR 0048
 * and 0055 (one first-load chunk, 164.4 KB of JS) plus a little headroom, so that a change which
 * grows the first load (a static import of a large package, a dialog no longer lazy) fails.
 * Lower it when the first load shrinks; it must never exceed what the ADR explains.
 */
export const FIRST_LOAD_CEILING = { js: 168 * 1024, css: 11 * 1024 } as const;

/** Gzipped byte counts (zlib level 9) of the public route's first load. */
export interface BundleSizes {
  /** index.html's entry script, modulepreloads and their static imports. */
  entryJs: number;
  entryCss: number;
  /** Plus the `$slug` route's split chunks, if any, and their static imports and CSS (what /{slug} needs). */
  routeJs: number;
  routeCss: number;
  /** Where the /{slug} screen is: in the entry, or in split chunks ('unknown' without a manifest). */
  slugRoute: 'entry' | 'split' | 'unknown';
  /** Every counted file with its gzipped size, largest first. */
  files: { file: string; bytes: number }[];
  /** Where the numbers came from: 'manifest', or 'index.html' alone (a build without --manifest). */
  source: 'manifest' | 'index.html';
  /**
   * The first load of /{slug} as the server renders it for a visitor without a session (ADR
   * 0075): the scripts and stylesheets of its shell (`deferredAppShell`), the app's script not
   * among them. Null for a build without a server render or a manifest.
   */
  serverRendered: { js: number; css: number; files: { file: string; bytes: number }[] } | null;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** Measures `distDir`, a built client: index.html, assets/ and, when built with --manifest, .vite/manifest.json. */
export function measureBundle(distDir: string): BundleSizes {
  const template = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const shell = measureShell(distDir, template);
  const manifest = readManifest(distDir);
  const boot = manifest?.[BOOT_MANIFEST_KEY]?.file;
  const rendered =
    boot && existsSync(path.join(distDir, SERVER_RENDER_ENTRY))
      ? measureShell(distDir, deferredAppShell(template, `/${boot}`))
      : null;
  return {
    ...shell,
    serverRendered: rendered && { js: rendered.entryJs, css: rendered.entryCss, files: rendered.files },
  };
}

function readManifest(distDir: string): Record<string, ManifestChunk> | null {
  const manifestPath = path.join(distDir, '.vite', 'manifest.json');
  return existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>)
    : null;
}

/** What the page `html` (a shell of the build in `distDir`) loads, and the $slug route's closure. */
function measureShell(distDir: string, html: string): Omit<BundleSizes, 'serverRendered'> {
  const attr = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!.replace(/^\//, ''));
  const entryScripts = attr(/<script[^>]*type="module"[^>]*src="([^"]+)"/g);
  const preloads = attr(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
  const styles = attr(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);

  const found = readManifest(distDir);
  const hasManifest = found !== null;
  const manifest: Record<string, ManifestChunk> = found ?? {};
  const js = new Set<string>();
  const css = new Set<string>(styles);
  const keyOfFile = new Map(Object.entries(manifest).map(([key, c]) => [c.file, key]));
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
    for (const i of chunk.imports ?? []) visit(i);
  };
  for (const f of [...entryScripts, ...preloads]) {
    const key = keyOfFile.get(f);
    if (key) visit(key);
    else js.add(f);
  }
  const sizes = new Map<string, number>();
  const gz = (f: string) => {
    if (!sizes.has(f)) sizes.set(f, gzipSync(readFileSync(path.join(distDir, f)), { level: 9 }).length);
    return sizes.get(f)!;
  };
  const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(f), 0);
  const entryJs = sum(js);
  const entryCss = sum(css);
  const routeKeys = Object.keys(manifest).filter((k) => k.includes('routes/$slug'));
  for (const k of routeKeys) visit(k);
  return {
    entryJs,
    entryCss,
    routeJs: sum(js),
    routeCss: sum(css),
    slugRoute: !hasManifest ? 'unknown' : routeKeys.length > 0 ? 'split' : 'entry',
    files: [...js, ...css].map((file) => ({ file, bytes: gz(file) })).sort((a, b) => b.bytes - a.bytes),
    source: hasManifest ? 'manifest' : 'index.html',
  };
}

/** KB with one decimal, e.g. '178.5 KB'. */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
