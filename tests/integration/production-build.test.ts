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
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, IMMUTABLE_CACHE_CONTROL } from '../../server/app';
import { buildAssets } from '../../server/http/pages';
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
  let clientDir = '';
  beforeAll(async () => {
    // Under the project root: the server render imports its packages from node_modules.
    await mkdir(path.resolve('.tmp'), { recursive: true });
    outDir = await mkdtemp(path.resolve('.tmp', 'prod-build-'));
    clientDir = path.join(outDir, 'client');
    const env = { ...process.env, NODE_ENV: 'production', LASTSLOT_DEV_MAILBOX: '' };
    const vite = (args: string[]) =>
      promisify(execFile)(path.resolve('node_modules/.bin/vite'), [...args, '--logLevel', 'error'], {
        env,
        timeout: 170_000,
      });
    await vite(['build', '--outDir', clientDir, '--emptyOutDir']);
    await vite(['build', '--ssr', 'entry-server.tsx', '--outDir', path.join(outDir, 'ssr')]);
  }, 360_000);
  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('holds none of the development mailbox', async () => {
    const files = (await readdir(path.join(clientDir, 'assets'))).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const file of files) {
      const code = await readFile(path.join(clientDir, 'assets', file), 'utf8');
      for (const marker of MAILBOX_MARKERS) if (code.includes(marker)) found.push(`${file}: ${marker}`);
    }
    expect(found).toEqual([]);
  });

  it("keeps the app's first load (gzipped JS and CSS) within its ceiling", async () => {
    const { app } = measureBundle(clientDir);
    // What is counted holds the public page itself (its loading text), wherever the build put it.
    const counted = await Promise.all(
      app.files.filter((f) => f.file.endsWith('.js')).map((f) => readFile(path.join(clientDir, f.file), 'utf8')),
    );
    expect(counted.some((code) => code.includes('Loading business...'))).toBe(true);
    const largest = app.files.slice(0, 6).map((f) => `${path.basename(f.file)} ${kb(f.bytes)}`);
    expect(
      { js: kb(app.js), withinJs: app.js <= FIRST_LOAD_CEILING.js, largest },
      `first-load JS ${kb(app.js)} > ceiling ${kb(FIRST_LOAD_CEILING.js)}`,
    ).toMatchObject({ withinJs: true });
    expect(
      { css: kb(app.css), withinCss: app.css <= FIRST_LOAD_CEILING.css },
      `first-load CSS ${kb(app.css)} > ceiling ${kb(FIRST_LOAD_CEILING.css)}`,
    ).toMatchObject({ withinCss: true });
  });

  it('meets the budget for / and /{slug}: their boot script and style sheet, not the app', () => {
    const first = measureBundle(clientDir).atFirstInteraction;
    const files = first.files.map((f) => `${path.basename(f.file)} ${kb(f.bytes)}`);
    // The boot script (with what it imports); nothing of the app itself.
    const scripts = files.filter((f) => f.includes('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((f) => /^boot-[\w-]+\.js /.test(f))).toBe(true);
    expect(first.js).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.js);
    expect(first.css).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.css);
  });

  describe('served by the server', () => {
    let app: FastifyInstance;
    let entry = '';
    let slug = '';
    beforeAll(async () => {
      app = await buildServer({ deps: t.deps, logger: silentLogger, clientDir, renderDir: path.join(outDir, 'ssr') });
      slug = (await createBusiness(t.deps.db, { name: 'Cuts & Co' })).profile.slug;
      entry = buildAssets(clientDir).entry;
    });
    afterAll(async () => {
      await app?.close();
    });

    it("gives a page the configured map tiles: allowed as images, sent with the router's state", async () => {
      const mapTiles = { url: 'https://{s}.tiles.example.test/{z}/{x}/{y}.png', attribution: 'Example Maps credit' };
      const custom = await buildServer({
        deps: t.deps,
        logger: silentLogger,
        clientDir,
        renderDir: path.join(outDir, 'ssr'),
        mapTiles,
      });
      try {
        const res = await custom.inject({ method: 'GET', url: '/discover', headers: { accept: 'text/html' } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-security-policy']).toContain(
          "img-src 'self' data: blob: https://*.tiles.example.test;",
        );
        expect(res.body).toContain('tiles.example.test');
        expect(res.body).toContain('Example Maps credit');
        expect(res.body).not.toContain('tile.openstreetmap.org');
      } finally {
        await custom.close();
      }
    });

    const decode = (encoding: string | undefined, body: Buffer) =>
      encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
    const get = (url: string, acceptEncoding: string | undefined, method: 'GET' | 'HEAD' = 'GET', cookie?: string) =>
      app.inject({
        method,
        url,
        headers: {
          accept: 'text/html',
          ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
          ...(cookie ? { cookie } : {}),
        },
      });
    /** The boot script's tag, naming the app's script: the page's app loads at the first interaction. */
    const bootTag = () =>
      new RegExp(`<script type="module" src="/assets/boot-[\\w-]+\\.js" data-app-entry="${entry}"></script>`);
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
        expect(entry).toMatch(/^\/assets\/app-[\w-]+\.js$/);
        const res = await get(entry, acceptEncoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
        const file = await readFile(path.join(clientDir, entry));
        expect(decode(encoding, res.rawPayload).equals(file)).toBe(true);
        if (encoding) expect(res.rawPayload.length).toBeLessThan(file.length / 2);
      },
    );

    it.each(cases)(
      'sends a business page as $encoding for Accept-Encoding $acceptEncoding, revalidated by its ETag',
      async ({ acceptEncoding, encoding }) => {
        const res = await get(`/${slug}`, acceptEncoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(decode(encoding, res.rawPayload).toString('utf8')).toContain('Cuts &amp; Co');
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
        // The browser keeps the page it has with the policy it came with: a 304 sends none.
        expect(again.headers['content-security-policy']).toBeUndefined();
      },
    );

    it("allows the router's inline scripts by hash, and no other inline script", async () => {
      const res = await get(`/${slug}`, undefined);
      const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
      expect(scriptSrc).not.toMatch(/'nonce-|'unsafe-inline'/);
      const inline = [...res.body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline.length).toBeGreaterThan(0);
      const hashes = inline.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
      expect(new Set(scriptSrc.split(' ').filter((s) => s.startsWith("'sha256-")))).toEqual(new Set(hashes));
      // The visitor's page again, as kept: the same page, policy and ETag.
      const next = await get(`/${slug}`, undefined);
      expect(next.body).toBe(res.body);
      expect(next.headers['content-security-policy']).toBe(res.headers['content-security-policy']);
      expect(next.headers.etag).toBe(res.headers.etag);
    });

    it("links the style sheets of a page's split route chunks; / and /{slug} only the entry's (the budget's)", async () => {
      const { css, routeCss } = buildAssets(clientDir);
      const sheetsOf = async (url: string) =>
        [...(await get(url, undefined)).body.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
      const register = routeCss?.['routes/register.tsx'] ?? [];
      // The sign-up screen's radios (Radio.css) are in a sheet of its chunk's imports.
      expect(register.some((f) => /RadioIndicator-[\w-]+\.css$/.test(f))).toBe(true);
      expect(await sheetsOf('/register?role=customer')).toEqual([...css, ...register]);
      expect(await sheetsOf('/')).toEqual(css);
      expect(await sheetsOf(`/${slug}`)).toEqual(css);
    });

    it("names the business in the built page's head (title, description and link-preview metas)", async () => {
      const page = (await get(`/${slug}`, undefined)).body;
      // A screen the server does not name: the document's own head.
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
      expect(canonical((await get(`/${slug}?ref=qr`, undefined)).body)).toBe(`${t.deps.appOrigin}/${slug}`);
      const slash = await get(`/${slug}/?ref=qr`, undefined);
      expect([slash.statusCode, slash.headers.location]).toEqual([307, `/${slug}?ref=qr`]);
      expect(canonical(home)).toBeUndefined();
      expect(head(home)).toMatchObject({
        title: 'LastSlot',
        'og:title': 'LastSlot',
        'og:site_name': 'LastSlot',
        'og:url': undefined,
      });
      expect(head(home).description).toMatch(/^LastSlot: book last-minute/);
    });

    it('moves a slug typed with capitals for good to its lower-case address, query kept', async () => {
      const res = await get(`/${slug.toUpperCase()}?ref=qr`, undefined);
      expect(res.statusCode).toBe(301);
      expect(res.headers.location).toMatch(new RegExp(`/${slug}\\?ref=qr$`));
    });

    describe('a business page', () => {
      const bodyOf = (html: string) => /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? '';

      it('holds the rendered page, its favourite count, and the boot script instead of the app script', async () => {
        const { profile } = await createBusiness(t.deps.db, { name: 'Fade Bros' });
        const res = await get(`/${profile.slug}`, undefined);
        expect(res.statusCode).toBe(200);
        const body = bodyOf(res.body);
        expect(body).toMatch(/<h1[^>]*>Fade Bros<\/h1>/);
        expect(body).toContain('Request an Appointment');
        // A new business: no one has favourited it yet.
        expect(body).toContain(`Favourite<!-- --> · <!-- -->0`);
        expect(body).toContain('We use cookies');
        expect(res.body).toMatch(bootTag());
        expect(res.body).not.toContain(`<script type="module" src="${entry}"`);
        expect(res.body).not.toContain('modulepreload');
      });

      it('leaves the cookie banner out once the consent cookie holds a choice', async () => {
        const consent = encodeURIComponent(JSON.stringify({ necessary: true, analytics: false, marketing: false }));
        const body = bodyOf((await get(`/${slug}`, undefined, 'GET', `cookiePreferences=${consent}`)).body);
        expect(body).toContain('Request an Appointment');
        expect(body).not.toContain('We use cookies');
        expect(bodyOf((await get(`/${slug}`, undefined, 'GET', 'cookiePreferences=nonsense')).body)).toContain(
          'We use cookies',
        );
      });

      it("carries the theme's CSS variables in its style sheet, not in a <style> made by each render", async () => {
        const res = await get(`/${slug}`, undefined);
        expect(res.body).not.toContain('<style data-mantine-styles="true"');
        const sheets = [...res.body.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map((m) => m[1]!);
        expect(sheets.length).toBeGreaterThan(0);
        const css = (await Promise.all(sheets.map((f) => readFile(path.join(clientDir, f), 'utf8')))).join('');
        // The theme's own values (client/lib/theme.ts), where Mantine's defaults differ.
        expect(css).toContain('--mantine-cursor-type:pointer');
        expect(css).toContain('--mantine-primary-color-filled:var(--mantine-color-brand-filled)');
        expect(css).toContain('--mantine-color-dimmed:var(--mantine-color-gray-7)');
      });

      it('is rendered the same for a cookie that holds no session', async () => {
        const res = await get(`/${slug}`, undefined, 'GET', 'lastslot_session=anything');
        expect(res.statusCode).toBe(200);
        expect(bodyOf(res.body)).toContain('Request an Appointment');
      });

      it("says 'Business Not Found' with status 404 for a slug no business has", async () => {
        const res = await get('/no-such-business', undefined);
        expect(res.statusCode).toBe(404);
        expect(bodyOf(res.body)).toContain('Business Not Found');
      });

      it('answers 404 with the not-found screen for a path no route has', async () => {
        const res = await get('/no/such/page', undefined);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      });
    });

    it('never sends a .br file by its own name', async () => {
      expect((await get(`${entry}.br`, 'br')).statusCode).toBe(404);
    });

    describe('the landing page', () => {
      const landing = (cookie?: string, acceptEncoding?: string) => get('/', acceptEncoding, 'GET', cookie);

      it('holds the rendered page and the boot script for a visitor without a session, compressed', async () => {
        const res = await landing(undefined, 'br');
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe('br');
        const body = brotliDecompressSync(res.rawPayload).toString('utf8');
        expect(body).toContain('<title>Last-minute appointment booking | LastSlot</title>');
        // The headline's first phrase whole, the sections, the cookie banner (no choice saved).
        expect(body).toMatch(
          /Fill your<span class="typed-phrase-box">.*<span class="typed-phrase"[^>]*>cancelled appointments/,
        );
        expect(body).toContain('How it works');
        expect(body).toContain('We use cookies');
        expect(body).toMatch(bootTag());
      });

      it('leaves the cookie banner out once the consent cookie holds a choice', async () => {
        const consent = encodeURIComponent(JSON.stringify({ necessary: true, analytics: false, marketing: false }));
        const body = (await landing(`cookiePreferences=${consent}`)).body;
        expect(body).toContain('How it works');
        expect(body).not.toContain('We use cookies');
      });
    });

    it('answers a HEAD for a page as its GET, without the body', async () => {
      const getRes = await get(`/${slug}`, 'br');
      const headRes = await get(`/${slug}`, 'br', 'HEAD');
      expect(headRes.statusCode).toBe(200);
      expect(headRes.rawPayload.length).toBe(0);
      for (const name of ['content-type', 'content-encoding', 'etag', 'vary', 'cache-control'])
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
