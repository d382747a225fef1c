/**
 * Files the server reads at run time, resolved from the project root: the nearest folder above
 * this module that holds package.json. Found by walking up rather than by a fixed `../..`, because
 * the same code runs from the sources (server/core/paths.ts, under tsx) and from the built server
 * (dist/server/index.js, every server module in one file; docs/decisions/0042).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json at or above `from`; throws when there is none. */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`LastSlot: no package.json at or above ${from}`);
  }
}

/** Absolute path of the project root (the folder with package.json, drizzle/ and dist/). */
export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** Absolute path of `segments` under the project root, e.g. `projectPath('drizzle')`. */
export const projectPath = (...segments: string[]): string => path.join(PROJECT_ROOT, ...segments);
