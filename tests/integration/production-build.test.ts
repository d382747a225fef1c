/**
 * The production client build (one real `vite build --manifest` with NODE_ENV=production into a
 * temporary folder, a few seconds): it holds none of the /dev/mailbox page's code (docs/decisions/0032;
 * the build switch keeps the page for development builds, `npm start` and the Playwright suite, and
 * the server refuses `dev.mailbox` in production), and the public route's first load stays within
 * its ceiling (ADR 0048; sizes are byte counts of gzipped files, deterministic for a given source);
 * and the server sends that build compressed to clients that accept it (ADR 0055): the hashed
 * assets from the .br/.gz files the build wrote, the page HTML compressed per response.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, IMMUTABLE_CACHE_CONTROL } from '../../server/app';
import { createInnerContext } from '../../server/trpc/context';
import { createCaller } from '../../server/trpc/router';
import { FIRST_LOAD_BUDGET, FIRST_LOAD_CEILING, kb, measureBundle } from '../../scripts/bundle-size';
import { includeDevMailbox, startupNodeEnv } from '../../scripts/client-build-flags';
import { createBusiness } from '../factories/index';
import { errorOf } from '../setup/helpers';
import { silentLogger, useTestDeps } from '../setup/test-database';

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
    // The server's render of the public page, where `npm run build:client` puts it (ADR 0075).
    await promisify(execFile)(
      path.resolve('node_modules/.bin/vite'),
      ['build', '--ssr', 'entry-server.tsx', '--outDir', path.join(outDir, '.ssr'), '--logLevel', 'error'],
      { env: { ...process.env, NODE_ENV: 'production', LASTSLOT_DEV_MAILBOX: '' }, timeout: 170_000 },
    );
  }, 360_000);
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

  it('meets the budget for /{slug} as the server renders it: its boot script and stylesheet, not the app', () => {
    const rendered = measureBundle(outDir).serverRendered;
    expect(rendered).not.toBeNull();
    const files = rendered!.files.map((f) => `${path.basename(f.file)} ${kb(f.bytes)}`);
    expect(files.filter((f) => f.includes('.js'))).toEqual([expect.stringMatching(/^boot-[\w-]+\.js /)]);
    expect(
      { js: kb(rendered!.js), css: kb(rendered!.css), files },
      `server-rendered /{slug} over the budget (${kb(FIRST_LOAD_BUDGET.js)} JS, ${kb(FIRST_LOAD_BUDGET.css)} CSS)`,
    ).toMatchObject({ js: expect.any(String) });
    expect(rendered!.js).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.js);
    expect(rendered!.css).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.css);
  });

  describe('served by the server', () => {
    let app: FastifyInstance;
    let entry = '';
    let slug = '';
    beforeAll(async () => {
      app = await buildServer({ deps: t.deps, logger: silentLogger, clientDir: outDir });
      slug = (await createBusiness(t.deps.db, { name: 'Cuts & Co' })).profile.slug;
      const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
      entry = /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html)![1]!;
    });
    afterAll(async () => {
      await app?.close();
    });

    const decode = (encoding: string | undefined, body: Buffer) =>
      encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
    const get = (url: string, acceptEncoding: string | undefined, method: 'GET' | 'HEAD' = 'GET') =>
      app.inject({
        method,
        url,
        headers: {
          accept: 'text/html',
          ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
        },
      });
    /** A page answered with the app shell (200, empty #root, the app script, no boot script), for a session cookie. */
    const expectAppShell = (res: { statusCode: number; body: string }) => {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).toContain(`src="${entry}"`);
      expect(res.body).not.toContain('data-app-entry');
    };
    const cases = [
      { acceptEncoding: 'gzip, deflate, br', encoding: 'br' },
      { acceptEncoding: 'gzip', encoding: 'gzip' },
      { acceptEncoding: 'br;q=0, gzip;q=0.5', encoding: 'gzip' },
      { acceptEncoding: 'identity', encoding: undefined },
      { acceptEncoding: undefined, encoding: undefined },
    ];

    it.each(cases)(
      'sends a hashed script as $encoding for Accept-Encoding $acceptEncoding, cached for good',
      async ({ acceptEncoding, encoding }) => {
        expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
        const res = await get(entry, acceptEncoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
        const file = await readFile(path.join(outDir, entry));
        expect(decode(encoding, res.rawPayload).equals(file)).toBe(true);
        if (encoding) expect(res.rawPayload.length).toBeLessThan(file.length / 2);
      },
    );

    it.each(cases)(
      'sends a business page as $encoding for Accept-Encoding $acceptEncoding',
      async ({ acceptEncoding, encoding }) => {
        const plain = await get(`/${slug}`, undefined);
        expect(plain.body).toContain('id="public-page-data"');
        const res = await get(`/${slug}`, acceptEncoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(decode(encoding, res.rawPayload).toString('utf8')).toBe(plain.body);
        // A compressed answer's ETag is the weak form of the page's, and revalidates as well.
        expect(res.headers.etag).toBe(encoding ? `W/${String(plain.headers.etag)}` : plain.headers.etag);
        const again = await app.inject({
          method: 'GET',
          url: `/${slug}`,
          headers: {
            accept: 'text/html',
            'accept-encoding': acceptEncoding ?? '',
            'if-none-match': String(res.headers.etag),
          },
        });
        expect(again.statusCode).toBe(304);
        expect(again.rawPayload.length).toBe(0);
      },
    );

    it("names the business in the built page's head (title, description and link-preview metas)", async () => {
      const page = (await get(`/${slug}`, undefined)).body;
      // A screen the server does not name: the shell's own head.
      const home = (await get('/login', undefined)).body;
      const head = (html: string): Record<string, string | undefined> => ({
        title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
        ...Object.fromEntries(
          ['description', 'og:title', 'og:description', 'og:site_name', 'og:url'].map((name) => [
            name,
            new RegExp(`(?:name|property)="${name}"\\s+content="([^"]*)"`).exec(html)?.[1],
          ]),
        ),
      });
      expect(head(page)).toEqual({
        title: 'Cuts &amp; Co | LastSlot',
        description: 'Test business',
        'og:title': 'Cuts &amp; Co | LastSlot',
        'og:description': 'Test business',
        'og:site_name': 'LastSlot',
        'og:url': `${t.deps.appOrigin}/${slug}`,
      });
      // One address for the page, however it was asked for (a trailing slash, a query; capitals
      // are redirected to it).
      const canonical = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
      expect(canonical(page)).toBe(`${t.deps.appOrigin}/${slug}`);
      expect(canonical((await get(`/${slug}/?ref=qr`, undefined)).body)).toBe(`${t.deps.appOrigin}/${slug}`);
      expect(canonical(home)).toBeUndefined();
      expect(head(home)).toMatchObject({
        title: 'LastSlot',
        'og:title': 'LastSlot',
        'og:site_name': 'LastSlot',
        'og:url': undefined,
      });
      expect(head(home).description).toMatch(/^LastSlot: book last-minute/);
    });

    describe('a business page for a visitor without a session (ADR 0075)', () => {
      const page = (cookie?: string) =>
        app.inject({ method: 'GET', url: `/${slug}`, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
      const rootOf = (html: string) =>
        /<div id="root">([\s\S]*)<\/div>\s*<script type="application\/json"/.exec(html)?.[1] ?? '';

      it('holds the rendered page, its favourite count, and the boot script instead of the app script', async () => {
        const { profile } = await createBusiness(t.deps.db, { name: 'Fade Bros' });
        // A new business: no one has favourited it yet.
        const count = 0;
        const res = await app.inject({ method: 'GET', url: `/${profile.slug}`, headers: { accept: 'text/html' } });
        expect(res.statusCode).toBe(200);
        const root = rootOf(res.body);
        expect(root).toMatch(/<h1[^>]*>Fade Bros<\/h1>/);
        expect(root).toContain('Request an Appointment');
        expect(root).toContain(`Favourite<!-- --> · <!-- -->${count}`);
        expect(root).toContain('We use cookies');
        expect(res.body).not.toContain(`src="${entry}"`);
        expect(res.body).toMatch(
          new RegExp(`<script type="module" crossorigin src="/assets/boot-[\\w-]+\\.js" data-app-entry="${entry}">`),
        );
        expect(res.body).not.toContain('modulepreload');
        const preload = JSON.parse(
          /<script type="application\/json" id="public-page-data">(.*?)<\/script>/.exec(res.body)![1]!,
        );
        expect(preload.favourites).toEqual({ count, favourited: false });
      });

      it('leaves the cookie banner out once the consent cookie holds a choice', async () => {
        const consent = encodeURIComponent(JSON.stringify({ necessary: true, analytics: false, marketing: false }));
        const root = rootOf((await page(`cookiePreferences=${consent}`)).body);
        expect(root).toContain('Request an Appointment');
        expect(root).not.toContain('We use cookies');
        expect(rootOf((await page('cookiePreferences=nonsense')).body)).toContain('We use cookies');
      });

      it('is the app shell, with the app script, for a visitor with a session cookie', async () => {
        const res = await page('lastslot_session=anything');
        expectAppShell(res);
        expect(res.body).toContain('id="public-page-data"');
      });

      it('does not render a page that does not exist: the 404 shell, with the app script', async () => {
        const res = await app.inject({ method: 'GET', url: '/no-such-business', headers: { accept: 'text/html' } });
        expect(res.statusCode).toBe(404);
        expect(res.body).toContain('<div id="root"></div>');
        expect(res.body).toContain(`src="${entry}"`);
      });
    });

    it('sends the built index.html by its own name compressed too, and its .br file by its own name never', async () => {
      const res = await app.inject({ method: 'GET', url: '/index.html', headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).equals(await readFile(path.join(outDir, 'index.html')))).toBe(true);
      expect((await get(`${entry}.br`, 'br')).statusCode).toBe(404);
    });

    describe('the landing page (ADR 0076)', () => {
      const landing = (cookie?: string, acceptEncoding?: string) =>
        app.inject({
          method: 'GET',
          url: '/',
          headers: {
            accept: 'text/html',
            ...(cookie ? { cookie } : {}),
            ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
          },
        });
      const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '';

      it('holds the rendered page and the boot script for a visitor without a session, compressed', async () => {
        const res = await landing(undefined, 'br');
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe('br');
        const body = brotliDecompressSync(res.rawPayload).toString('utf8');
        expect(body).toContain('<title>Last-minute appointment booking | LastSlot</title>');
        const root = rootOf(body);
        // The headline's first phrase whole, the sections, the cookie banner (no choice saved).
        expect(root).toMatch(
          /Fill your<span class="typed-phrase-box">.*<span class="typed-phrase"[^>]*>cancelled appointments/,
        );
        expect(root).toContain('How it works');
        expect(root).toContain('We use cookies');
        expect(body).not.toContain(`src="${entry}"`);
        expect(body).toMatch(
          new RegExp(`<script type="module" crossorigin src="/assets/boot-[\\w-]+\\.js" data-app-entry="${entry}">`),
        );
        expect(body).not.toContain('id="public-page-data"');
      });

      it('leaves the cookie banner out once the consent cookie holds a choice', async () => {
        const consent = encodeURIComponent(JSON.stringify({ necessary: true, analytics: false, marketing: false }));
        const root = rootOf((await landing(`cookiePreferences=${consent}`)).body);
        expect(root).toContain('How it works');
        expect(root).not.toContain('We use cookies');
      });

      it('is the app shell, with the app script and the landing title, for a visitor with a session cookie', async () => {
        const res = await landing('lastslot_session=anything');
        expectAppShell(res);
        expect(res.body).toContain('<title>Last-minute appointment booking | LastSlot</title>');
      });
    });

    it('answers a HEAD for a page as its GET, without the body', async () => {
      const getRes = await get(`/${slug}`, 'br');
      const headRes = await get(`/${slug}`, 'br', 'HEAD');
      expect(headRes.statusCode).toBe(200);
      expect(headRes.rawPayload.length).toBe(0);
      for (const name of ['content-type', 'content-encoding', 'content-length', 'etag', 'vary', 'cache-control'])
        expect([name, headRes.headers[name]]).toEqual([name, getRes.headers[name]]);
    });
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
