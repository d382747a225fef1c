/**
 * Pages and who views them, through the real render (Vite's development server, no client build):
 * a page's ETag is its viewer's alone (docs/decisions/0092), so a customer sending another's ETag gets
 * the whole page, never a 304 that would keep the other's page; answers vary by Cookie. And the
 * calls a page's render makes count against its client's limits like the browser's own: a render of
 * /discover is one search, and a render over the limit says so in words, never a 500.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { createSession, SESSION_COOKIE } from '../../server/features/auth/session';
import { MSG } from '../../shared/messages';
import { createUser } from '../factories/index';
import { silentLogger, useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

/** The app's searches a minute here: few, so the test reaches the limit. */
const SEARCHES_PER_MINUTE = 3;

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildServer({
    deps: t.deps,
    logger: silentLogger,
    pages: 'vite',
    searchesPerMinute: SEARCHES_PER_MINUTE,
  });
}, 120_000);
afterAll(async () => {
  await app?.close();
});

/** A signed-in customer's session cookie; every customer here has the same name. */
async function customerCookie(email: string): Promise<string> {
  const user = await createUser(t.deps.db, { role: 'customer', name: 'Sam Taylor', email });
  const { token } = await createSession(t.deps.db, user.id, t.deps.now());
  return `${SESSION_COOKIE}=${token}`;
}

const getPage = (url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'GET', url, remoteAddress, headers: { accept: 'text/html', ...headers } });

describe("a page's ETag", () => {
  it("is its viewer's: another customer sending it gets the whole page, the same customer a 304", async () => {
    // Two customers of the same name: the pages' markup can be the same, their inline state is not.
    const first = await customerCookie('sam.first@example.test');
    const second = await customerCookie('sam.second@example.test');
    for (const path of ['/discover', '/contact', '/dashboard']) {
      const mine = await getPage(path, { cookie: first });
      expect([path, mine.statusCode]).toEqual([path, 200]);
      expect(mine.body).toContain('sam.first@example.test');
      const etag = String(mine.headers.etag);
      expect(etag).toMatch(/^".+"$/);
      expect(String(mine.headers.vary).split(/,\s*/)).toEqual(
        expect.arrayContaining(['accept', 'accept-encoding', 'cookie']),
      );

      const theirs = await getPage(path, { cookie: second, 'if-none-match': etag });
      expect([path, theirs.statusCode]).toEqual([path, 200]);
      expect(theirs.body).toContain('sam.second@example.test');
      expect(theirs.body).not.toContain('sam.first@example.test');

      const again = await getPage(path, { cookie: first, 'if-none-match': etag });
      expect([path, again.statusCode]).toEqual([path, 304]);
    }
  }, 60_000);
});

describe("a page render's calls", () => {
  it('count against the limits of the API calls they make: a render of /discover is one search', async () => {
    const client = '198.51.100.23';
    const search = encodeURIComponent(
      JSON.stringify({ json: { window: 'today', latitude: 53.8, longitude: -1.55, miles: 5 } }),
    );
    const apiSearch = () =>
      app.inject({ method: 'GET', url: `/trpc/discovery.search?input=${search}`, remoteAddress: client });
    // A render with no search in its address searches nothing.
    expect((await getPage('/discover', {}, client)).statusCode).toBe(200);
    expect((await getPage('/discover?lat=53.8&lng=-1.55', {}, client)).statusCode).toBe(200);
    for (let i = 1; i < SEARCHES_PER_MINUTE; i++) expect((await apiSearch()).statusCode).toBe(200);
    const refused = await apiSearch();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { json: { message: MSG.tooManyRequests } } });
    // A render over the limit: the page, saying so in words.
    const page = await getPage('/discover?lat=53.8&lng=-1.55', {}, client);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('made too many requests');
    // Another client's allowance is its own.
    expect((await getPage('/discover?lat=53.8&lng=-1.55', {}, '198.51.100.24')).body).not.toContain(
      'made too many requests',
    );
  }, 60_000);
});
