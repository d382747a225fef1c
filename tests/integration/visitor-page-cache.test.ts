/**
 * The visitor page cache (docs/decisions/0106) through the real render (Vite's development server):
 * a visitor without a session is answered from it with the same bytes and no render, per content
 * coding and consent cookie; a session cookie, a query string or an unknown slug never use it; a
 * change drops it (in the writing instance at once, in another instance on PostgreSQL when the NOTIFY
 * arrives); it expires at the next slot start and at most a minute after its render; and every page's
 * Content-Security-Policy allows exactly its inline scripts by hash (docs/decisions/0107).
 */
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import { createSession, SESSION_COOKIE } from '../../server/features/auth/session';
import { VISITOR_PAGE_TTL_MS } from '../../server/http/visitor-page-cache';
import { CONSENT_KEY } from '../../shared/consent';
import { businessProfileForm, callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { startAppInstance, type AppInstance } from '../setup/http';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-21T10:00:00Z')); // Saturday 10:00 in London (GMT)
const onPostgres = Boolean(inject('pgAdminUrl'));

type Instance = AppInstance;

const startInstance = (database: Database) => startAppInstance(database, clock.now, { pages: 'vite' });

let tdb: TestDatabase;
let secondDatabase: Database | null = null;
let A: Instance;
/** On PostgreSQL only: another process's app, with its own pool, hub and LISTEN. */
let B: Instance | null = null;

beforeAll(async () => {
  tdb = await createTestDatabase();
  A = await startInstance(tdb.database);
  if (tdb.url) {
    secondDatabase = await openDatabase({ url: tdb.url, max: 2 });
    B = await startInstance(secondDatabase);
  }
}, 180_000);
afterAll(async () => {
  await A?.stop();
  await B?.stop();
  await secondDatabase?.close();
  await tdb?.close();
});

/** A GET of `url` as a browser navigating there: HTML, gzip unless `headers` say otherwise. */
function visit(instance: Instance, url: string, headers: Record<string, string> = {}) {
  return instance.app.inject({
    method: 'GET',
    url,
    headers: { accept: 'text/html', 'accept-encoding': 'gzip', ...headers },
  });
}

/** The page's HTML, decoded from its content coding. */
function htmlOf(res: LightMyRequestResponse): string {
  const coding = res.headers['content-encoding'];
  const body = res.rawPayload;
  return (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body).toString();
}

/** Pages `instance` has rendered since the last call for it. */
function renders(instance: Instance): () => number {
  let seen = instance.deps.visitorPages.renders;
  return () => {
    const now = instance.deps.visitorPages.renders;
    const count = now - seen;
    seen = now;
    return count;
  };
}

/** A business with one slot, 'Sunday noon' (tomorrow 12:00). */
async function business(name: string) {
  const { user, profile } = await createBusiness(A.deps.db, { name });
  await createSlot(A.deps.db, user.id, {
    date: '2026-11-22',
    startTime: '12:00',
    endTime: '12:30',
    description: 'Sunday noon',
  });
  return { owner: user, slug: profile.slug, path: `/${profile.slug}` };
}

describe('a visitor without a session', () => {
  it('gets the same bytes again without a render, a 304 without one, and headers a CDN may keep', async () => {
    const { path } = await business('Same Bytes');
    const rendered = renders(A);
    const first = await visit(A, path);
    expect(first.statusCode).toBe(200);
    expect(htmlOf(first)).toContain('Sunday noon');
    expect(rendered()).toBe(1);
    const second = await visit(A, path);
    expect(rendered()).toBe(0);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    for (const header of ['etag', 'content-security-policy', 'content-encoding', 'content-type', 'vary'])
      expect([header, second.headers[header]]).toEqual([header, first.headers[header]]);
    expect(second.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(String(second.headers.vary).split(/,\s*/)).toContain('cookie');

    const revalidated = await visit(A, path, { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
    expect(rendered()).toBe(0);
  });

  it('is answered per content coding: each coding is rendered once, then served as kept', async () => {
    const { path } = await business('Codings');
    const rendered = renders(A);
    const firsts = new Map<string, Buffer>();
    for (const [acceptEncoding, coding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const res = await visit(A, path, { 'accept-encoding': acceptEncoding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(htmlOf(res)).toContain('Sunday noon');
      firsts.set(acceptEncoding, res.rawPayload);
    }
    expect(rendered()).toBe(3);
    for (const [acceptEncoding, body] of firsts)
      expect((await visit(A, path, { 'accept-encoding': acceptEncoding })).rawPayload.equals(body)).toBe(true);
    expect(rendered()).toBe(0);
  });

  it('is answered per consent choice (made or not), and the landing page is kept too', async () => {
    const { path } = await business('Consent');
    const rendered = renders(A);
    const consent = `${CONSENT_KEY}=${encodeURIComponent('{"necessary":true,"analytics":false,"marketing":false}')}`;
    await visit(A, path);
    await visit(A, path, { cookie: consent });
    expect(rendered()).toBe(2);
    await visit(A, path, { cookie: consent });
    await visit(A, path);
    expect(rendered()).toBe(0);
    // Kept by what the page shows, not the value sent: another choice, or a made-up value (no
    // choice: the banner), reads the page already kept.
    const other = `${CONSENT_KEY}=${encodeURIComponent('{"necessary":true,"analytics":true,"marketing":true}')}`;
    await visit(A, path, { cookie: other });
    for (let i = 0; i < 3; i++) await visit(A, path, { cookie: `${CONSENT_KEY}=made-up-${i}` });
    expect(rendered()).toBe(0);
    await visit(A, '/');
    await visit(A, '/');
    expect(rendered()).toBe(1);
  });

  it('is rendered each time with a query string, and for an unknown slug (404)', async () => {
    const { path } = await business('Query');
    await visit(A, path);
    const rendered = renders(A);
    for (let i = 0; i < 2; i++) {
      const res = await visit(A, `${path}?utm_source=newsletter`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect((await visit(A, '/no-such-business-here')).statusCode).toBe(404);
    }
    expect(rendered()).toBe(4);
  });
});

describe('a request with a session cookie', () => {
  it("never reads or writes the cache: each is rendered, and its page is its viewer's", async () => {
    const { path } = await business('Signed In');
    const customer = await createUser(A.deps.db, { role: 'customer', name: 'Robin Vale', email: 'robin@example.test' });
    const { token } = await createSession(A.deps.db, customer.id, clock.now());
    const rendered = renders(A);
    const anonymous = await visit(A, path);
    expect(rendered()).toBe(1);
    for (const cookie of [`${SESSION_COOKIE}=${token}`, `${SESSION_COOKIE}=no-such-session`]) {
      for (let i = 0; i < 2; i++) {
        const res = await visit(A, path, { cookie });
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-cache');
        expect(res.rawPayload.equals(anonymous.rawPayload)).toBe(false);
      }
    }
    expect(rendered()).toBe(4);
    // The visitor's page was neither replaced nor dropped.
    expect((await visit(A, path)).rawPayload.equals(anonymous.rawPayload)).toBe(true);
    expect(rendered()).toBe(0);
    // Only GET and HEAD are pages.
    expect((await A.app.inject({ method: 'POST', url: path, headers: { accept: 'text/html' } })).statusCode).toBe(404);
  });
});

describe('a kept page leaves', () => {
  it('when a slot is added or the profile edited, on the next request', async () => {
    const { owner, slug, path } = await business('Changes');
    await visit(A, path);
    const rendered = renders(A);
    const caller = await callerFor(A.deps, owner.id);
    await caller.slots.create({ date: '2026-11-22', startTime: '15:00', endTime: '15:30', description: 'Added' });
    expect(htmlOf(await visit(A, path))).toContain('Added');
    expect(rendered()).toBe(1);
    await caller.settings.updateBusinessProfile(businessProfileForm(slug, 'Changed Name'));
    expect(htmlOf(await visit(A, path))).toContain('Changed Name');
    expect(rendered()).toBe(1);
  });

  it('when its next slot starts, and a minute after its render at the latest', async () => {
    const { owner, path } = await business('Soon');
    await createSlot(A.deps.db, owner.id, {
      date: '2026-11-21',
      startTime: '10:01',
      endTime: '10:30',
      description: 'This morning',
    });
    const start = clock.now();
    try {
      const rendered = renders(A);
      expect(htmlOf(await visit(A, path))).toContain('This morning');
      clock.advance(59_000); // 10:00:59: kept
      expect(htmlOf(await visit(A, path))).toContain('This morning');
      expect(rendered()).toBe(1);
      clock.advance(1_000); // 10:01: the slot has started
      expect(htmlOf(await visit(A, path))).not.toContain('This morning');
      expect(rendered()).toBe(1);
      // Now only Sunday noon: a minute at most.
      clock.advance(VISITOR_PAGE_TTL_MS - 1);
      await visit(A, path);
      expect(rendered()).toBe(0);
      clock.advance(1);
      await visit(A, path);
      expect(rendered()).toBe(1);
    } finally {
      clock.set(start);
    }
  });

  it.skipIf(!onPostgres)(
    'in another instance, on its next request after the NOTIFY of a change made through the first (PostgreSQL only: PGlite serves one process)',
    async () => {
      const other = B!;
      const { owner, path } = await business('Two Instances');
      const rendered = renders(other);
      const kept = await visit(other, path);
      expect((await visit(other, path)).rawPayload.equals(kept.rawPayload)).toBe(true);
      expect(rendered()).toBe(1);
      const heard = new Promise<void>((resolve) => {
        const stop = other.deps.hub.observe((change) => {
          if (change.kind !== 'resync' && change.businessId === owner.id) {
            stop();
            resolve();
          }
        });
      });
      const caller = await callerFor(A.deps, owner.id);
      await caller.slots.create({ date: '2026-11-22', startTime: '16:00', endTime: '16:30', description: 'Elsewhere' });
      await heard;
      expect(htmlOf(await visit(other, path))).toContain('Elsewhere');
      expect(rendered()).toBe(1);
    },
  );
});

describe("a page's Content-Security-Policy", () => {
  it('allows each of its inline scripts by hash, with no nonce and no unsafe-inline', async () => {
    const { path } = await business('Policy');
    const customer = await createUser(A.deps.db, { role: 'customer', email: 'policy@example.test' });
    const { token } = await createSession(A.deps.db, customer.id, clock.now());
    for (const [url, headers] of [
      [path, {}],
      ['/', {}],
      [path, { cookie: `${SESSION_COOKIE}=${token}` }],
    ] as const) {
      const res = await visit(A, url, headers);
      const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))![1]!;
      expect(scriptSrc).not.toContain("'nonce-");
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      const inline = [...htmlOf(res).matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
        .filter(([, attributes]) => !/\bsrc=/.test(attributes!))
        .map(([, , text]) => text!);
      expect(inline.length).toBeGreaterThan(0);
      const allowed = new Set(scriptSrc.split(' ').filter((source) => source.startsWith("'sha256-")));
      const hashes = new Set(inline.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`));
      expect(allowed).toEqual(hashes);
    }
  });
});
