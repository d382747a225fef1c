/**
 * Initial JS and CSS of the public route (/{slug}), gzipped, from a `vite build` output: what
 * index.html loads (entry script, modulepreload links, stylesheets) plus, through the Vite
 * manifest when present, the static-import closure of the lazily split `$slug` route chunks.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Gzipped byte counts (zlib level 9) of the public route's first load. */
export interface BundleSizes {
  /** index.html's entry script, modulepreloads and their static imports. */
  entryJs: number;
  entryCss: number;
  /** Plus the `$slug` route's split chunks and their static imports and CSS (what /{slug} needs). */
  routeJs: number;
  routeCss: number;
  files: string[];
  /** Where the numbers came from: 'manifest' or 'index.html' (no route chunks found). */
  source: 'manifest' | 'index.html';
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

/**
 * Runs `vite build` with `args` in `repoRoot` into `outDir` (emptied first), warnings and errors
 * on stderr; throws when the build fails. For the bench's own builds under .tmp/.
 */
export function viteBuild(repoRoot: string, outDir: string, args: string[] = []): void {
  execFileSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      ...args,
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/**
 * Builds the client into a temporary folder under .tmp/ (never dist/client, which tests may be
 * using) with a manifest, and returns the folder; the caller removes it.
 */
export function buildClient(repoRoot: string): string {
  const outDir = path.join(repoRoot, '.tmp', `bench-client-${process.pid}`);
  viteBuild(repoRoot, outDir, ['--manifest']);
  return outDir;
}

/** Removes a folder made by `buildClient` or `buildServerForBench`. */
export function removeBuild(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** Measures `distDir` (a built client: index.html, assets/, optionally .vite/manifest.json). */
export function measureBundle(distDir: string): BundleSizes {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const attr = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!.replace(/^\//, ''));
  const entryScripts = attr(/<script[^>]*type="module"[^>]*src="([^"]+)"/g);
  const preloads = attr(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
  const styles = attr(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);

  const manifestPath = path.join(distDir, '.vite', 'manifest.json');
  const manifest: Record<string, ManifestChunk> | null = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>)
    : null;
  const js = new Set<string>();
  const css = new Set<string>(styles);
  const byFile = new Map(Object.entries(manifest ?? {}).map(([key, c]) => [c.file, key]));
  const visit = (key: string) => {
    const chunk = manifest?.[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
    for (const i of chunk.imports ?? []) visit(i);
  };
  for (const f of [...entryScripts, ...preloads]) {
    const key = byFile.get(f);
    if (key) visit(key);
    else js.add(f);
  }
  const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(path.join(distDir, f)), 0);
  const entryJs = sum(js);
  const entryCss = sum(css);
  const routeKeys = Object.keys(manifest ?? {}).filter((k) => k.includes('routes/$slug'));
  for (const k of routeKeys) visit(k);
  return {
    entryJs,
    entryCss,
    routeJs: sum(js),
    routeCss: sum(css),
    files: [...js, ...css],
    source: routeKeys.length > 0 ? 'manifest' : 'index.html',
  };
}
