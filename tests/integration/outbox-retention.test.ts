/**
 * Outbox retention (docs/decisions/0059): finished messages lose their bodies after 30 days and
 * are deleted after a year; pending ones are never touched, and an emailed unsubscribe link keeps
 * working as long as its row exists.
 */
import { eq, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailOutbox } from '../../server/db/schema/index';
import { dispatchOutboxOnce } from '../../server/email/dispatcher';
import { applyOutboxRetention } from '../../server/email/outbox';
import { callerFor, pendingRequest } from '../factories/index';
import { deliveringTransport, errorOf } from '../setup/helpers';
import { silentLogger, useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z');
const DAY = 24 * 60 * 60_000;
const t = useTestDeps(START);

const days = (n: number) => new Date(START.getTime() + n * DAY);

describe('outbox retention', () => {
  it('empties finished messages after 30 days, deletes them after a year, never touches pending ones', async () => {
    await t.deps.db.delete(emailOutbox);
    const { bookingId } = await pendingRequest(t.deps);
    // Send what is due, then leave one message pending (as a provider outage would).
    await dispatchOutboxOnce({
      db: t.deps.db,
      transport: deliveringTransport('ok', async () => 'id'),
      from: 'LastSlot <x@y.z>',
      logger: silentLogger,
      now: START,
    });
    const [received] = await t.deps.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `request_received:${bookingId}`));
    const token = (received!.props as { footer: { unsubscribeUrl: string } }).footer.unsubscribeUrl.split(
      '/unsubscribe/',
    )[1]!;
    await t.deps.db
      .update(emailOutbox)
      .set({ status: 'pending', sentAt: null })
      .where(eq(emailOutbox.dedupeKey, `booking_requested:${bookingId}`));
    const before = await t.deps.db.select().from(emailOutbox).orderBy(emailOutbox.id);
    expect(before.filter((m) => m.status === 'sent' && m.html !== '' && m.text !== '')).toHaveLength(1);

    expect(await applyOutboxRetention(t.deps.db, days(29))).toEqual({ emptied: 0, deleted: 0 });
    expect(await t.deps.db.select().from(emailOutbox).orderBy(emailOutbox.id)).toEqual(before);

    expect(await applyOutboxRetention(t.deps.db, days(31))).toEqual({ emptied: 1, deleted: 0 });
    const [emptied] = await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.id, received!.id));
    expect(emptied).toMatchObject({ html: '', text: '', props: null, attachments: null, status: 'sent' });
    expect(emptied!.subject).toBe(received!.subject);
    const pending = await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.status, 'pending'));
    expect(pending).toEqual(before.filter((m) => m.status === 'pending'));
    const anonymous = await callerFor(t.deps, null);
    expect(await anonymous.notifications.unsubscribeInfo({ token })).toMatchObject({ kind: 'request_received' });
    expect(await applyOutboxRetention(t.deps.db, days(32))).toEqual({ emptied: 0, deleted: 0 });

    expect(await applyOutboxRetention(t.deps.db, days(366))).toEqual({ emptied: 0, deleted: 1 });
    expect(await t.deps.db.select().from(emailOutbox).where(ne(emailOutbox.status, 'pending'))).toEqual([]);
    expect(await t.deps.db.select().from(emailOutbox)).toEqual(pending);
    expect((await errorOf(anonymous.notifications.unsubscribeInfo({ token }))).code).toBe('NOT_FOUND');
  });
});
