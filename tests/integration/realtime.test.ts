/**
 * Live updates survive a dropped database connection (docs/decisions/0002): when PostgreSQL
 * ends the LISTEN connection, the hub listens again and tells subscribers to resync, and later
 * changes are delivered. Needs PostgreSQL (PGlite has no connections to drop).
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { BookingEventHub, type BookingEvent, type Resync } from '../../server/realtime/booking-events';
import { createTestDatabase, silentLogger, type TestDatabase } from '../setup/test-database';

const onPostgres = Boolean(inject('pgAdminUrl'));
let tdb: TestDatabase;
let hub: BookingEventHub;

beforeAll(async () => {
  tdb = await createTestDatabase();
  hub = new BookingEventHub(tdb.database, silentLogger);
  await hub.start();
});
afterAll(async () => {
  await hub.stop();
  await tdb.close();
});

type HubEvent = BookingEvent | Resync;

/** A change of slot `slotId` of no real business. */
const slotEvent = (slotId: string): BookingEvent => ({ kind: 'slot', change: 'updated', slotId, businessId: 'none' });

/** Waits for the first received event matching `pred`, failing after `ms`. */
function waitFor(received: HubEvent[], pred: (e: HubEvent) => boolean, ms = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = setInterval(() => {
      if (received.some(pred)) {
        clearInterval(tick);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(tick);
        reject(new Error(`no matching event; got ${JSON.stringify(received)}`));
      }
    }, 50);
  });
}

describe('booking events', () => {
  it.skipIf(!onPostgres)('resync after the LISTEN connection is dropped, then keep delivering', async () => {
    const received: HubEvent[] = [];
    const controller = new AbortController();
    void (async () => {
      for await (const e of hub.subscribe((e) => e, controller.signal)) received.push(e);
    })();
    try {
      await hub.publish(slotEvent('before'));
      await waitFor(received, (e) => e.kind === 'slot' && e.slotId === 'before');

      const admin = postgres(inject('pgAdminUrl')!, { max: 1, onnotice: () => {} });
      const name = new URL(tdb.url!).pathname.slice(1);
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
      await admin.end();

      await waitFor(received, (e) => e.kind === 'resync');
      // The pool's own connections were dropped too: the first query may fail, later ones work.
      await hub.publish(slotEvent('after'));
      await hub.publish(slotEvent('after'));
      await waitFor(received, (e) => e.kind === 'slot' && e.slotId === 'after');
    } finally {
      controller.abort();
    }
  });
});
