import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { describe, expect, it } from 'vitest';
import { appHelmetOptions, securityHeaders } from './security-headers';

/** What helmet's own middleware sets on a real response with `options`, by lower-case name. */
function helmetOnARealResponse(options: HelmetOptions): Record<string, unknown> {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  res.setHeader('X-Powered-By', 'something');
  helmet(options)(req, res, (err?: unknown) => {
    if (err) throw err;
  });
  return res.getHeaders();
}

describe('securityHeaders', () => {
  it.each([true, false])("are exactly the headers helmet's middleware sets (https: %s)", (secure) => {
    const { 'x-powered-by': poweredBy, ...expected } = helmetOnARealResponse(appHelmetOptions(secure));
    expect(poweredBy).toBeUndefined();
    expect(securityHeaders(appHelmetOptions(secure))).toEqual(expected);
  });

  it('sends HSTS and upgrade-insecure-requests only over https', () => {
    const secure = securityHeaders(appHelmetOptions(true));
    const plain = securityHeaders(appHelmetOptions(false));
    expect(secure['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(secure['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(plain['strict-transport-security']).toBeUndefined();
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(plain['content-security-policy']).toContain("default-src 'self'");
    expect(plain['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it("allows map images from the tile template's host, and no other", () => {
    const osm = securityHeaders(appHelmetOptions(false))['content-security-policy'];
    expect(osm).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;");
    const own = securityHeaders(appHelmetOptions(false, 'https://{s}.tiles.example.com/{z}/{x}/{y}.png'));
    expect(own['content-security-policy']).toContain("img-src 'self' data: blob: https://*.tiles.example.com;");
    const local = securityHeaders(appHelmetOptions(false, '/tiles/{z}/{x}/{y}.png'));
    expect(local['content-security-policy']).toContain("img-src 'self' data: blob:;");
    expect(() => appHelmetOptions(false, 'https://tiles.example.com/tile.png')).toThrow();
  });

  it('refuses a policy that depends on the request', () => {
    const perRequest: HelmetOptions = {
      contentSecurityPolicy: { directives: { scriptSrc: ["'self'", (req) => String(req.headers.host)] } },
    };
    expect(() => securityHeaders(perRequest)).toThrow();
  });
});
