/**
 * Alerts of new slots (docs/decisions/0086): a saved Discover search hears of a slot added within
 * its distance, window (measured from when the slot is added) and category; a favourite with
 * "Email me when this business adds a slot" hears of every new slot of its business. Emails go in
 * 15-minute rounds through the outbox, list every slot of the round still open, and follow the
 * notification preferences and the one-click unsubscribe. Saving, pausing and deleting are the
 * customer's own.
 */
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { alerts, businessProfiles } from '../../server/db/schema/index';
import { unsubscribeHeaders } from '../../server/email/dispatcher';
import type { NewSlotLine } from '../../server/email/templates';
import { sendDueAlertEmailsOnce } from '../../server/features/alerts/alert-emails';
import { findPlace } from '../../server/features/geocoding/gazetteer';
import { ALERT_LIMIT } from '../../shared/alerts';
import type { LatLng } from '../../shared/geo';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createUser } from '../factories/index';
import { emailsTo, errorOf } from '../setup/helpers';
import { silentLogger, useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z'); // Saturday 10:00 in London (GMT)
const t = useTestDeps(START);
beforeEach(() => t.clock.set(START));

const TODAY = '2026-11-21';
const TOMORROW = '2026-11-22';
const MINUTE = 60_000;
const LEEDS = findPlace('Leeds')!;

/** 'HH:MM' plus 30 minutes. */
function halfHourAfter(time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = h * 60 + m + 30;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** A business placed at `at` (default: Leeds's centre) of `category`, with a caller that adds its slots. */
async function business(opts: { at?: LatLng | null; category?: string; name?: string } = {}) {
  const biz = await createBusiness(t.deps.db, { name: opts.name });
  const at = opts.at === undefined ? LEEDS : opts.at;
  await t.deps.db
    .update(businessProfiles)
    .set({
      businessType: opts.category ?? 'Hair Salon',
      ...(at
        ? { latitude: at.latitude, longitude: at.longitude, locationPrecision: 'exact', locationSource: 'pin' }
        : {}),
    })
    .where(eq(businessProfiles.id, biz.user.id));
  const owner = await callerFor(t.deps, biz.user.id);
  /** Adds a 30-minute slot at local `date` + `start`, as the business does (slots.create). */
  const publish = (date: string, start: string, description = `Cut ${date} ${start}`) =>
    owner.slots.create({ date, startTime: start, endTime: halfHourAfter(start), description });
  return { ...biz, owner, publish };
}

/** A signed-in customer. */
async function customer() {
  const user = await createUser(t.deps.db, { role: 'customer' });
  return { user, caller: await callerFor(t.deps, user.id) };
}

/** One pass of the alert emails at the clock's time. */
const runAlerts = () =>
  sendDueAlertEmailsOnce({ db: t.deps.db, appOrigin: t.deps.appOrigin, now: t.deps.now(), logger: silentLogger });

/** The alert emails to `email` (oldest first): subject and the descriptions of the slots each lists. */
async function alertEmails(email: string) {
  const rows = (await emailsTo(t.deps.db, email)).filter((m) => m.kind === 'slot_alert' || m.kind === 'favourite_slot');
  // Oldest first; one pass writes an alert's and a favourite's at the same instant: by kind then.
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.kind!.localeCompare(b.kind!));
  return rows.map((m) => ({
    kind: m.kind,
    subject: m.subject,
    slots: ((m.props?.slots ?? []) as NewSlotLine[]).map((s) => s.description),
    row: m,
  }));
}

const near = { place: 'Leeds', miles: 5 as const };

describe('matching a new slot', () => {
  it('emails a slot within the distance, the window and the category; not one outside them', async () => {
    const cam = await customer(); // Leeds, 2 miles, 2 hours, every category
    const dee = await customer(); // Manchester, 5 miles
    const eve = await customer(); // Leeds, Nails only
    await cam.caller.alerts.create({ window: '2h', place: 'Leeds', miles: 2 });
    await dee.caller.alerts.create({ window: '2h', place: 'Manchester', miles: 5 });
    await eve.caller.alerts.create({ window: '2h', ...near, category: 'Nails' });
    const salon = await business();
    const farSalon = await business({ at: { latitude: LEEDS.latitude + 0.1, longitude: LEEDS.longitude } }); // about 7 miles north
    await salon.publish(TODAY, '11:00', 'Inside');
    await salon.publish(TODAY, '13:00', 'Too late'); // 3 hours after it was added
    await farSalon.publish(TODAY, '11:30', 'Too far');
    t.clock.advance(15 * MINUTE);
    await runAlerts();

    expect((await alertEmails(cam.user.email)).map((e) => [e.subject, e.slots])).toEqual([
      ['New slot near Leeds', ['Inside']],
    ]);
    expect(await alertEmails(dee.user.email)).toEqual([]);
    expect(await alertEmails(eve.user.email)).toEqual([]);
  });

  it("measures the window from when the slot is added, in the customer's zone for today and tomorrow", async () => {
    const cam = await customer();
    await cam.caller.alerts.create({ window: '2h', ...near });
    const first = await business();
    const second = await business();
    await first.publish(TODAY, '12:30', 'Added at 10:00'); // 2.5 hours ahead: outside
    t.clock.advance(60 * MINUTE);
    await second.publish(TODAY, '12:30', 'Added at 11:00'); // 1.5 hours ahead: inside
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect((await alertEmails(cam.user.email)).map((e) => e.slots)).toEqual([['Added at 11:00']]);

    // At 10:00 UTC it is 19:00 in Tokyo: 'today' there ends at 15:00 UTC; 'tomorrow' in London is Sunday.
    t.clock.set(START);
    const tokyo = await customer();
    await tokyo.caller.alerts.create({ window: 'today', ...near, timezone: 'Asia/Tokyo' });
    const london = await customer();
    await london.caller.alerts.create({ window: 'tomorrow', ...near, timezone: 'Europe/London' });
    const third = await business();
    await third.publish(TODAY, '14:00', 'Saturday 14:00');
    await third.publish(TODAY, '16:00', 'Saturday 16:00');
    await third.publish(TOMORROW, '10:00', 'Sunday 10:00');
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect((await alertEmails(tokyo.user.email)).map((e) => e.slots)).toEqual([['Saturday 14:00']]);
    expect((await alertEmails(london.user.email)).map((e) => e.slots)).toEqual([['Sunday 10:00']]);
  });

  it('a paused alert hears of nothing; resumed, it hears of slots added from then on', async () => {
    const cam = await customer();
    const alert = await cam.caller.alerts.create({ window: 'today', ...near });
    const salon = await business();
    await salon.publish(TODAY, '14:00', 'Before pausing');
    expect(await cam.caller.alerts.setPaused({ alertId: alert.id, paused: true })).toMatchObject({ paused: true });
    await salon.publish(TODAY, '15:00', 'While paused');
    expect(await cam.caller.alerts.setPaused({ alertId: alert.id, paused: false })).toMatchObject({ paused: false });
    await salon.publish(TODAY, '16:00', 'After resuming');
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect((await alertEmails(cam.user.email)).map((e) => e.slots)).toEqual([['After resuming']]);
  });

  it('a slot of a business not shown in Discover reaches no saved search', async () => {
    const cam = await customer();
    await cam.caller.alerts.create({ window: 'today', ...near });
    const hidden = await business({ at: null });
    await hidden.publish(TODAY, '14:00', 'Unlisted');
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect(await alertEmails(cam.user.email)).toEqual([]);
  });
});

describe('email rounds', () => {
  it('one email per round: two slots 5 minutes apart share an email, a third after 15 minutes gets a second', async () => {
    const cam = await customer();
    const alert = await cam.caller.alerts.create({ window: 'today', ...near });
    const salon = await business();
    await salon.publish(TODAY, '14:00', 'First'); // 10:00: the round runs to 10:15
    t.clock.advance(5 * MINUTE);
    await salon.publish(TODAY, '14:30', 'Second');
    await runAlerts();
    t.clock.set(new Date(START.getTime() + 15 * MINUTE - 1));
    await runAlerts();
    expect(await alertEmails(cam.user.email)).toEqual([]);

    t.clock.set(new Date(START.getTime() + 15 * MINUTE));
    await runAlerts();
    await runAlerts();
    expect((await alertEmails(cam.user.email)).map((e) => e.slots)).toEqual([['First', 'Second']]);

    t.clock.set(new Date(START.getTime() + 20 * MINUTE));
    await salon.publish(TODAY, '15:00', 'Third'); // a new round, to 10:35
    t.clock.set(new Date(START.getTime() + 30 * MINUTE));
    await runAlerts();
    expect(await alertEmails(cam.user.email)).toHaveLength(1);
    t.clock.set(new Date(START.getTime() + 35 * MINUTE));
    await runAlerts();
    const emails = await alertEmails(cam.user.email);
    expect(emails.map((e) => e.slots)).toEqual([['First', 'Second'], ['Third']]);
    const [row] = await t.deps.db.select().from(alerts).where(eq(alerts.id, alert.id));
    expect(row!.lastEmailedAt).toEqual(new Date(START.getTime() + 35 * MINUTE));
  });

  it('twenty slots added at once make one email listing all twenty', async () => {
    const cam = await customer();
    await cam.caller.alerts.create({ window: 'tomorrow', ...near });
    const one = await business();
    const two = await business();
    const starts = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30'];
    for (const start of starts) {
      await one.publish(TOMORROW, start);
      await two.publish(TOMORROW, start);
    }
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    const emails = await alertEmails(cam.user.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe('20 new slots near Leeds');
    expect(emails[0]!.slots).toHaveLength(20);
  });

  it('leaves out a slot taken or deleted before its email, and sends nothing when none is left', async () => {
    const cam = await customer();
    await cam.caller.alerts.create({ window: 'today', ...near });
    const salon = await business();
    const taken = await salon.publish(TODAY, '14:00', 'Requested meanwhile');
    const removed = await salon.publish(TODAY, '14:30', 'Deleted meanwhile');
    await salon.publish(TODAY, '15:00', 'Still open');
    const other = await customer();
    await other.caller.bookings.request({ slotId: taken.id });
    await salon.owner.slots.delete({ slotId: removed.id });
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect((await alertEmails(cam.user.email)).map((e) => e.slots)).toEqual([['Still open']]);

    const gone = await salon.publish(TODAY, '16:00', 'Requested too');
    await other.caller.bookings.request({ slotId: gone.id });
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect(await alertEmails(cam.user.email)).toHaveLength(1);
  });
});

describe('a round lists only slots still in Discover', () => {
  it('leaves out a slot whose business left Discover or moved away before its email, and never sends it later', async () => {
    const cam = await customer();
    await cam.caller.alerts.create({ window: 'today', ...near });
    const hiding = await business({ name: 'Hiding Salon' });
    const moving = await business({ name: 'Moving Salon' });
    const staying = await business({ name: 'Staying Salon' });
    await hiding.publish(TODAY, '14:00', 'Hidden meanwhile');
    await moving.publish(TODAY, '14:30', 'Moved meanwhile');
    await staying.publish(TODAY, '15:00', 'Still listed');
    await hiding.owner.settings.setDiscoverable({ discoverable: false });
    const manchester = findPlace('Manchester')!;
    await moving.owner.settings.setLocation({ ...manchester, source: 'pin' });
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect((await alertEmails(cam.user.email)).map((e) => e.slots)).toEqual([['Still listed']]);

    // Back in Discover and in the area: the dropped slots were dropped for good.
    await hiding.owner.settings.setDiscoverable({ discoverable: true });
    await moving.owner.settings.setLocation({ ...LEEDS, source: 'pin' });
    t.clock.advance(30 * MINUTE);
    await runAlerts();
    expect(await alertEmails(cam.user.email)).toHaveLength(1);
  });

  it('sends nothing when every slot of the round has left Discover', async () => {
    const cam = await customer();
    await cam.caller.alerts.create({ window: 'today', ...near });
    const salon = await business();
    await salon.publish(TODAY, '14:00', 'Hidden meanwhile');
    await salon.owner.settings.setDiscoverable({ discoverable: false });
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect(await alertEmails(cam.user.email)).toEqual([]);
  });
});

describe('favourites', () => {
  it('a favourite with the alert on hears of every new slot of its business; off, or unfavourited, nothing', async () => {
    const cam = await customer();
    const salon = await business({ at: null, name: 'Studio Nine' }); // not in Discover: favourites still hear
    const businessId = salon.user.id;
    expect((await errorOf(cam.caller.favourites.setAlert({ businessId, notify: true }))).message).toBe(
      MSG.favouriteAlertNeedsFavourite,
    );
    await cam.caller.favourites.set({ businessId, favourited: true });
    expect(await cam.caller.favourites.setAlert({ businessId, notify: true })).toEqual({
      count: 1,
      favourited: true,
      notifyNewSlots: true,
    });
    expect((await cam.caller.favourites.mine()).map((f) => f.notifyNewSlots)).toEqual([true]);
    await salon.publish(TOMORROW, '09:00', 'Morning');
    await salon.publish(TOMORROW, '17:00', 'Evening');
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect((await alertEmails(cam.user.email)).map((e) => [e.kind, e.subject, e.slots])).toEqual([
      ['favourite_slot', '2 new slots at Studio Nine', ['Morning', 'Evening']],
    ]);

    // A slot added while it was off is not news once it is on again.
    await cam.caller.favourites.setAlert({ businessId, notify: false });
    await salon.publish(TOMORROW, '10:00', 'While off');
    await cam.caller.favourites.setAlert({ businessId, notify: true });
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect(await alertEmails(cam.user.email)).toHaveLength(1);
    await cam.caller.favourites.set({ businessId, favourited: false });
    await salon.publish(TOMORROW, '11:00', 'After unfavouriting');
    await cam.caller.favourites.set({ businessId, favourited: true });
    expect((await cam.caller.favourites.status({ businessId })).notifyNewSlots).toBe(false);
    t.clock.advance(30 * MINUTE);
    await runAlerts();
    expect(await alertEmails(cam.user.email)).toHaveLength(1);
  });
});

describe('the email', () => {
  it('names the business, category, local date and times, distance and page, with the unsubscribe link', async () => {
    const cam = await customer();
    await cam.caller.alerts.create({ window: 'today', ...near });
    const salon = await business({ category: 'Hair Services|Barber Shop', name: 'Fade Room' });
    await salon.publish(TODAY, '14:00', 'Skin fade');
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    const [email] = await alertEmails(cam.user.email);
    expect(email!.subject).toBe('New slot near Leeds');
    const text = email!.row.text;
    for (const part of [
      'Fade Room',
      'Barber Shop · Skin fade',
      'Saturday, 21st November 2026, 2:00 pm - 2:30 pm',
      'Under 0.1 miles away',
      `${t.deps.appOrigin}/${salon.profile.slug}`,
      'Within 5 miles of Leeds · Starting today · All categories',
      'Unsubscribe from these emails',
      `${t.deps.appOrigin}/settings#alerts`,
    ]) {
      expect(text).toContain(part);
    }
    // A customer's own zone is the business's: the times are not followed by a zone's name.
    expect(text).not.toContain('(Europe/London)');
    expect(unsubscribeHeaders(email!.row.props)).toMatchObject({
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('the one-click unsubscribe turns that kind off: no more alert emails, the favourite ones still go', async () => {
    const cam = await customer();
    await cam.caller.alerts.create({ window: 'today', ...near });
    const salon = await business({ name: 'Kept Studio' });
    await cam.caller.favourites.set({ businessId: salon.user.id, favourited: true });
    await cam.caller.favourites.setAlert({ businessId: salon.user.id, notify: true });
    await salon.publish(TODAY, '14:00', 'Before');
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    const alertEmail = (await alertEmails(cam.user.email)).find((e) => e.kind === 'slot_alert')!;
    const footer = alertEmail.row.props!.footer as { unsubscribeUrl: string };
    const token = footer.unsubscribeUrl.split('/unsubscribe/')[1]!;
    const visitor = await callerFor(t.deps, null);
    expect(await visitor.notifications.unsubscribe({ token })).toMatchObject({
      kind: 'slot_alert',
      label: 'Alerts for new slots',
      unsubscribed: true,
    });
    const prefs = await cam.caller.notifications.preferences();
    expect(prefs.filter((p) => p.kind === 'slot_alert' || p.kind === 'favourite_slot')).toEqual([
      expect.objectContaining({ kind: 'slot_alert', enabled: false }),
      expect.objectContaining({ kind: 'favourite_slot', enabled: true }),
    ]);

    t.clock.advance(5 * MINUTE);
    await salon.publish(TODAY, '15:00', 'After');
    t.clock.advance(15 * MINUTE);
    await runAlerts();
    expect((await alertEmails(cam.user.email)).map((e) => [e.kind, e.slots])).toEqual([
      ['favourite_slot', ['Before']],
      ['slot_alert', ['Before']],
      ['favourite_slot', ['After']],
    ]);
  });
});

describe('saving and managing alerts', () => {
  it('keeps a position rounded to about 100 m, lists the alert and exports it', async () => {
    const cam = await customer();
    const saved = await cam.caller.alerts.create({ window: '1h', latitude: 53.80123, longitude: -1.54987, miles: 1 });
    expect(saved).toMatchObject({
      place: null,
      label: 'your location',
      latitude: 53.801,
      longitude: -1.55,
      miles: 1,
      window: '1h',
      category: null,
      paused: false,
    });
    expect(await cam.caller.alerts.list()).toEqual([saved]);
    // The customer's data export holds it, as kept.
    const { data } = await cam.caller.account.exportData();
    expect('alerts' in data && data.alerts).toEqual([
      expect.objectContaining({ id: saved.id, place: null, latitude: 53.801, longitude: -1.55, window: '1h' }),
    ]);
  });

  it('refuses a duplicate, the eleventh alert and an unknown place, and keeps alerts to their owner', async () => {
    const cam = await customer();
    const first = await cam.caller.alerts.create({ window: 'today', ...near });
    const duplicate = await errorOf(cam.caller.alerts.create({ window: 'today', place: 'leeds', miles: 5 }));
    expect([duplicate.code, duplicate.message]).toEqual(['CONFLICT', MSG.alertExists]);
    const unknown = await errorOf(cam.caller.alerts.create({ window: 'today', place: 'Nowhereville Xq', miles: 5 }));
    expect([unknown.code, unknown.message]).toEqual(['BAD_REQUEST', MSG.placeNotFound]);
    const others = [
      ['1h', 1],
      ['1h', 2],
      ['1h', 5],
      ['1h', 10],
      ['1h', 25],
      ['4h', 1],
      ['4h', 2],
      ['4h', 5],
      ['4h', 10],
    ] as const;
    expect(others).toHaveLength(ALERT_LIMIT - 1);
    for (const [window, miles] of others) await cam.caller.alerts.create({ window, place: 'Leeds', miles });
    const eleventh = await errorOf(cam.caller.alerts.create({ window: 'tomorrow', ...near }));
    expect([eleventh.code, eleventh.message]).toEqual(['PRECONDITION_FAILED', MSG.alertLimit]);
    expect(await cam.caller.alerts.list()).toHaveLength(ALERT_LIMIT);

    const dee = await customer();
    expect(await dee.caller.alerts.list()).toEqual([]);
    for (const call of [
      dee.caller.alerts.setPaused({ alertId: first.id, paused: true }),
      dee.caller.alerts.delete({ alertId: first.id }),
    ]) {
      const err = await errorOf(call);
      expect([err.code, err.message]).toEqual(['NOT_FOUND', MSG.alertNotFound]);
    }
    expect(await cam.caller.alerts.delete({ alertId: first.id })).toEqual({ id: first.id });
    expect(await cam.caller.alerts.list()).toHaveLength(ALERT_LIMIT - 1);
  });

  it('refuses visitors and businesses in the words of the guards', async () => {
    const visitor = await callerFor(t.deps, null);
    const owner = (await business()).owner;
    for (const [caller, code, message] of [
      [visitor, 'UNAUTHORIZED', MSG.loginToContinue],
      [owner, 'FORBIDDEN', MSG.customerOnly],
    ] as const) {
      for (const call of [caller.alerts.create({ window: 'today', ...near }), caller.alerts.list()]) {
        const err = await errorOf(call);
        expect([err.code, err.message]).toEqual([code, message]);
      }
    }
  });
});
