/**
 * account.delete (docs/decisions/0014): typed DELETE, sessions end, a business's slots and profile go while its
 * customers' bookings keep their archived copies; a customer's bookings stay with the business
 * without the customer's name, email, phone or notes.
 */
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  bookings,
  businessProfiles,
  customerLikes,
  customerProfiles,
  sessions,
  slots,
  users,
} from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createSlot, createUser, recordingCookies, TEST_PASSWORD } from '../factories/index';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

const confirmDelete = { confirmation: 'DELETE', currentPassword: TEST_PASSWORD };

/** A business with a confirmed booking and a pending request from one customer, who likes it. */
async function bookedBusiness() {
  const biz = await createBusiness(t.deps.db, { name: 'Closing Studio' });
  const customer = await createUser(t.deps.db, { role: 'customer' });
  const confirmedSlot = await createSlot(t.deps.db, biz.user.id, {
    date: '2026-11-24',
    startTime: '10:00',
    endTime: '11:00',
    description: 'Cut',
  });
  const requestedSlot = await createSlot(t.deps.db, biz.user.id, {
    date: '2026-11-25',
    startTime: '14:00',
    endTime: '15:00',
    description: 'Colour',
  });
  await t.deps.db
    .update(customerProfiles)
    .set({ phoneNumber: '07700 900123' })
    .where(eq(customerProfiles.id, customer.id));
  const asCustomer = await callerFor(t.deps, customer.id);
  const confirmed = await asCustomer.bookings.request({ slotId: confirmedSlot.id, notes: 'Allergic to dye' });
  await (await callerFor(t.deps, biz.user.id)).bookings.confirm({ bookingId: confirmed.id });
  const pending = await asCustomer.bookings.request({ slotId: requestedSlot.id, notes: 'Second visit' });
  await t.deps.db.insert(customerLikes).values({ customerId: customer.id, businessId: biz.user.id });
  return { biz, customer, confirmedSlot, requestedSlot, confirmedId: confirmed.id, pendingId: pending.id };
}

const bookingRow = async (id: string) => (await t.deps.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;

describe('account.delete', () => {
  it("deletes a business: account, sessions, profile, slots and likes go; customers' bookings stay archived", async () => {
    const { biz, customer, confirmedId, pendingId } = await bookedBusiness();
    await callerFor(t.deps, biz.user.id); // signed in on a second device too
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, biz.user.id))).toHaveLength(2);
    const cookies = recordingCookies();
    const caller = await callerFor(t.deps, biz.user.id, cookies.writer);
    await expect(caller.account.delete(confirmDelete)).resolves.toEqual({ ok: true });
    expect(cookies.calls).toEqual([{ kind: 'clear' }]);

    expect(await t.deps.db.select().from(users).where(eq(users.id, biz.user.id))).toEqual([]);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, biz.user.id))).toEqual([]);
    expect(await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, biz.user.id))).toEqual([]);
    expect(await t.deps.db.select().from(slots).where(eq(slots.businessId, biz.user.id))).toEqual([]);
    expect(await t.deps.db.select().from(customerLikes).where(eq(customerLikes.businessId, biz.user.id))).toEqual([]);

    // The upcoming confirmed appointment is cancelled, and its customer emailed (docs/decisions/0050).
    expect(await bookingRow(confirmedId)).toMatchObject({
      status: 'cancelled',
      declinedByBusiness: false,
      slotId: null,
      businessId: null,
      customerId: customer.id,
      archivedBusinessName: 'Closing Studio',
      archivedBusinessAddress: '1 Test Street, London, SW1A 1AA',
      archivedSlotDescription: 'Cut',
      archivedSlotDate: '2026-11-24',
      archivedSlotStartTime: '10:00',
      archivedSlotEndTime: '11:00',
    });
    // The open request can never be answered now: it reads as declined for the customer.
    expect(await bookingRow(pendingId)).toMatchObject({
      status: 'cancelled',
      declinedByBusiness: true,
      archivedSlotDescription: 'Colour',
      archivedBusinessName: 'Closing Studio',
    });
    const mine = await (await callerFor(t.deps, customer.id)).bookings.mine();
    expect(JSON.stringify(mine)).toContain('Closing Studio');
  });

  it('deletes a customer: account, profile, sessions, likes and personal data go; the business keeps the booking', async () => {
    const { biz, customer, confirmedSlot, requestedSlot, confirmedId, pendingId } = await bookedBusiness();
    const [before] = await t.deps.db.select().from(slots).where(eq(slots.id, confirmedSlot.id));
    expect(before).toMatchObject({ customerEmail: customer.email, customerPhone: '07700 900123' });
    const caller = await callerFor(t.deps, customer.id);
    await expect(caller.account.delete({ ...confirmDelete, confirmation: ' DELETE ' })).resolves.toEqual({ ok: true });
    expect(await t.deps.db.select().from(users).where(eq(users.id, customer.id))).toEqual([]);
    expect(await t.deps.db.select().from(customerProfiles).where(eq(customerProfiles.id, customer.id))).toEqual([]);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, customer.id))).toEqual([]);
    expect(await t.deps.db.select().from(customerLikes).where(eq(customerLikes.customerId, customer.id))).toEqual([]);

    expect(await bookingRow(confirmedId)).toMatchObject({
      status: 'confirmed',
      customerId: null,
      businessId: biz.user.id,
      slotId: confirmedSlot.id,
    });
    expect((await bookingRow(confirmedId)).notes).toBeNull();
    // The business keeps the booked slot, without the customer's name, email or phone.
    const [slot] = await t.deps.db.select().from(slots).where(eq(slots.id, confirmedSlot.id));
    expect(slot).toMatchObject({
      isBooked: true,
      customerId: null,
      customerName: null,
      customerEmail: null,
      customerPhone: null,
    });
    const business = await callerFor(t.deps, biz.user.id);
    expect((await business.slots.listMine()).find((s) => s.id === confirmedSlot.id)).toMatchObject({
      category: 'booked',
      customerName: null,
      customerEmail: null,
    });
    const exported = JSON.stringify(await business.account.exportData());
    expect(exported).not.toContain(customer.email);
    expect(exported).not.toContain('Cam Customer');
    expect(exported).not.toContain('07700 900123');
    expect(exported).not.toContain('Allergic to dye');
    // The pending request is withdrawn, so the slot is offered again.
    expect(await bookingRow(pendingId)).toMatchObject({ status: 'cancelled', declinedByBusiness: false, notes: null });
    const page = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: biz.profile.slug });
    expect(page.slots.map((s) => s.id)).toContain(requestedSlot.id);
    expect(await (await callerFor(t.deps, biz.user.id)).bookings.requests()).toEqual([]);
  });

  it('requires the typed DELETE and the current password, and changes nothing otherwise', async () => {
    const { biz } = await bookedBusiness();
    const caller = await callerFor(t.deps, biz.user.id);
    for (const confirmation of ['', 'delete', 'DELETE ME']) {
      const err = await errorOf(caller.account.delete({ ...confirmDelete, confirmation }));
      expect([err.code, err.message]).toEqual(['BAD_REQUEST', MSG.deleteTypeConfirm]);
    }
    const missing = await errorOf(caller.account.delete({ confirmation: 'DELETE', currentPassword: '' }));
    expect([missing.code, missing.message]).toEqual(['BAD_REQUEST', MSG.currentPasswordRequired]);
    const wrong = await errorOf(caller.account.delete({ confirmation: 'DELETE', currentPassword: 'not-my-password' }));
    expect(outwardOf(wrong)).toMatchObject({
      code: 'BAD_REQUEST',
      message: MSG.currentPasswordWrong,
      field: 'currentPassword',
    });
    expect(await t.deps.db.select().from(users).where(eq(users.id, biz.user.id))).toHaveLength(1);
    expect(await t.deps.db.select().from(slots).where(eq(slots.businessId, biz.user.id))).toHaveLength(2);
    expect(
      (await t.deps.db.select().from(bookings).where(eq(bookings.businessId, biz.user.id))).map((b) => b.status).sort(),
    ).toEqual(['confirmed', 'pending']);
  });

  it('stops guessing the password after five wrong attempts', async () => {
    const { biz } = await bookedBusiness();
    const caller = await callerFor(t.deps, biz.user.id);
    for (let i = 0; i < 5; i++) {
      expect(
        (await errorOf(caller.account.delete({ confirmation: 'DELETE', currentPassword: `guess-${i}` }))).code,
      ).toBe('BAD_REQUEST');
    }
    const blocked = await errorOf(caller.account.delete(confirmDelete));
    expect([blocked.code, blocked.message]).toEqual(['TOO_MANY_REQUESTS', MSG.tooManyAttempts]);
    expect(await t.deps.db.select().from(users).where(eq(users.id, biz.user.id))).toHaveLength(1);
  });

  it("deletes only the caller's own account", async () => {
    const a = await createBusiness(t.deps.db);
    const b = await createBusiness(t.deps.db);
    const c = await createUser(t.deps.db, { role: 'customer' });
    await (await callerFor(t.deps, a.user.id)).account.delete(confirmDelete);
    const left = await t.deps.db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, [a.user.id, b.user.id, c.id]));
    expect(left.map((r) => r.id).sort()).toEqual([b.user.id, c.id].sort());
  });

  it('refuses visitors', async () => {
    const anon = await callerFor(t.deps, null);
    expect((await errorOf(anon.account.delete(confirmDelete))).code).toBe('UNAUTHORIZED');
  });
});
