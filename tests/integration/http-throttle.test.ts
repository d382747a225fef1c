/**
 * Throttling over real HTTP (docs/decisions/0008, 0092): the per-IP limits on mutation calls, Discover
 * searches and live streams answer 429 in tRPC's own error shape, which real tRPC clients (batched
 * and single requests) read as a TRPCClientError with its text, and leave other queries alone; they
 * count procedure calls after routing, so no spelling of a path or batch steps round them, and an
 * API path spelled any other way than the canonical one is refused before tRPC; the login
 * throttle's IP follows X-Forwarded-For only when TRUST_PROXY says so.
 */
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustProxy } from '../../server/core/env';
import type { AppRouter } from '../../server/trpc/router';
import { MSG } from '../../shared/messages';
import { browserClient, startTestServer, type TestServer } from '../setup/http';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-21T10:00:00Z'));
let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await createTestDatabase();
});

afterAll(async () => {
  await tdb.close();
});

/** Runs `body` against a fresh server (its own in-memory request counts) with `options`. */
async function withServer(
  options: {
    mutationsPerMinute?: number;
    searchesPerMinute?: number;
    liveStreamsPerClient?: number;
    trustProxy?: TrustProxy;
  },
  body: (server: TestServer) => Promise<void>,
): Promise<void> {
  const server = await startTestServer(tdb.database, clock.now, options);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

async function clientErrorOf(p: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  const err = await p.then(
    () => {
      throw new Error('expected failure');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCClientError);
  return err as TRPCClientError<AppRouter>;
}

describe('mutation rate limit', () => {
  it('answers the call over the limit with a tRPC error the batching client reads', async () => {
    await withServer({ mutationsPerMinute: 3 }, async ({ url }) => {
      const { client } = browserClient(url);
      for (let i = 0; i < 3; i++) await expect(client.auth.logout.mutate()).resolves.toEqual({ ok: true });
      const err = await clientErrorOf(client.auth.logout.mutate());
      expect(err.message).toBe(MSG.tooManyRequests);
      expect(err.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429, path: 'auth.logout' });
      // Queries (GET) are not limited.
      await expect(client.auth.me.query()).resolves.toMatchObject({ user: null, authState: 'unregistered' });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    });
  });

  it('is read the same by a client without batching, and counts per IP address', async () => {
    await withServer({ mutationsPerMinute: 2 }, async ({ url }) => {
      const first = browserClient(url, { batch: false });
      await first.client.auth.logout.mutate();
      await first.client.auth.logout.mutate();
      const err = await clientErrorOf(first.client.auth.logout.mutate());
      expect(err.message).toBe(MSG.tooManyRequests);
      expect(err.data?.code).toBe('TOO_MANY_REQUESTS');
      // Another client from the same address is over the limit too.
      const second = browserClient(url, { batch: false });
      expect((await clientErrorOf(second.client.auth.logout.mutate())).message).toBe(MSG.tooManyRequests);
    });
  });

  it('sends one superjson-wrapped error per call of a batch, with Retry-After', async () => {
    await withServer({ mutationsPerMinute: 1 }, async ({ url }) => {
      const post = (path: string) =>
        fetch(`${url}/trpc/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url },
          body: JSON.stringify({ 0: { json: null }, 1: { json: null } }),
        });
      await browserClient(url).client.auth.logout.mutate();
      const res = await post('auth.logout,auth.logout?batch=1');
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const entry = (path: string) => ({
        error: {
          json: {
            message: MSG.tooManyRequests,
            code: -32029,
            data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path },
          },
        },
      });
      expect(await res.json()).toEqual([entry('auth.logout'), entry('auth.logout')]);
      const single = await fetch(`${url}/trpc/auth.logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ json: null }),
      });
      expect([single.status, await single.json()]).toEqual([429, entry('auth.logout')]);
    });
  });
});

/** A Discover search near Leeds, as the page sends it. */
const SEARCH = { window: 'today', latitude: 53.8, longitude: -1.55, miles: 5 } as const;

/** superjson-wrapped query input of SEARCH, alone. */
const searchInput = encodeURIComponent(JSON.stringify({ json: SEARCH }));

/** superjson-wrapped query input of `calls` calls of SEARCH, batched. */
const searchBatchInput = (calls: number) =>
  encodeURIComponent(
    JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { json: SEARCH }]))),
  );

/** `calls` discovery.search paths joined by `joiner`. */
const searchPaths = (calls: number, joiner = ',') => Array(calls).fill('discovery.search').join(joiner);

/** The TOO_MANY_REQUESTS entry tRPC sends for a refused call at `path`. */
const tooMany = (path: string) => ({
  error: {
    json: { message: MSG.tooManyRequests, code: -32029, data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path } },
  },
});

describe('limits count procedure calls after routing', () => {
  /** Every other spelling of `path` (a tRPC path with a procedure `a.b`, or two joined by `,`). */
  const otherSpellings = (path: string) =>
    [
      `/%74rpc/${path}`,
      `/trpc/${path.replaceAll('.', '%2E')}`,
      `/trpc/${path.replaceAll(',', '%2C')}`,
      `/trpc/%${path.charCodeAt(0).toString(16)}${path.slice(1)}`,
    ].filter((spelling) => spelling !== `/trpc/${path}`);

  it('refuses an API path spelled any other way with the generic 400, before tRPC, never stored; plain paths stay limited', async () => {
    await withServer({ mutationsPerMinute: 2, searchesPerMinute: 2 }, async ({ url }) => {
      const post = (path: string) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url },
          body: '{}',
        });
      const spellings = [
        ...otherSpellings('auth.logout'),
        ...otherSpellings('auth.logout,auth.logout').map((p) => `${p}?batch=1`),
      ];
      for (const path of spellings) {
        for (let i = 0; i < 3; i++) {
          const res = await post(path);
          expect([path, res.status, await res.json()]).toEqual([path, 400, { error: MSG.badRequest }]);
          expect([path, res.headers.get('cache-control')]).toEqual([path, 'no-store']);
        }
      }
      // The plain path: its own allowance, whole, then the refusal.
      const { client } = browserClient(url, { batch: false });
      for (let i = 0; i < 2; i++) await expect(client.auth.logout.mutate()).resolves.toEqual({ ok: true });
      expect((await clientErrorOf(client.auth.logout.mutate())).message).toBe(MSG.tooManyRequests);
      const searches = [
        ...otherSpellings('discovery.search').map((p) => `${p}?input=${searchInput}`),
        ...otherSpellings(searchPaths(2)).map((p) => `${p}?batch=1&input=${searchBatchInput(2)}`),
      ];
      for (const path of searches) {
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${url}${path}`);
          expect([path, res.status, await res.json()]).toEqual([path, 400, { error: MSG.badRequest }]);
          expect([path, res.headers.get('cache-control')]).toEqual([path, 'no-store']);
        }
      }
      for (let i = 0; i < 2; i++) await expect(client.discovery.search.query(SEARCH)).resolves.toBeDefined();
      expect((await clientErrorOf(client.discovery.search.query(SEARCH))).message).toBe(MSG.tooManyRequests);
    });
  });

  it('counts each search of a batch once, however many, and answers each call over the limit on its own', async () => {
    await withServer({ searchesPerMinute: 4 }, async ({ url }) => {
      const batch = await fetch(`${url}/trpc/${searchPaths(3)}?batch=1&input=${searchBatchInput(3)}`);
      expect(batch.status).toBe(200);
      expect(batch.headers.get('cache-control')).toBe('no-store');
      // The fourth search is the last allowed: two more in one batch, one answered and one refused.
      const over = await fetch(`${url}/trpc/${searchPaths(2)}?batch=1&input=${searchBatchInput(2)}`);
      const [allowed, refused] = (await over.json()) as unknown[];
      expect(allowed).toMatchObject({ result: { data: { json: { results: expect.any(Array) } } } });
      expect(refused).toEqual(tooMany('discovery.search'));
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.headers.get('cache-control')).toBe('no-store');
      // Other queries go on.
      await expect(browserClient(url).client.auth.me.query()).resolves.toMatchObject({ user: null });
    });
  });

  it('counts each mutation of a batch once, and every tRPC answer is no-store', async () => {
    await withServer({ mutationsPerMinute: 3 }, async ({ url }) => {
      const post = (calls: number) =>
        fetch(`${url}/trpc/${Array(calls).fill('auth.logout').join(',')}?batch=1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url },
          body: '{}',
        });
      const first = await post(2);
      expect([first.status, first.headers.get('cache-control')]).toEqual([200, 'no-store']);
      const second = await post(2);
      expect(second.headers.get('cache-control')).toBe('no-store');
      expect(((await second.json()) as unknown[])[1]).toEqual(tooMany('auth.logout'));
      const unknown = await fetch(`${url}/trpc/no.such`);
      expect([unknown.status, unknown.headers.get('cache-control')]).toEqual([404, 'no-store']);
    });
  });
});

describe('live streams per client IP', () => {
  /** Opens discovery.onChange as the browser does (SSE); resolves once its answer's head has come. */
  const openStream = (url: string) => {
    const controller = new AbortController();
    const response = fetch(`${url}/trpc/discovery.onChange`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    return { response, close: () => controller.abort() };
  };

  it('refuses a stream over the cap with 429 in words, and takes one again once another has closed', async () => {
    await withServer({ liveStreamsPerClient: 2 }, async ({ url }) => {
      const streams = [openStream(url), openStream(url)];
      for (const s of streams) expect((await s.response).status).toBe(200);
      const over = await fetch(`${url}/trpc/discovery.onChange`, { headers: { accept: 'text/event-stream' } });
      expect(over.status).toBe(429);
      expect(over.headers.get('cache-control')).toBe('no-store');
      expect(await over.text()).toContain(MSG.tooManyRequests);
      streams[0]!.close();
      // The closed stream's place is given back once the server has seen it go.
      let reopened: ReturnType<typeof openStream> | undefined;
      for (let attempt = 0; attempt < 100 && !reopened; attempt++) {
        const s = openStream(url);
        if ((await s.response).status === 200) reopened = s;
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(reopened).toBeDefined();
      reopened?.close();
      streams[1]!.close();
    });
  });
});

describe('client address of the login throttle', () => {
  /** 20 failed logins for 20 different emails, all from `headers`' client. */
  async function failTwentyLogins(url: string, forwardedFor: string) {
    const { client } = browserClient(url, { headers: { 'x-forwarded-for': forwardedFor } });
    for (let i = 0; i < 20; i++) {
      const err = await clientErrorOf(
        client.auth.login.mutate({ email: `ip-${forwardedFor}-${i}@example.test`, password: 'wrong-password' }),
      );
      expect(err.message).toBe(MSG.loginInvalid);
    }
  }

  const loginAs = (url: string, forwardedFor: string) =>
    clientErrorOf(
      browserClient(url, { headers: { 'x-forwarded-for': forwardedFor } }).client.auth.login.mutate({
        email: `fresh-${forwardedFor}@example.test`,
        password: 'wrong-password',
      }),
    );

  it('follows X-Forwarded-For when TRUST_PROXY is on', async () => {
    await withServer({ trustProxy: true }, async ({ url }) => {
      await failTwentyLogins(url, '203.0.113.7');
      expect((await loginAs(url, '203.0.113.7')).message).toBe(MSG.tooManyAttempts);
      expect((await loginAs(url, '198.51.100.9')).message).toBe(MSG.loginInvalid);
    });
  });

  it('ignores X-Forwarded-For by default: the connection address counts', async () => {
    await withServer({}, async ({ url }) => {
      await failTwentyLogins(url, '192.0.2.1');
      expect((await loginAs(url, '192.0.2.2')).message).toBe(MSG.tooManyAttempts);
    });
  });
});

describe('email limit over HTTP', () => {
  it('reaches the client with its toast title', async () => {
    await withServer({}, async ({ url }) => {
      const { client } = browserClient(url);
      await client.auth.requestPasswordReset.mutate({ email: 'http-limit@example.test' });
      const err = await clientErrorOf(client.auth.requestPasswordReset.mutate({ email: 'http-limit@example.test' }));
      expect(err.message).toBe(MSG.emailLimitWait);
      expect(err.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429, title: MSG.emailLimitTitle });
    });
  });
});
