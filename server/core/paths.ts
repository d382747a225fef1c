/**
 * Paths under the project root, found by walking up to package.json rather than a fixed `../..`: this
 * module runs both from the sources and bundled into dist/server/index.js (docs/decisions/0042).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`LastSlot: no package.json at or above ${from}`);
  }
}

/** Absolute path of the project root. */
export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** Absolute path of `segments` under the project root, e.g. `projectPath('drizzle')`. */
export const projectPath = (...segments: string[]): string => path.join(PROJECT_ROOT, ...segments);
