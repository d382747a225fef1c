/**
 * The page route (server/http/pages.ts) around a render: every GET path that no file or API route
 * has goes to the client's render with the status it decides (here a stand-in render module in a
 * stand-in build, so this suite needs no client build; the real render is tested against a real
 * build in production-build.test.ts), to any client that takes HTML (a browser, or a link previewer
 * sending a wildcard or no Accept); unknown API paths, and any path for a client that takes no
 * HTML, stay a plain 404. A HEAD is answered as its GET.
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

/** A render that titles each page by its path, and answers 404 for what is not one of `pages`. */
const RENDER = (pages: Record<string, string>) => `
const pages = ${JSON.stringify(pages)};
export async function renderPage({ request }) {
  const title = pages[new URL(request.url).pathname];
  return new Response(
    '<!DOCTYPE html><html><head><title>' + (title ?? 'LastSlot') + '</title></head><body>page</body></html>',
    { status: title ? 200 : 404, headers: { 'content-type': 'text/html; charset=utf-8' } },
  );
}
`;

let tdb: TestDatabase;
let hub: Pick<BookingEventHub, 'stop'>;
let app: FastifyInstance;
let businessSlug: string;
let businessName: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  ({ slug: businessSlug, businessName } = (await createBusiness(tdb.database.db)).profile);
  const dir = mkdtempSync(path.join(tmpdir(), 'lastslot-build-'));
  const clientDir = path.join(dir, 'client');
  mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
  mkdirSync(path.join(clientDir, '.vite'));
  writeFileSync(path.join(clientDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(
    path.join(clientDir, '.vite', 'manifest.json'),
    JSON.stringify({
      'entry-client.tsx': { file: 'assets/app.js', css: [] },
      'boot.ts': { file: 'assets/boot.js' },
    }),
  );
  mkdirSync(path.join(dir, 'ssr'));
  writeFileSync(
    path.join(dir, 'ssr', 'entry-server.js'),
    RENDER({
      '/': 'Last-minute appointment booking | LastSlot',
      '/login': 'LastSlot',
      '/dashboard': 'LastSlot',
      [`/${businessSlug}`]: `${businessName} | LastSlot`,
    }),
  );
  const made = await createTestDeps(tdb.database, () => new Date());
  hub = made.hub;
  app = await buildServer({ deps: made.deps, logger: silentLogger, clientDir, renderDir: path.join(dir, 'ssr') });
});
afterAll(async () => {
  await app.close();
  await hub.stop();
  await tdb.close();
});

const html = { accept: 'text/html,application/xhtml+xml' };

describe('pages', () => {
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
