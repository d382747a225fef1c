/**
 * Private answers and the Origin rule over HTTP (docs/decisions/0032): every /trpc answer carries
 * `Cache-Control: no-store` (queries, mutations, batches, errors, the SSE stream), and in production
 * a mutation's Origin must be exactly APP_URL's origin; the request's own Host header is trusted
 * only outside production. Every answer carries helmet's security headers (docs/decisions/0057).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { appHelmetOptions, securityHeaders } from '../../server/http/security-headers';
import type { BookingEventHub } from '../../server/realtime/booking-events';
import type { AppDeps } from '../../server/trpc/context';
import { createBusiness, createUser, TEST_PASSWORD } from '../factories/index';
import { createTestDatabase, createTestDeps, silentLogger, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-21T10:00:00Z'));
let tdb: TestDatabase;
let hub: Pick<BookingEventHub, 'stop'>;
let deps: AppDeps;
let production: FastifyInstance;
let development: FastifyInstance;
let productionUrl: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  ({ deps, hub } = await createTestDeps(tdb.database, clock.now));
  // appOrigin is http://localhost:3000 (APP_URL); the servers listen elsewhere.
  production = await buildServer({ deps: { ...deps, isProduction: true }, logger: silentLogger, clientDir: '/x' });
  development = await buildServer({ deps, logger: silentLogger, clientDir: '/x' });
  await production.listen({ host: '127.0.0.1', port: 0 });
  const address = production.server.address();
  productionUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await production.close();
  await development.close();
  await hub.stop();
  await tdb.close();
});

const APP_ORIGIN = 'http://localhost:3000';

/** A login mutation with the given Origin and Host headers, through `app` (wrong password by default). */
function login(
  app: FastifyInstance,
  headers: Record<string, string>,
  email = 'nobody@example.test',
  password = 'wrong-password',
) {
  return app.inject({
    method: 'POST',
    url: '/trpc/auth.login',
    headers: { 'content-type': 'application/json', ...headers },
    payload: { json: { email, password } },
  });
}

describe('Cache-Control: no-store on every /trpc answer', () => {
  it('on queries, batches, mutations and errors, signed in or not', async () => {
    const user = await createUser(deps.db, { role: 'customer' });
    const signIn = await production.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { 'content-type': 'application/json', origin: APP_ORIGIN },
      payload: { json: { email: user.email, password: TEST_PASSWORD } },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.headers['cache-control']).toBe('no-store');
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const me = await production.inject({ method: 'GET', url: '/trpc/auth.me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.body).toContain(user.email);
    expect(me.headers['cache-control']).toBe('no-store');
    const batch = await production.inject({
      method: 'GET',
      url: `/trpc/auth.me,settings.customer?batch=1&input=${encodeURIComponent('{}')}`,
      headers: { cookie },
    });
    expect(batch.headers['cache-control']).toBe('no-store');
    const refused = await production.inject({ method: 'GET', url: '/trpc/settings.customer' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('on the SSE stream of a subscription', async () => {
    const user = await createUser(deps.db, { role: 'customer' });
    const signIn = await login(production, { origin: APP_ORIGIN }, user.email, TEST_PASSWORD);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const controller = new AbortController();
    const res = await fetch(`${productionUrl}/trpc/bookings.onChange`, {
      headers: { accept: 'text/event-stream', cookie },
      signal: controller.signal,
    });
    try {
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    } finally {
      controller.abort();
    }
  });
});

describe('Origin of a mutation', () => {
  it('in production, must be exactly APP_URL’s origin: the Host header is not trusted', async () => {
    expect((await login(production, { origin: APP_ORIGIN })).statusCode).toBe(401);
    for (const [origin, host] of [
      ['http://127.0.0.1:4000', '127.0.0.1:4000'],
      ['https://evil.example', 'evil.example'],
      ['http://localhost:3001', 'localhost:3001'],
    ] as const) {
      const res = await login(production, { origin, host });
      expect([origin, res.statusCode]).toEqual([origin, 403]);
    }
  });

  it('outside production, also accepts an Origin matching the request’s own Host (dev proxy, 127.0.0.1)', async () => {
    expect((await login(development, { origin: APP_ORIGIN })).statusCode).toBe(401);
    expect((await login(development, { origin: 'http://127.0.0.1:4000', host: '127.0.0.1:4000' })).statusCode).toBe(
      401,
    );
    expect((await login(development, { origin: 'https://evil.example', host: 'localhost:3000' })).statusCode).toBe(403);
  });
});

describe('security headers', () => {
  it("are helmet's on every kind of answer, https ones only over https", async () => {
    const { profile } = await createBusiness(deps.db);
    const page = encodeURIComponent(JSON.stringify({ 0: { json: { slug: profile.slug } } }));
    const requests = [
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/trpc/auth.me' },
      // Answered from the public page cache before tRPC runs (docs/decisions/0046).
      { method: 'GET', url: `/trpc/businesses.bySlug?batch=1&input=${page}` },
      { method: 'GET', url: '/trpc/no.such' },
      { method: 'POST', url: '/trpc/auth.login', headers: { origin: 'https://evil.example' }, payload: {} },
      { method: 'GET', url: '/no-such-file.js' },
    ] as const;
    const https = await buildServer({ deps: { ...deps, secureCookies: true }, logger: silentLogger, clientDir: '/x' });
    try {
      for (const [app, secure] of [
        [development, false],
        [https, true],
      ] as const) {
        const expected = securityHeaders(appHelmetOptions(secure));
        expect(Object.keys(expected).length).toBeGreaterThan(8);
        for (const request of requests) {
          const res = await app.inject(request);
          const sent = Object.fromEntries(Object.keys(expected).map((name) => [name, res.headers[name]]));
          expect([request.url, res.statusCode, sent]).toEqual([request.url, res.statusCode, expected]);
        }
        expect((await app.inject(requests[2])).statusCode).toBe(200);
      }
    } finally {
      await https.close();
    }
  });
});
