/**
 * Notification preferences and the one-click unsubscribe (docs/decisions/0054): switches per
 * kind for the signed-in user's role, and the emailed link that turns one kind off without a
 * login, by RFC 8058 POST or through the page's tRPC call.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { emailOutbox, notificationOptOuts } from '../../server/db/schema/index';
import { callerFor, pendingRequest } from '../factories/index';
import { errorOf } from '../setup/helpers';
import { silentLogger, useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildServer({ deps: t.deps, logger: silentLogger, clientDir: '/nonexistent' });
});
afterAll(async () => app.close());

/** The unsubscribe token in the footer of the `kind` notification about `bookingId`. */
async function tokenOf(kind: string, bookingId: string) {
  const [row] = await t.deps.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.dedupeKey, `${kind}:${bookingId}`));
  const url = (row!.props as { footer: { unsubscribeUrl: string } }).footer.unsubscribeUrl;
  return url.split('/unsubscribe/')[1]!;
}

async function optedOut(userId: string, kind: string) {
  const rows = await t.deps.db
    .select()
    .from(notificationOptOuts)
    .where(and(eq(notificationOptOuts.userId, userId), eq(notificationOptOuts.kind, kind)));
  return rows.length === 1;
}

describe('one-click unsubscribe (no login)', () => {
  it('a POST to the List-Unsubscribe URL turns that kind off for its recipient, idempotently', async () => {
    const { owner, bookingId } = await pendingRequest(t.deps);
    const token = await tokenOf('booking_requested', bookingId);
    const post = () =>
      app.inject({
        method: 'POST',
        url: `/unsubscribe/${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
    const res = await post();
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('Unsubscribed: New booking requests.');
    expect(await optedOut(owner.id, 'booking_requested')).toBe(true);
    expect(await optedOut(owner.id, 'request_withdrawn')).toBe(false);
    expect((await post()).statusCode).toBe(200);
    const multipart = await app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}`,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    expect(multipart.statusCode).toBe(200);
  });

  it('an unknown or malformed token is 404 and changes nothing', async () => {
    for (const url of ['/unsubscribe/abcdefghijklmnopqrstuvwxyz234567', '/unsubscribe/nope']) {
      expect((await app.inject({ method: 'POST', url, payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(404);
    }
    const anonymous = await callerFor(t.deps, null);
    expect(
      (await errorOf(anonymous.notifications.unsubscribeInfo({ token: 'abcdefghijklmnopqrstuvwxyz234567' }))).code,
    ).toBe('NOT_FOUND');
  });

  it("the page's calls: what the link turns off, then turning it off, signed out", async () => {
    const { customer, bookingId } = await pendingRequest(t.deps);
    const token = await tokenOf('request_received', bookingId);
    const anonymous = await callerFor(t.deps, null);
    expect(await anonymous.notifications.unsubscribeInfo({ token })).toEqual({
      kind: 'request_received',
      label: 'Request sent',
      email: `c***@example.test`,
      unsubscribed: false,
    });
    expect(await anonymous.notifications.unsubscribe({ token })).toMatchObject({ unsubscribed: true });
    expect(await optedOut(customer.id, 'request_received')).toBe(true);
    expect(await anonymous.notifications.unsubscribeInfo({ token })).toMatchObject({ unsubscribed: true });
  });
});

describe('notification settings', () => {
  it("lists the role's kinds, all on, and switches one off and on again", async () => {
    const { owner, customer } = await pendingRequest(t.deps);
    const business = await callerFor(t.deps, owner.id);
    expect((await business.notifications.preferences()).map((p) => [p.kind, p.enabled])).toEqual([
      ['booking_requested', true],
      ['request_withdrawn', true],
      ['customer_deleted', true],
    ]);
    const off = await business.notifications.setPreference({ kind: 'request_withdrawn', enabled: false });
    expect(off.find((p) => p.kind === 'request_withdrawn')).toMatchObject({
      enabled: false,
      label: 'Withdrawn requests',
    });
    expect(await optedOut(owner.id, 'request_withdrawn')).toBe(true);
    await business.notifications.setPreference({ kind: 'request_withdrawn', enabled: true });
    expect(await optedOut(owner.id, 'request_withdrawn')).toBe(false);

    const client = await callerFor(t.deps, customer.id);
    expect((await client.notifications.preferences()).map((p) => p.kind)).toEqual([
      'request_received',
      'booking_confirmed',
      'booking_declined',
      'booking_cancelled',
      'booking_reminder',
      'booking_updated',
      'slot_alert',
      'favourite_slot',
    ]);
    expect(
      (await errorOf(client.notifications.setPreference({ kind: 'booking_requested', enabled: false }))).code,
    ).toBe('BAD_REQUEST');
    expect((await errorOf((await callerFor(t.deps, null)).notifications.preferences())).code).toBe('UNAUTHORIZED');
  });
});
