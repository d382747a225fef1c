import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assetTags,
  buildAssets,
  CDN_FRESH_SECONDS,
  CDN_STALE_SECONDS,
  etagMatches,
  pageEncoding,
  pageIdentity,
  settleWithin,
  visitorCacheControl,
  withInlineScriptHashes,
} from './pages';

describe('pageIdentity', () => {
  it('leaves out the inline scripts, and keeps everything else', () => {
    const page = (stamp: number) =>
      `<html><head><script type="module" src="/a.js"></script></head>` +
      `<body><h1>Cuts</h1><script data-tsr-stream-part="">u:${stamp}</script>` +
      `<script>x(${stamp})</script></body></html>`;
    expect(pageIdentity(page(1))).toBe(pageIdentity(page(2)));
    expect(pageIdentity(page(1))).toContain('<h1>Cuts</h1>');
    expect(pageIdentity(page(1))).toContain('<script type="module" src="/a.js"></script>');
    expect(pageIdentity(page(1)).replace('Cuts', 'Fade')).not.toBe(pageIdentity(page(1)));
  });
});

describe('withInlineScriptHashes', () => {
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  it("adds each inline script's hash to script-src only, once each, and no script with a src", () => {
    const html =
      '<head><script type="module" src="/a.js"></script><script type="module">import "/b";</script></head>' +
      '<body><script data-tsr-stream-part="">a=1</script><script>b()\n</script><script>a=1</script></body>';
    expect(withInlineScriptHashes("default-src 'self';script-src 'self';style-src 'self'", html)).toBe(
      `default-src 'self';script-src 'self' ${sha('import "/b";')} ${sha('a=1')} ${sha('b()\n')};style-src 'self'`,
    );
  });

  it('leaves a policy unchanged for a page with no inline script', () => {
    expect(withInlineScriptHashes("script-src 'self'", '<script src="/a.js"></script>')).toBe("script-src 'self'");
  });
});

describe('pageEncoding', () => {
  it('prefers br, then gzip, and sends identity when the client takes neither or says nothing', () => {
    expect(pageEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pageEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(pageEncoding('deflate')).toBe('identity');
    expect(pageEncoding(undefined)).toBe('identity');
  });
});

describe('visitorCacheControl', () => {
  it('lets shared caches keep a page at most CDN_FRESH_SECONDS, and never past its expiry here', () => {
    expect(visitorCacheControl(60)).toBe(
      `public, max-age=0, s-maxage=${CDN_FRESH_SECONDS}, stale-while-revalidate=${CDN_STALE_SECONDS}`,
    );
    expect(visitorCacheControl(3.9)).toContain('s-maxage=3,');
    expect(visitorCacheControl(-1)).toContain('s-maxage=0,');
  });
});

describe('etagMatches', () => {
  it('compares weakly and takes a list or *', () => {
    expect(etagMatches('"a", W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"a"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});

describe('settleWithin', () => {
  it('tells a fulfilled, a rejected and a late promise apart, and handles the late one failing', async () => {
    expect(await settleWithin(Promise.resolve(1), 50)).toEqual({ outcome: 'fulfilled' });
    const err = new Error('read failed');
    expect(await settleWithin(Promise.reject(err), 50)).toEqual({ outcome: 'rejected', err });
    let fail!: (reason: Error) => void;
    const late = new Promise((_resolve, reject) => (fail = reject));
    expect(await settleWithin(late, 20)).toEqual({ outcome: 'timedOut' });
    // A rejection after the limit is handled: no unhandled rejection fails the run.
    fail(err);
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});

describe('assetTags', () => {
  /** A client build's manifest, as Vite writes it, of an entry, its boot script and two split routes. */
  const MANIFEST = {
    'entry-client.tsx': { file: 'assets/app-1.js', css: ['assets/app-1.css'], imports: ['_shared-1.js'] },
    'boot.ts': { file: 'assets/boot-1.js', imports: ['_shared-1.js'] },
    '_shared-1.js': { file: 'assets/shared-1.js' },
    '_Input-1.js': { file: 'assets/Input-1.js', css: ['assets/Input-1.css'], imports: ['entry-client.tsx'] },
    '_Radio-1.js': {
      file: 'assets/Radio-1.js',
      css: ['assets/Radio-1.css'],
      imports: ['_Input-1.js', 'entry-client.tsx'],
    },
    '_password-1.js': { file: 'assets/password-1.js', css: ['assets/password-1.css'], imports: ['entry-client.tsx'] },
    '_map-1.js': { file: 'assets/map-1.js', css: ['assets/map-1.css'] },
    'routes/register.tsx?tsr-split=component': {
      file: 'assets/register-1.js',
      css: ['assets/register-1.css'],
      imports: ['entry-client.tsx', '_Radio-1.js', '_Input-1.js', '_password-1.js'],
      dynamicImports: ['_map-1.js'],
      isDynamicEntry: true,
    },
    'routes/register.tsx?tsr-split=errorComponent': {
      file: 'assets/register-error-1.js',
      imports: ['entry-client.tsx', '_Input-1.js'],
    },
    'routes/login.tsx?tsr-split=component': {
      file: 'assets/login-1.js',
      imports: ['entry-client.tsx', '_password-1.js'],
    },
  };
  const withManifest = <T>(use: (clientDir: string) => T): T => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lastslot-manifest-'));
    try {
      mkdirSync(path.join(dir, '.vite'));
      writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
      return use(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const sheets = (tags: string) => [...tags.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);

  it("links the entry's sheets, then those of the matched routes' chunks, imports first, each once", () => {
    const assets = withManifest(buildAssets);
    const tags = assetTags(assets, false, ['routes/__root.tsx', 'routes/register.tsx']);
    expect(sheets(tags)).toEqual([
      '/assets/app-1.css',
      // Vite's loader's order: a chunk's imports' sheets before its own. Not the dynamic import's.
      '/assets/Input-1.css',
      '/assets/Radio-1.css',
      '/assets/password-1.css',
      '/assets/register-1.css',
    ]);
    expect(tags).toMatch(/<\/script>$/);
    expect(tags).not.toContain('modulepreload');
    expect(sheets(assetTags(assets, false, ['routes/login.tsx', 'routes/register.tsx']))).toEqual([
      '/assets/app-1.css',
      '/assets/password-1.css',
      '/assets/Input-1.css',
      '/assets/Radio-1.css',
      '/assets/register-1.css',
    ]);
  });

  it("links only the entry's sheets for routes whose code is in the entry, or no route", () => {
    const assets = withManifest(buildAssets);
    expect(sheets(assetTags(assets, true, ['routes/__root.tsx', 'routes/$slug.tsx']))).toEqual(['/assets/app-1.css']);
    expect(sheets(assetTags(assets, false))).toEqual(['/assets/app-1.css']);
    expect(assetTags(assets, true, ['routes/index.tsx'])).toContain(
      '<script type="module" src="/assets/boot-1.js" data-app-entry="/assets/app-1.js"></script>',
    );
  });
});
