/**
 * The development mailbox never ships in production (docs/decisions/0032): a client built with
 * NODE_ENV=production holds none of the /dev/mailbox page's code (one real `vite build` into a
 * temporary folder, a few seconds), the build switch keeps it for development builds (`npm start`,
 * the Playwright suite), and the server refuses `dev.mailbox` in production.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createInnerContext } from '../../server/trpc/context';
import { createCaller } from '../../server/trpc/router';
import { includeDevMailbox, startupNodeEnv } from '../../scripts/client-build-flags';
import { errorOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

/** Texts only the mailbox page (and the check-email page's mailbox hint) contain. */
const MAILBOX_MARKERS = [
  'Emails the app would send',
  'Mailbox unavailable',
  'The mailbox is only available in development',
  'Open the mailbox',
  'mailbox.useQuery',
];

describe('development mailbox in the client bundle', () => {
  it('is absent from a client built with NODE_ENV=production', { timeout: 180_000 }, async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'lastslot-prod-client-'));
    try {
      await promisify(execFile)(
        path.resolve('node_modules/.bin/vite'),
        ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
        { env: { ...process.env, NODE_ENV: 'production', LASTSLOT_DEV_MAILBOX: '' }, timeout: 170_000 },
      );
      const files = (await readdir(path.join(outDir, 'assets'))).filter((f) => f.endsWith('.js'));
      expect(files.length).toBeGreaterThan(0);
      const found: string[] = [];
      for (const file of files) {
        const code = await readFile(path.join(outDir, 'assets', file), 'utf8');
        for (const marker of MAILBOX_MARKERS) if (code.includes(marker)) found.push(`${file}: ${marker}`);
      }
      expect(found).toEqual([]);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });

  it('is kept when the build did not start with NODE_ENV=production, and in the dev server', () => {
    expect(includeDevMailbox(undefined, undefined, 'build')).toBe(true);
    expect(includeDevMailbox(undefined, 'development', 'build')).toBe(true);
    expect(includeDevMailbox(undefined, 'production', 'build')).toBe(false);
    expect(includeDevMailbox(undefined, undefined, 'serve')).toBe(true);
    // Where the starting environment cannot be read, only the dev server or an explicit opt-in.
    expect(includeDevMailbox(undefined, null, 'build')).toBe(false);
    expect(includeDevMailbox(undefined, null, 'serve')).toBe(true);
    expect(includeDevMailbox('true', 'production', 'build')).toBe(true);
    expect(includeDevMailbox('false', undefined, 'build')).toBe(false);
  });

  it('reads NODE_ENV from the environment the process started with', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'lastslot-environ-'));
    try {
      await writeFile(path.join(dir, 'set'), 'PATH=/bin\0NODE_ENV=production\0HOME=/root\0');
      await writeFile(path.join(dir, 'unset'), 'PATH=/bin\0HOME=/root\0');
      expect(startupNodeEnv(path.join(dir, 'set'))).toBe('production');
      expect(startupNodeEnv(path.join(dir, 'unset'))).toBeUndefined();
      expect(startupNodeEnv(path.join(dir, 'missing'))).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('dev.mailbox on the server', () => {
  it('answers NOT_FOUND in production', async () => {
    const caller = createCaller(createInnerContext({ ...t.deps, isProduction: true }, { session: null, user: null }));
    expect((await errorOf(caller.dev.mailbox())).code).toBe('NOT_FOUND');
  });
});
