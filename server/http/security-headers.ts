/**
 * The security headers of every response, as helmet sets them, worked out once per server instead
 * of once per request (docs/decisions/0057): @fastify/helmet built a new helmet middleware, and so
 * parsed the Content-Security-Policy again, for every request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { DEFAULT_MAP_TILES, mapTileSource } from '../../shared/map-tiles';

/**
 * The headers `helmet(options)` sets on a response, by lower-case name, in the order it sets them.
 * Throws when the options are invalid (helmet's own error) or a Content-Security-Policy directive
 * given as a function reads the request (a fixed set cannot carry a per-request value).
 */
export function securityHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a non-string value`);
      headers[name.toLowerCase()] = value;
    },
    // X-Powered-By: Node never sets it and Fastify neither, so there is nothing to remove.
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
 * The app's helmet options: a Content-Security-Policy of our own origin only (inline styles allowed,
 * images and fonts also from data: URLs, images also from the host of the maps' `tileUrl` template,
 * no framing), and over https (`secure`, as the session cookie's Secure flag) HSTS and
 * upgrade-insecure-requests. Throws when `tileUrl` is no tile template (`mapTileSource`).
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
