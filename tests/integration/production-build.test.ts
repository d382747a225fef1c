/**
 * The production client build (one real `vite build --manifest` with NODE_ENV=production into a
 * temporary folder, a few seconds): it holds none of the /dev/mailbox page's code (docs/decisions/0032;
 * the build switch keeps the page for development builds, `npm start` and the Playwright suite, and
 * the server refuses `dev.mailbox` in production), and the public route's first load stays within
 * its ceiling (ADR 0048; sizes are byte counts of gzipped files, deterministic for a given source).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInnerContext } from '../../server/trpc/context';
import { createCaller } from '../../server/trpc/router';
import { FIRST_LOAD_CEILING, kb, measureBundle } from '../../scripts/bundle-size';
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

describe('the production client build', () => {
  let outDir = '';
  beforeAll(async () => {
    outDir = await mkdtemp(path.join(tmpdir(), 'lastslot-prod-client-'));
    await promisify(execFile)(
      path.resolve('node_modules/.bin/vite'),
      ['build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'error'],
      { env: { ...process.env, NODE_ENV: 'production', LASTSLOT_DEV_MAILBOX: '' }, timeout: 170_000 },
    );
  }, 180_000);
  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('holds none of the development mailbox', async () => {
    const files = (await readdir(path.join(outDir, 'assets'))).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const file of files) {
      const code = await readFile(path.join(outDir, 'assets', file), 'utf8');
      for (const marker of MAILBOX_MARKERS) if (code.includes(marker)) found.push(`${file}: ${marker}`);
    }
    expect(found).toEqual([]);
  });

  it("keeps the public route's first load (gzipped JS and CSS) within its ceiling", async () => {
    const sizes = measureBundle(outDir);
    expect(sizes.source).toBe('manifest');
    // What is counted holds the public page itself (its loading text), wherever the build put it.
    const counted = await Promise.all(
      sizes.files.filter((f) => f.file.endsWith('.js')).map((f) => readFile(path.join(outDir, f.file), 'utf8')),
    );
    expect(counted.some((code) => code.includes('Loading business...'))).toBe(true);
    const largest = sizes.files.slice(0, 6).map((f) => `${path.basename(f.file)} ${kb(f.bytes)}`);
    expect(
      { js: kb(sizes.routeJs), withinJs: sizes.routeJs <= FIRST_LOAD_CEILING.js, largest },
      `first-load JS ${kb(sizes.routeJs)} > ceiling ${kb(FIRST_LOAD_CEILING.js)} (ADR 0048)`,
    ).toMatchObject({ withinJs: true });
    expect(
      { css: kb(sizes.routeCss), withinCss: sizes.routeCss <= FIRST_LOAD_CEILING.css },
      `first-load CSS ${kb(sizes.routeCss)} > ceiling ${kb(FIRST_LOAD_CEILING.css)} (ADR 0048)`,
    ).toMatchObject({ withinCss: true });
  });
});

describe('development mailbox build switch', () => {
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
