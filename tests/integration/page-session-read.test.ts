/**
 * A page's render waits a bounded time for the request's session (RENDER_SESSION_READ_LIMIT_MS,
 * docs/decisions/0088): when the read is slower, the page comes at once as the shell, without any
 * auth.me answer, for the browser to ask itself; a read in time puts the answer in the page. The
 * real render through Vite's development server (no client build needed); the read is held up by
 * a transaction of the test's own that keeps the sessions table locked.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { createSession, SESSION_COOKIE } from '../../server/features/auth/session';
import { RENDER_SESSION_READ_LIMIT_MS } from '../../server/http/pages';
import { createUser } from '../factories/index';
import { silentLogger, useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

/** What the page carries when it comes with the server's auth.me answer: its query key. */
const AUTH_ME_KEY = '["auth","me"]';

let app: FastifyInstance;
let cookie = '';
const name = 'Wren Slowread';

beforeAll(async () => {
  app = await buildServer({ deps: t.deps, logger: silentLogger, pages: 'vite' });
  const user = await createUser(t.deps.db, { role: 'customer', name });
  const { token } = await createSession(t.deps.db, user.id, t.deps.now());
  cookie = `${SESSION_COOKIE}=${token}`;
}, 120_000);
afterAll(async () => {
  await app?.close();
});

const getPage = (url: string) => app.inject({ method: 'GET', url, headers: { accept: 'text/html', cookie } });
const getDashboard = () => getPage('/dashboard');

/**
 * Runs `during` while a transaction of the test's own holds the sessions table locked for `holdMs`
 * (ms); resolves with what `during` gave and whether the lock was still held when it settled.
 */
async function whileSessionsLocked<T>(holdMs: number, during: () => Promise<T>) {
  let released = false;
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const holding = t.deps.db.transaction(async (tx) => {
    await tx.execute(sql`lock table sessions in access exclusive mode`);
    locked();
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    // The lock ends with the transaction, now.
    released = true;
  });
  await lockTaken;
  const result = await during();
  const heldThroughout = !released;
  await holding;
  return { result, heldThroughout };
}

describe("a page's session read", () => {
  it('comes with the auth.me answer when the session is read in time', async () => {
    const res = await getDashboard();
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(AUTH_ME_KEY);
    expect(res.body).toContain(name);
  }, 60_000);

  it('comes before the read ends, as the shell without the auth.me answer', async () => {
    const { result: res, heldThroughout } = await whileSessionsLocked(
      RENDER_SESSION_READ_LIMIT_MS + 2_000,
      getDashboard,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(AUTH_ME_KEY);
    expect(res.body).not.toContain(name);
    expect(res.body).toContain('Loading dashboard...');
    // It did not wait for the read.
    expect(heldThroughout).toBe(true);
  }, 60_000);

  it("loads the app at once on a page whose app would wait for the first interaction: the app renders the page's routes", async () => {
    const { result: res } = await whileSessionsLocked(RENDER_SESSION_READ_LIMIT_MS + 1_000, () => getPage('/'));
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(AUTH_ME_KEY);
    expect(res.body).toContain('<script type="module" src="/entry-client.tsx">');
    expect(res.body).not.toContain('src="/boot.ts"');
  }, 60_000);
});
