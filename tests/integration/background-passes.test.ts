/**
 * The passes a deployment needs once per instance (docs/decisions/0064): the billing sweep and the
 * housekeeping of expired rows run where the outbox is sent. A process started without a mail
 * worker beside it runs both, at once on start; an HTTP worker beside a mail worker runs neither;
 * and on PostgreSQL the real entry's mail worker runs them for its HTTP workers.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../server/core/env';
import type { Db } from '../../server/db/client';
import { businessProfiles, sessions } from '../../server/db/schema/index';
import { createSession } from '../../server/features/auth/session';
import { startRuntime } from '../../server/runtime';
import { createBusiness } from '../factories/index';
import { startServerProcess, waitUntil, type ServerProcess } from '../setup/server-process';
import { createTestDatabase, silentLogger, type TestDatabase } from '../setup/test-database';

const DAY_MS = 86_400_000;

/**
 * A business whose Discover listing is out of step with billing (off: every business is listed) and
 * an expired session of its owner: what the billing sweep and the housekeeping each put right.
 */
async function workForThePasses(db: Db) {
  const { user } = await createBusiness(db);
  await db.update(businessProfiles).set({ billingListed: false }).where(eq(businessProfiles.id, user.id));
  await createSession(db, user.id, new Date());
  await db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - DAY_MS) })
    .where(eq(sessions.userId, user.id));
  return {
    listed: async () =>
      (
        await db
          .select({ listed: businessProfiles.billingListed })
          .from(businessProfiles)
          .where(eq(businessProfiles.id, user.id))
      )[0]!.listed,
    sessions: async () =>
      (await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))).length,
  };
}

describe('startRuntime', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    await tdb?.close();
  });

  /** Starts and closes a runtime on the test database (closing waits for the passes under way). */
  async function startAndClose(remoteMailer: boolean) {
    const database = { ...tdb.database, close: async () => {} };
    const runtime = await startRuntime(loadEnv({}), silentLogger, database, { migrate: false, remoteMailer });
    await runtime.close();
  }

  it('beside a mail worker runs no billing sweep and no housekeeping', async () => {
    const work = await workForThePasses(tdb.database.db);
    await startAndClose(true);
    expect(await work.listed()).toBe(false);
    expect(await work.sessions()).toBe(1);
  });

  it('without a mail worker runs the billing sweep and the housekeeping as it starts', async () => {
    const work = await workForThePasses(tdb.database.db);
    await startAndClose(false);
    expect(await work.listed()).toBe(true);
    expect(await work.sessions()).toBe(0);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the mail worker on PostgreSQL', () => {
  let tdb: TestDatabase;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    await tdb?.close();
  });

  it("runs the billing sweep and the housekeeping for the instance's HTTP workers", async () => {
    tdb = await createTestDatabase();
    const work = await workForThePasses(tdb.database.db);
    server = await startServerProcess({ DATABASE_URL: tdb.url!, WEB_CONCURRENCY: '2', LOG_LEVEL: 'warn' });
    await waitUntil(async () => (await work.listed()) && (await work.sessions()) === 0, {
      timeoutMs: 30_000,
      message: () => `the passes did not run:\n${server!.output()}`,
    });
    expect(server.logs.filter((l) => /sweep|housekeeping/.test(String(l.msg)))).toEqual([]);
  }, 240_000);
});
