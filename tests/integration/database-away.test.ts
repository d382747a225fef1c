/**
 * The database away (docs/decisions/0102): the app's queries go through postgres.js to a port where
 * nothing listens, so every statement fails with the driver's real refused connection, wrapped by
 * drizzle as in production. A tRPC query, a mutation, a signed-in call (its session read fails) and a
 * plain route answer 503 with Retry-After and the generic "try again" text, never 500, and the
 * server logs a warning, not an error. A page is its shell (docs/decisions/0088), never a 500
 * (rendered by Vite's development server: no client build needed).
 */
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../server/core/errors';
import { openDatabase, type Database } from '../../server/db/client';
import { createDbThrottle } from '../../server/features/auth/throttle';
import { VisitorPageCache } from '../../server/http/visitor-page-cache';
import { PublicPageCache } from '../../server/features/businesses/public-page-cache';
import { SESSION_COOKIE } from '../../server/features/auth/session';
import { createLogger } from '../../server/logger';
import { MSG } from '../../shared/messages';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));
const ORIGIN = 'http://localhost:3000';

let away: Database;
let app: FastifyInstance;
let pagesApp: FastifyInstance;
const lines: string[] = [];

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  const port = await new Promise<number>((resolve) =>
    probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
  );
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  away = await openDatabase({ url: `postgres://lastslot@127.0.0.1:${await closedPort()}/lastslot`, max: 1 });
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('info', false, sink);
  const deps = {
    ...t.deps,
    db: away.db,
    throttle: createDbThrottle(away.db),
    publicPages: new PublicPageCache(away.db),
    visitorPages: new VisitorPageCache(),
    logger,
  };
  app = await buildServer({ deps, logger, clientDir: '/nonexistent' });
  pagesApp = await buildServer({ deps, logger, pages: 'vite' });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await pagesApp?.close();
  await away?.close();
});

const input = (value: unknown) => encodeURIComponent(JSON.stringify(superjson.serialize(value)));

/** The tRPC error of a non-batched answer. */
const trpcError = (body: string) =>
  (JSON.parse(body) as { error: { json: { message: string; data: { code: string; httpStatus: number } } } }).error.json;

function expectUnavailable(res: Awaited<ReturnType<FastifyInstance['inject']>>) {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
}

describe('while the database is away', () => {
  it('a query answers 503 with Retry-After and the generic text', async () => {
    const res = await app.inject({ method: 'GET', url: `/trpc/auth.checkSlug?input=${input({ slug: 'wren-cuts' })}` });
    expectUnavailable(res);
    expect(trpcError(res.body)).toMatchObject({
      message: MSG.generic,
      data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 },
    });
  });

  it('a mutation answers 503 with Retry-After and the generic text', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      payload: JSON.stringify(superjson.serialize({ email: 'wren@example.com', password: 'correct horse' })),
    });
    expectUnavailable(res);
    expect(trpcError(res.body)).toMatchObject({
      message: MSG.generic,
      data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 },
    });
  });

  it("a signed-in call whose session can't be read answers 503, each call of a batch too", async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/trpc/auth.me,auth.me?batch=1&input=${encodeURIComponent('{}')}`,
      headers: { cookie: `${SESSION_COOKIE}=${'a'.repeat(40)}` },
    });
    expectUnavailable(res);
    const answers = JSON.parse(res.body) as { error: { json: { message: string; data: { code: string } } } }[];
    expect(answers.map((a) => [a.error.json.data.code, a.error.json.message])).toEqual([
      ['SERVICE_UNAVAILABLE', MSG.generic],
      ['SERVICE_UNAVAILABLE', MSG.generic],
    ]);
  });

  it('a plain route answers 503 with Retry-After and the generic text', async () => {
    const res = await app.inject({ method: 'GET', url: `/calendar/${'a'.repeat(32)}.ics` });
    expectUnavailable(res);
    expect(res.json()).toEqual({ error: MSG.generic });
  });

  it('a page comes as the shell the browser fills in (its queries retry the 503), never a 500', async () => {
    const headers = { accept: 'text/html', cookie: `${SESSION_COOKIE}=${'a'.repeat(40)}` };
    for (const url of ['/', '/wren-cuts', '/dashboard']) {
      const res = await pagesApp.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).not.toMatch(/ECONNREFUSED|postgres/i);
    }
  }, 60_000);

  it('logs each failure as a warning, never as an error', async () => {
    const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(entries.filter((e) => e.level >= 50)).toEqual([]);
    expect(
      entries.filter((e) => e.level === 40 && /database is unavailable/.test(e.msg)).length,
    ).toBeGreaterThanOrEqual(4);
  });
});
