/**
 * The client build the bench measures: `vite build --manifest` into a temporary folder under .tmp/
 * (never dist/client, which tests may be using). The first-load measurement itself is
 * scripts/bundle-size.ts, shared with the production build test; Lighthouse (bench/lighthouse.ts)
 * loads the pages of this same build, served by target A.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

export { measureBundle, type BundleSizes } from '../scripts/bundle-size';

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
 * Builds the client (`<folder>/client`) and its server render (`<folder>/ssr`) into a temporary
 * folder under .tmp/ (never dist/, which tests may be using), and returns the folder; the caller
 * removes it. Under the project root, so the render's packages resolve from node_modules.
 */
export function buildClient(repoRoot: string): string {
  const outDir = path.join(repoRoot, '.tmp', `bench-client-${process.pid}`);
  viteBuild(repoRoot, path.join(outDir, 'client'));
  viteBuild(repoRoot, path.join(outDir, 'ssr'), ['--ssr', 'entry-server.tsx']);
  return outDir;
}

/** Removes a folder made by `buildClient` or `buildServerForBench`. */
export function removeBuild(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
