import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createPageCompressor, pickPageEncoding } from './compressed-pages';

describe('pickPageEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip', 'gzip'],
    ['*', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('reads %j as %s', (header, expected) => {
    expect(pickPageEncoding(header)).toBe(expected);
  });
});

describe('createPageCompressor', () => {
  const body = `<!doctype html><title>LastSlot</title>${'<p>slot</p>'.repeat(200)}`;

  it('compresses with the asked coding', () => {
    const compress = createPageCompressor();
    expect(brotliDecompressSync(compress(body, 'br', 'a')).toString('utf8')).toBe(body);
    expect(gunzipSync(compress(body, 'gzip', 'a')).toString('utf8')).toBe(body);
    expect(compress(body, 'br', 'a').length).toBeLessThan(body.length / 10);
  });

  it('compresses a body once per key and coding while it fits', () => {
    const compress = createPageCompressor();
    const first = compress(body, 'br', 'a');
    expect(compress(body, 'br', 'a')).toBe(first);
    expect(compress(body, 'br', 'b')).not.toBe(first);
    const tiny = createPageCompressor(1);
    expect(tiny(body, 'br', 'a')).not.toBe(tiny(body, 'br', 'a'));
  });
});
