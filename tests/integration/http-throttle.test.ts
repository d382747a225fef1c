/**
 * Throttling over real HTTP (docs/decisions/0008): the coarse per-IP mutation limit
 * (@fastify/rate-limit) answers 429 in tRPC's own error shape, which real tRPC clients (batched
 * and single requests) read as a TRPCClientError with its text, and leaves queries alone;
 * the login throttle's IP follows X-Forwarded-For only when TRUST_PROXY says so.
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
  options: { mutationsPerMinute?: number; trustProxy?: TrustProxy },
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
