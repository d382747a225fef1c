import { describe, expect, it } from 'vitest';
import { etagMatches, pageIdentity, settleWithin, withScriptNonce } from './pages';

describe('pageIdentity', () => {
  it("leaves out the router's inline scripts and the nonce, and keeps everything else", () => {
    const page = (nonce: string, stamp: number) =>
      `<html><head><meta property="csp-nonce" content="${nonce}"/><script type="module" src="/a.js"></script></head>` +
      `<body><h1>Cuts</h1><script nonce="${nonce}" data-tsr-stream-part="">u:${stamp}</script>` +
      `<script nonce="${nonce}">x(${stamp})</script></body></html>`;
    expect(pageIdentity(page('n1', 1), 'n1')).toBe(pageIdentity(page('n2', 2), 'n2'));
    expect(pageIdentity(page('n1', 1), 'n1')).toContain('<h1>Cuts</h1>');
    expect(pageIdentity(page('n1', 1), 'n1')).toContain('src="/a.js"');
    expect(pageIdentity(page('n1', 1).replace('Cuts', 'Fade'), 'n1')).not.toBe(pageIdentity(page('n1', 1), 'n1'));
  });
});

describe('withScriptNonce', () => {
  it('adds the nonce to script-src only', () => {
    expect(withScriptNonce("default-src 'self';script-src 'self';style-src 'self'", 'abc')).toBe(
      "default-src 'self';script-src 'self' 'nonce-abc';style-src 'self'",
    );
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
