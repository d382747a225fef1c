/**
 * The built client is served with an SPA fallback: every page route (/, /login, a known /{slug})
 * gets index.html with 200, a page path nothing has gets it with 404 (docs/decisions/0047), to
 * any client that takes HTML (a browser, or a link previewer sending a wildcard or no Accept); unknown
 * API paths, and any path for a client that takes no HTML, stay a plain 404. A HEAD is answered
 * as its GET.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import type { BookingEventHub } from '../../server/realtime/booking-events';
import { createBusiness } from '../factories/index';
import { createTestDatabase, createTestDeps, silentLogger, type TestDatabase } from '../setup/test-database';

let tdb: TestDatabase;
let hub: Pick<BookingEventHub, 'stop'>;
let app: FastifyInstance;
let businessSlug: string;
let businessName: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lastslot-client-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>LastSlot</title>');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
  tdb = await createTestDatabase();
  ({ slug: businessSlug, businessName } = (await createBusiness(tdb.database.db)).profile);
  const made = await createTestDeps(tdb.database, () => new Date());
  hub = made.hub;
  app = await buildServer({ deps: made.deps, logger: silentLogger, clientDir: dir });
});
afterAll(async () => {
  await app.close();
  await hub.stop();
  await tdb.close();
});

const html = { accept: 'text/html,application/xhtml+xml' };

describe('client hosting', () => {
  it.each(['/login', '/dashboard'])('serves the app for %s', async (url) => {
    const res = await app.inject({ method: 'GET', url, headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>LastSlot</title>');
  });

  it('serves the app for /, titled as the landing page', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Last-minute appointment booking | LastSlot</title>');
  });

  it("serves the app for a business slug, titled with the business's name", async () => {
    const res = await app.inject({ method: 'GET', url: `/${businessSlug}`, headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<title>${businessName} | LastSlot</title>`);
  });

  it.each(['/no-such-business', '/a/b'])('serves the app with 404 for %s', async (url) => {
    const res = await app.inject({ method: 'GET', url, headers: html });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<title>LastSlot</title>');
  });

  it.each([
    ['/login', 200],
    ['a business slug', 200],
    ['/no-such-business', 404],
  ])('answers a HEAD for %s as its GET (%i), without the body', async (url, status) => {
    const target = url.startsWith('/') ? url : `/${businessSlug}`;
    const get = await app.inject({ method: 'GET', url: target, headers: html });
    const head = await app.inject({ method: 'HEAD', url: target, headers: html });
    expect([get.statusCode, head.statusCode]).toEqual([status, status]);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.body).toBe('');
  });

  it.each([
    ['*/*', { accept: '*/*' }],
    ['no Accept', {}],
  ])('serves a business page with 200 to a client sending %s (a link previewer, a monitor)', async (_, headers) => {
    const res = await app.inject({ method: 'GET', url: `/${businessSlug}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toMatch(/\baccept\b/);
    expect(res.body).toContain(`<title>${businessName} | LastSlot</title>`);
  });

  it('answers a client that takes no HTML with a plain 404, even for a business page', async () => {
    const res = await app.inject({ method: 'GET', url: `/${businessSlug}`, headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers.vary).toMatch(/\baccept\b/);
    expect(res.json()).toEqual({ error: 'Not Found' });
  });

  it('serves assets and 404s missing ones', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log(1)');
    expect((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('never answers an API path with the app', async () => {
    const res = await app.inject({ method: 'GET', url: '/trpc/nope.nothing', headers: html });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<title>');
  });

  it('sends security headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
