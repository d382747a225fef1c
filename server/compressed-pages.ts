/**
 * Compressed answers for the app shell's page responses (docs/decisions/0055). The built client's
 * files are compressed at build time (vite.config.ts) and sent by @fastify/static; the page HTML
 * is made per request (the public page's data is in it), so it is compressed here, once per
 * distinct body and encoding: the compressed bytes are kept in a small per-process LRU keyed by
 * the body's ETag, so the QR-scan path pays a hash look-up, not a compression, until the page's
 * data changes.
 */
import { negotiate } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The content codings the page answers may use, best first. */
export type PageEncoding = 'br' | 'gzip';
const PAGE_ENCODINGS: PageEncoding[] = ['br', 'gzip'];

/** Brotli quality for per-request HTML: 4 is within a few % of 11's size at a small fraction of its CPU. */
const BROTLI_QUALITY = 4;
/** At most this many bytes of compressed pages are kept per process (a demo page is about 1.3 KB). */
const CACHE_BYTES = 4 * 1024 * 1024;

/**
 * The coding to answer with for a request's `Accept-Encoding` header: 'br' or 'gzip' by the
 * client's q-values (ties: br), undefined for identity (no header, `identity`, or both refused
 * with q=0). '*' counts as gzip, as @fastify/static reads it.
 */
export function pickPageEncoding(acceptEncoding: string | string[] | undefined): PageEncoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  if (!header) return undefined;
  return negotiate(header.toLowerCase().replace(/\*/g, 'gzip'), PAGE_ENCODINGS) ?? undefined;
}

/**
 * A compressor for page bodies: `(body, encoding, key)` gives `body` (UTF-8) compressed with
 * `encoding`; `key` names the body (its ETag), and the result is reused for the same key and
 * encoding while it stays in the LRU. Synchronous: a page is a few KB, cheaper to compress in
 * place than to hand to the thread pool.
 */
export function createPageCompressor(maxBytes = CACHE_BYTES) {
  const cache = new LRUCache<string, Buffer>({ maxSize: maxBytes, sizeCalculation: (b) => b.length || 1 });
  return (body: string, encoding: PageEncoding, key: string): Buffer => {
    const cacheKey = `${encoding} ${key}`;
    const hit = cache.get(cacheKey);
    if (hit) return hit;
    const input = Buffer.from(body, 'utf8');
    const out =
      encoding === 'br'
        ? brotliCompressSync(input, {
            params: {
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: input.length,
            },
          })
        : gzipSync(input, { level: 6 });
    cache.set(cacheKey, out);
    return out;
  };
}
