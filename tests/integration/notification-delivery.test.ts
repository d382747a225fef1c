/**
 * The dispatcher's side of booking notifications (docs/decisions/0050, 0053, 0054): rendered HTML
 * and text with the one-click unsubscribe headers and the .ics attachment, retries of a failing
 * provider without ever sending a message twice, reminders only when due and only for a booking
 * still confirmed, and the recipient's preferences.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { emailOutbox, notificationOptOuts } from '../../server/db/schema/index';
import { dispatchOutboxOnce, KICK_DELAY_MS, startOutboxDispatcher } from '../../server/email/dispatcher';
import { enqueueEmail } from '../../server/email/outbox';
import { passwordChangedEmail } from '../../server/email/templates';
import type { BatchEmail, MailTransport, OutgoingEmail } from '../../server/email/transports';
import { pendingRequest, TEST_PASSWORD } from '../factories/index';
import { useTestDeps, silentLogger } from '../setup/test-database';
import { deliveringTransport } from '../setup/helpers';

const START = new Date('2026-11-21T10:00:00Z');
const t = useTestDeps(START);

/**
 * A transport that records what it sends and each provider call (`single` for `send`, `batch` for
 * `sendBatch`, with the messages' subjects), refuses a whole call while `down` is true, and in a
 * batch refuses alone each message `refuse` names a reason for.
 */
function recordingTransport() {
  const sent: OutgoingEmail[] = [];
  const calls: { kind: 'single' | 'batch'; to: string[] }[] = [];
  const state: { down: boolean; refuse: (m: BatchEmail) => string | null } = { down: false, refuse: () => null };
  const transport: MailTransport = {
    name: 'recording',
    async send(m) {
      if (state.down) throw new Error('provider down');
      calls.push({ kind: 'single', to: [m.to] });
      sent.push(m);
      return `id-${sent.length}`;
    },
    async sendBatch(ms) {
      if (state.down) throw new Error('provider down');
      calls.push({ kind: 'batch', to: ms.map((m) => m.to) });
      return ms.map((m) => {
        const error = state.refuse(m);
        if (error) return { error };
        sent.push(m);
        return { id: `id-${sent.length}` };
      });
    },
  };
  return { sent, calls, state, transport };
}

/** Runs the dispatcher at `now` until nothing more is sent; returns how many were sent. */
async function drain(transport: MailTransport, now: Date) {
  let total = 0;
  for (;;) {
    const n = await dispatchOutboxOnce({
      db: t.deps.db,
      transport,
      from: 'LastSlot <x@y.z>',
      logger: silentLogger,
      now,
    });
    total += n;
    if (n === 0) return total;
  }
}

/** A running dispatcher whose interval never fires within a test: only its start and kicks run it. */
function kickedDispatcher(transport: MailTransport) {
  return startOutboxDispatcher({
    db: t.deps.db,
    transport,
    from: 'x@y.z',
    logger: silentLogger,
    intervalMs: 3_600_000,
  });
}

async function clearOutbox() {
  await t.deps.db.delete(emailOutbox);
}

describe('sending a notification', () => {
  it('renders HTML and text, attaches the .ics and adds the one-click unsubscribe headers', async () => {
    await clearOutbox();
    const { customer, business, bookingId } = await pendingRequest(t.deps);
    await business.bookings.confirm({ bookingId });
    const { sent, transport } = recordingTransport();
    expect(await drain(transport, START)).toBe(3); // request to both sides, confirmation (not the reminder)
    const confirmation = sent.find((m) => m.subject === 'Booking confirmed: Snip Studio')!;
    expect(confirmation.to).toBe(customer.email);
    expect(confirmation.html).toContain('<html');
    expect(confirmation.html).toContain('Snip Studio has confirmed your appointment.');
    expect(confirmation.text).toContain('Sunday, 22nd November 2026, 12:00 pm - 12:30 pm');
    expect(confirmation.attachments?.[0]?.filename).toBe('appointment.ics');
    expect(confirmation.headers?.['List-Unsubscribe']).toMatch(
      /^<http:\/\/localhost:3000\/unsubscribe\/[a-z0-9]{32}>$/,
    );
    expect(confirmation.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const [row] = await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.subject, confirmation.subject));
    expect(row).toMatchObject({ status: 'sent', html: confirmation.html, text: confirmation.text });
  });

  it('retries while the provider fails and sends each message exactly once, even with two dispatchers', async () => {
    await clearOutbox();
    await pendingRequest(t.deps);
    const { sent, state, transport } = recordingTransport();
    state.down = true;
    expect(await drain(transport, START)).toBe(0);
    const failed = await t.deps.db.select().from(emailOutbox);
    expect(failed.map((r) => [r.status, r.attempts, r.lastError])).toEqual([
      ['pending', 1, 'provider down'],
      ['pending', 1, 'provider down'],
    ]);
    state.down = false;
    expect(await drain(transport, START)).toBe(0); // not due again yet
    const later = new Date(START.getTime() + 60 * 60_000);
    const [a, b] = await Promise.all([drain(transport, later), drain(transport, later)]);
    expect(a + b).toBe(2);
    expect(await drain(transport, new Date(later.getTime() + 24 * 3600_000))).toBe(0);
    expect(sent.map((m) => m.subject).sort()).toEqual(['Booking request sent: Snip Studio', 'New booking request']);
  });
});

describe('reminders', () => {
  it('go out only from 2 hours before the start', async () => {
    await clearOutbox();
    const { business, bookingId } = await pendingRequest(t.deps);
    await business.bookings.confirm({ bookingId });
    const { sent, transport } = recordingTransport();
    await drain(transport, START);
    expect(sent.map((m) => m.subject)).not.toContain('Reminder: Fringe trim at Snip Studio');
    await drain(transport, new Date('2026-11-22T09:59:00Z'));
    expect(sent.map((m) => m.subject)).not.toContain('Reminder: Fringe trim at Snip Studio');
    await drain(transport, new Date('2026-11-22T10:00:00Z'));
    expect(sent.filter((m) => m.subject === 'Reminder: Fringe trim at Snip Studio')).toHaveLength(1);
  });

  it('are never sent for a booking cancelled before then', async () => {
    await clearOutbox();
    const { business, bookingId } = await pendingRequest(t.deps);
    await business.bookings.confirm({ bookingId });
    await business.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });
    const { sent, transport } = recordingTransport();
    await drain(transport, new Date('2026-11-22T10:30:00Z'));
    expect(sent.map((m) => m.subject)).not.toContain('Reminder: Fringe trim at Snip Studio');
    expect(sent.map((m) => m.subject)).toContain('Appointment cancelled: Snip Studio');
    const [reminder] = await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'booking_reminder'));
    expect(reminder).toMatchObject({ status: 'skipped', lastError: 'booking no longer active' });
  });
});

describe('preferences', () => {
  it('a kind the recipient turned off is skipped; the others still go', async () => {
    await clearOutbox();
    const { owner, customer, client, bookingId } = await pendingRequest(t.deps);
    await t.deps.db.insert(notificationOptOuts).values({ userId: owner.id, kind: 'booking_requested' });
    await client.bookings.cancel({ bookingId });
    const { sent, transport } = recordingTransport();
    await drain(transport, START);
    expect(sent.map((m) => [m.to, m.subject]).sort()).toEqual(
      [
        [customer.email, 'Booking request sent: Snip Studio'],
        [owner.email, 'Booking request withdrawn: Fringe trim'],
      ].sort(),
    );
    const [skipped] = await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'booking_requested'));
    expect(skipped).toMatchObject({ status: 'skipped', lastError: 'recipient opted out' });
  });

  it('account emails always go, whatever the preferences', async () => {
    await clearOutbox();
    const { customer, client } = await pendingRequest(t.deps);
    for (const kind of [
      'request_received',
      'booking_confirmed',
      'booking_declined',
      'booking_cancelled',
      'booking_reminder',
    ]) {
      await t.deps.db.insert(notificationOptOuts).values({ userId: customer.id, kind }).onConflictDoNothing();
    }
    await client.auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: 'another-long-password' });
    const { sent, transport } = recordingTransport();
    await drain(transport, START);
    expect(sent.filter((m) => m.to === customer.email).map((m) => m.subject)).toEqual([
      'Your LastSlot password was changed',
    ]);
  });
});

describe('the running dispatcher', () => {
  it('sends a message queued and kicked while it was sending without waiting for the next interval', async () => {
    await clearOutbox();
    const db = t.deps.db;
    await enqueueEmail(db, passwordChangedEmail('first@example.test', 'Ann', 'http://x/forgot-password'));
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((r) => (releaseFirst = r));
    let firstStarted!: () => void;
    const firstSending = new Promise<void>((r) => (firstStarted = r));
    let secondSent!: () => void;
    const secondDone = new Promise<void>((r) => (secondSent = r));
    const sent: string[] = [];
    const deliver = async (m: BatchEmail) => {
      if (m.to === 'first@example.test') {
        firstStarted();
        await firstHeld;
      }
      sent.push(m.to);
      if (m.to === 'second@example.test') secondSent();
      return `id-${sent.length}`;
    };
    const transport = deliveringTransport('gated', deliver);
    // Only the kick can bring the second message.
    const dispatcher = kickedDispatcher(transport);
    try {
      await firstSending;
      await enqueueEmail(db, passwordChangedEmail('second@example.test', 'Bob', 'http://x/forgot-password'));
      dispatcher.kick();
      releaseFirst();
      await secondDone;
    } finally {
      await dispatcher.stop();
    }
    expect(sent).toEqual(['first@example.test', 'second@example.test']);
    const rows = await db.select({ status: emailOutbox.status, attempts: emailOutbox.attempts }).from(emailOutbox);
    expect(rows).toEqual([
      { status: 'sent', attempts: 1 },
      { status: 'sent', attempts: 1 },
    ]);
  });
});

describe('batch sending', () => {
  const password = (to: string) => passwordChangedEmail(to, 'Ann', 'http://x/forgot-password');

  it('sends the messages without attachments in one provider call, each marked sent with its own id', async () => {
    await clearOutbox();
    const db = t.deps.db;
    for (const [i, to] of ['a@example.test', 'b@example.test', 'c@example.test'].entries()) {
      await enqueueEmail(db, password(to), new Date(START.getTime() - (3 - i) * 1000));
    }
    const { calls, transport } = recordingTransport();
    expect(await drain(transport, START)).toBe(3);
    expect(calls).toEqual([{ kind: 'batch', to: ['a@example.test', 'b@example.test', 'c@example.test'] }]);
    const rows = await db
      .select({ to: emailOutbox.toAddress, status: emailOutbox.status, id: emailOutbox.providerMessageId })
      .from(emailOutbox)
      .orderBy(emailOutbox.createdAt);
    expect(rows).toEqual([
      { to: 'a@example.test', status: 'sent', id: 'id-1' },
      { to: 'b@example.test', status: 'sent', id: 'id-2' },
      { to: 'c@example.test', status: 'sent', id: 'id-3' },
    ]);
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, 'b@example.test'));
    expect(row!.html).toContain('<html');
    expect(row!.text).toContain('password');
    expect(row!.sentAt).not.toBeNull();
  });

  it('takes the messages that have been due longest first, not the oldest: the pending index order', async () => {
    // Claiming in the order of email_outbox_pending_idx (status, next_attempt_at) lets a claim read
    // its batch off the index; ordering by age sorted the whole queue on every claim (ADR 0067).
    await clearOutbox();
    const db = t.deps.db;
    // The first message queued failed once; its retry came due 10 s ago. The second, queued after
    // it, has been due for 30 s.
    await enqueueEmail(db, password('retried@example.test'), new Date(START.getTime() - 60_000));
    await db
      .update(emailOutbox)
      .set({ attempts: 1, nextAttemptAt: new Date(START.getTime() - 10_000) })
      .where(eq(emailOutbox.toAddress, 'retried@example.test'));
    await enqueueEmail(db, password('waiting@example.test'), new Date(START.getTime() - 30_000));
    const { calls, transport } = recordingTransport();
    const once = () =>
      dispatchOutboxOnce({ db, transport, from: 'LastSlot <x@y.z>', logger: silentLogger, now: START, batch: 1 });
    expect(await once()).toBe(1);
    expect(await once()).toBe(1);
    expect(calls.map((c) => c.to)).toEqual([['waiting@example.test'], ['retried@example.test']]);
  });

  it('sends a message with an attachment alone, the others in one batch', async () => {
    await clearOutbox();
    const { customer, owner, business, bookingId } = await pendingRequest(t.deps);
    await business.bookings.confirm({ bookingId });
    const { sent, calls, transport } = recordingTransport();
    expect(await drain(transport, START)).toBe(3);
    expect(calls.filter((c) => c.kind === 'batch').map((c) => [...c.to].sort())).toEqual([
      [customer.email, owner.email].sort(),
    ]);
    expect(calls.filter((c) => c.kind === 'single')).toEqual([{ kind: 'single', to: [customer.email] }]);
    const confirmation = sent.find((m) => m.subject === 'Booking confirmed: Snip Studio')!;
    expect(confirmation.attachments?.[0]?.filename).toBe('appointment.ics');
    expect(sent.filter((m) => m !== confirmation).every((m) => !('attachments' in m) || !m.attachments)).toBe(true);
  });

  it('a partly refused batch marks the accepted messages sent and retries the refused one later', async () => {
    await clearOutbox();
    const db = t.deps.db;
    for (const [i, to] of ['a@example.test', 'b@example.test', 'c@example.test'].entries()) {
      await enqueueEmail(db, password(to), new Date(START.getTime() - (3 - i) * 1000));
    }
    const { sent, calls, state, transport } = recordingTransport();
    state.refuse = (m) => (m.to === 'b@example.test' ? 'The `to` field is invalid.' : null);
    expect(await drain(transport, START)).toBe(2);
    const rows = async () =>
      db
        .select({
          to: emailOutbox.toAddress,
          status: emailOutbox.status,
          attempts: emailOutbox.attempts,
          lastError: emailOutbox.lastError,
          id: emailOutbox.providerMessageId,
        })
        .from(emailOutbox)
        .orderBy(emailOutbox.createdAt);
    expect(await rows()).toEqual([
      { to: 'a@example.test', status: 'sent', attempts: 1, lastError: null, id: 'id-1' },
      { to: 'b@example.test', status: 'pending', attempts: 1, lastError: 'The `to` field is invalid.', id: null },
      { to: 'c@example.test', status: 'sent', attempts: 1, lastError: null, id: 'id-2' },
    ]);
    state.refuse = () => null;
    expect(await drain(transport, START)).toBe(0); // the refused one waits for its backoff
    expect(await drain(transport, new Date(START.getTime() + 60_000))).toBe(1);
    expect(calls.map((c) => c.to)).toEqual([
      ['a@example.test', 'b@example.test', 'c@example.test'],
      ['b@example.test'],
    ]);
    expect(sent.map((m) => m.to)).toEqual(['a@example.test', 'c@example.test', 'b@example.test']);
    expect((await rows())[1]).toEqual({
      to: 'b@example.test',
      status: 'sent',
      attempts: 2,
      lastError: null,
      id: 'id-3',
    });
  });

  it('a refused batch call leaves every message in it for a retry with backoff', async () => {
    await clearOutbox();
    const db = t.deps.db;
    await enqueueEmail(db, password('a@example.test'), START);
    await enqueueEmail(db, password('b@example.test'), START);
    const { sent, state, transport } = recordingTransport();
    state.down = true;
    expect(await drain(transport, START)).toBe(0);
    const rows = await db.select().from(emailOutbox);
    expect(rows.map((r) => [r.status, r.attempts, r.lastError, r.nextAttemptAt.getTime()])).toEqual([
      ['pending', 1, 'provider down', START.getTime() + 30_000],
      ['pending', 1, 'provider down', START.getTime() + 30_000],
    ]);
    state.down = false;
    expect(await drain(transport, new Date(START.getTime() + 30_000))).toBe(2);
    expect(sent.map((m) => m.to).sort()).toEqual(['a@example.test', 'b@example.test']);
  });

  it('a notification skipped for the preferences is never claimed nor sent, in the same pass as the others', async () => {
    await clearOutbox();
    const { owner, customer, bookingId } = await pendingRequest(t.deps);
    await t.deps.db.insert(notificationOptOuts).values({ userId: owner.id, kind: 'booking_requested' });
    const { sent, calls, transport } = recordingTransport();
    let taken = 0;
    const n = await dispatchOutboxOnce({
      db: t.deps.db,
      transport,
      from: 'LastSlot <x@y.z>',
      logger: silentLogger,
      now: START,
      onClaimed: (c) => (taken = c),
    });
    expect([n, taken]).toEqual([1, 2]);
    expect(calls).toEqual([{ kind: 'batch', to: [customer.email] }]);
    expect(sent.map((m) => m.to)).toEqual([customer.email]);
    const [skipped] = await t.deps.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `booking_requested:${bookingId}`));
    expect(skipped).toMatchObject({
      status: 'skipped',
      lastError: 'recipient opted out',
      attempts: 0,
      providerMessageId: null,
      sentAt: null,
      nextAttemptAt: START,
    });
    expect(await drain(transport, new Date(START.getTime() + 24 * 3600_000))).toBe(0);
    expect(sent).toHaveLength(1);
  });

  it('kicks within the delay share one run and one provider call', async () => {
    await clearOutbox();
    const db = t.deps.db;
    const { calls, transport } = recordingTransport();
    // The run that starts with the dispatcher sends this one and has claimed its last batch once
    // the call is seen: it cannot take the messages below.
    await enqueueEmail(db, password('first@example.test'));
    const dispatcher = kickedDispatcher(transport);
    try {
      await vi.waitFor(() => expect(calls).toHaveLength(1), { timeout: 5000 });
      await enqueueEmail(db, password('a@example.test'));
      dispatcher.kick();
      // The second change commits a moment later, well within the kick's delay.
      await new Promise((r) => setTimeout(r, KICK_DELAY_MS / 5));
      await enqueueEmail(db, password('b@example.test'));
      dispatcher.kick();
      await vi.waitFor(() => expect(calls.flatMap((c) => c.to)).toHaveLength(3), { timeout: 5000 });
    } finally {
      await dispatcher.stop();
    }
    expect(calls.map((c) => [...c.to].sort())).toEqual([['first@example.test'], ['a@example.test', 'b@example.test']]);
  });
});
