import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
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
