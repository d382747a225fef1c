/**
 * The dispatcher's side of booking notifications (docs/decisions/0050, 0053, 0054): rendered HTML
 * and text with the one-click unsubscribe headers and the .ics attachment, retries of a failing
 * provider without ever sending a message twice, reminders only when due and only for a booking
 * still confirmed, and the recipient's preferences.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailOutbox, notificationOptOuts } from '../../server/db/schema/index';
import { dispatchOutboxOnce, startOutboxDispatcher } from '../../server/email/dispatcher';
import { enqueueEmail } from '../../server/email/outbox';
import { passwordChangedEmail } from '../../server/email/templates';
import type { MailTransport, OutgoingEmail } from '../../server/email/transports';
import { pendingRequest, TEST_PASSWORD } from '../factories/index';
import { useTestDeps, silentLogger } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z');
const t = useTestDeps(START);

/** A transport that records what it sends and fails while `down` is true. */
function recordingTransport() {
  const sent: OutgoingEmail[] = [];
  const state = { down: false };
  const transport: MailTransport = {
    name: 'recording',
    async send(m) {
      if (state.down) throw new Error('provider down');
      sent.push(m);
      return `id-${sent.length}`;
    },
  };
  return { sent, state, transport };
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
  it('sends a message queued and kicked while it was sending, in the same run (not at the next interval)', async () => {
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
    const transport: MailTransport = {
      name: 'gated',
      async send(m) {
        if (m.to === 'first@example.test') {
          firstStarted();
          await firstHeld;
        }
        sent.push(m.to);
        if (m.to === 'second@example.test') secondSent();
        return `id-${sent.length}`;
      },
    };
    // The interval never fires within the test: only the kick can bring the second message.
    const dispatcher = startOutboxDispatcher({
      db,
      transport,
      from: 'x@y.z',
      logger: silentLogger,
      intervalMs: 3_600_000,
    });
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
