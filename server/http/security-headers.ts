/** Helmet's security headers, worked out once per server rather than per request (docs/decisions/0057). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { DEFAULT_MAP_TILES, mapTileSource } from '../../shared/map-tiles';

/**
 * The headers `helmet(options)` sets, by lower-case name. Throws for invalid options, or for a directive
 * that reads the request: a fixed set cannot carry a per-request value.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a non-string value`);
      headers[name.toLowerCase()] = value;
    },
    // X-Powered-By: neither Node nor Fastify sets it.
    removeHeader() {},
  };
  const request = new Proxy({} as IncomingMessage, {
    get() {
      throw new Error('a security header depends on the request: it cannot be computed once');
    },
  });
  let failure: unknown;
  helmet(options)(request, response as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return Object.freeze(headers);
}

/**
 * The app's helmet options: a same-origin Content-Security-Policy that also allows the map tiles' host,
 * and HSTS when `secure`. Throws when `tileUrl` is no tile template.
 */
export function appHelmetOptions(secure: boolean, tileUrl: string = DEFAULT_MAP_TILES.url): HelmetOptions {
  const tiles = mapTileSource(tileUrl);
  if (tiles === null) throw new Error(`the map tile URL ${tileUrl} names no host images can be allowed from`);
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: secure ? [] : null,
      },
    },
    hsts: secure,
  };
}
