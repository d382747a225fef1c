/**
 * The client build's manifest (Vite's .vite/manifest.json, `build.manifest`): which files a chunk
 * needs before it runs, and the style sheets of each route's chunks, which a page links in its head
 * so that it is styled before its app runs (server/http/pages.ts; scripts/bundle-size.ts counts the
 * same files).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A manifest entry as far as the server reads it; `imports` are static imports, by manifest key. */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** The manifest: chunks by key (an entry's or split module's source path, or `_name` for a shared chunk). */
export type ClientManifest = Record<string, ManifestChunk>;

/** Reads the manifest of the client built in `clientDir`. Throws when there is none. */
export function readClientManifest(clientDir: string): ClientManifest {
  return JSON.parse(readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8')) as ClientManifest;
}

/**
 * The chunk `key` and every chunk it imports statically, directly or not, each once, imports
 * before their importer: the order in which Vite's loader links their style sheets (a sheet after
 * those it may override). Chunks in `skip` (manifest keys; added to as chunks are visited) are left
 * out with what only they import. Throws when the manifest lacks a key.
 */
export function staticImports(manifest: ClientManifest, key: string, skip = new Set<string>()): ManifestChunk[] {
  if (skip.has(key)) return [];
  skip.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the client build's manifest has no ${key}`);
  return [...(chunk.imports ?? []).flatMap((i) => staticImports(manifest, i, skip)), chunk];
}

/** The code splitter's modules of a route file: `routes/register.tsx?tsr-split=component` and the like. */
const SPLIT_ROUTE_MODULE = /^(routes\/[^?]+)\?tsr-split=/;

/**
 * The style sheets of each route file's split chunks (its screen, error and not-found components)
 * and of what they import statically, beyond those of `entryKey` (the app's entry, linked on every
 * page): by route file, relative to client/ as the manifest names it (e.g. 'routes/register.tsx'),
 * as files of the build ('assets/…css') in the order Vite's loader would link them. A route whose
 * code stays in the entry has none.
 */
export function routeStyleSheets(manifest: ClientManifest, entryKey: string): Record<string, string[]> {
  const sheets: Record<string, string[]> = {};
  for (const key of Object.keys(manifest)) {
    const file = SPLIT_ROUTE_MODULE.exec(key)?.[1];
    if (!file) continue;
    const css = staticImports(manifest, key, new Set([entryKey])).flatMap((c) => c.css ?? []);
    sheets[file] = [...new Set([...(sheets[file] ?? []), ...css])];
  }
  return sheets;
}
