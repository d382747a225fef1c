/**
 * The business dashboard in real Chromium: the count cards, the slot form's rules, edit and delete,
 * Current Requests with the confirm/decline dialog, the inline Approve and Reject, the three tabs
 * with their count lines and badges, 'added to system', and the gate's screens.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { formatDate } from '../../shared/format';
import { defaultWeeklySchedule, scheduleToOpeningHours } from '../../shared/opening-hours';
import { dateChoices, startTimeChoices } from '../../shared/slot-rules';
import {
  addSlotOnLastDate,
  businessOnDashboard,
  customerOnDashboard,
  newBusiness,
  newCustomer,
  pickExact,
  requestSlot,
  signIn,
  withSessionsLocked,
} from './helpers';
import { rewriteAnswer } from './trpc-stubs';

const tag = Date.now().toString(36);
/** The onboarding form's default hours (Monday to Friday 09:00-17:00), read in London. */
const HOURS = scheduleToOpeningHours(defaultWeeklySchedule());
const ZONE = 'Europe/London';

/** The five count cards, read from their accessible names ('Total Slots: 3'). */
async function expectCounts(page: Page, counts: [number, number, number, number, number]) {
  const labels = ['Total Slots', 'Available', 'Requests', 'Booked', 'Not Booked'];
  for (const [i, label] of labels.entries()) {
    await expect(page.getByRole('group', { name: `${label}: ${counts[i]}`, exact: true })).toBeVisible();
  }
}

test('the slot form offers the allowed choices, refuses bad input, and slots can be edited and deleted', async ({
  people: { open, errors },
}) => {
  const biz = await open();
  await businessOnDashboard(biz, newBusiness(`${tag}a`));
  await expectCounts(biz, [0, 0, 0, 0, 0]);
  await expect(biz.getByTestId('count-line')).toHaveText('0 available slots');

  // Nothing chosen: four messages under their fields.
  await biz.getByRole('button', { name: 'Add Slot' }).click();
  for (const text of ['Please select a date', 'Please select a start time', 'Please select an end time']) {
    await expect(biz.getByText(text, { exact: true })).toBeVisible();
  }
  await expect(biz.getByText('Description is required', { exact: true })).toBeVisible();

  // Dates: up to 4 consecutive days from today or tomorrow, closed days left out, with ordinals.
  const dates = dateChoices(HOURS, ZONE, new Date());
  await biz.getByRole('combobox', { name: 'Date' }).click();
  const dateOptions = biz.getByRole('listbox', { name: 'Date' }).getByRole('option');
  await expect(dateOptions).toHaveCount(dates.length);
  for (const [i, date] of dates.entries()) await expect(dateOptions.nth(i)).toContainText(formatDate(date));
  await dateOptions.last().click();

  // A whole opening day: starts every half hour from 9:00 am to 4:30 pm, 12-hour labels.
  const last = dates.at(-1)!;
  expect(startTimeChoices(last, HOURS, ZONE, new Date())).toHaveLength(16);
  await biz.getByRole('combobox', { name: 'Start time' }).click();
  const starts = biz.getByRole('listbox', { name: 'Start time' }).getByRole('option');
  await expect(starts).toHaveCount(16);
  await expect(starts.first()).toHaveText('9:00 am');
  await expect(starts.last()).toHaveText('4:30 pm');
  await starts.filter({ hasText: /^3:00 pm$/ }).click();
  // Ends from start + 30 minutes to closing.
  await biz.getByRole('combobox', { name: 'End time' }).click();
  const ends = biz.getByRole('listbox', { name: 'End time' }).getByRole('option');
  await expect(ends).toHaveText(['3:30 pm', '4:00 pm', '4:30 pm', '5:00 pm']);
  await ends.last().click();
  // A new start clears the end; a new date clears both times.
  await pickExact(biz, 'Start time', '9:00 am');
  await expect(biz.getByRole('combobox', { name: 'End time' })).toHaveValue('');
  await pickExact(biz, 'End time', '10:00 am');
  if (dates.length > 1) {
    await pickExact(biz, 'Date', new RegExp(formatDate(dates[0]!)));
    await expect(biz.getByRole('combobox', { name: 'Start time' })).toHaveValue('');
    await expect(biz.getByRole('combobox', { name: 'End time' })).toHaveValue('');
  }

  // Add, then the same date and start again: the duplicate message.
  await addSlotOnLastDate(biz, '9:00 am', '10:00 am', `Colour ${tag}`);
  await expectCounts(biz, [1, 1, 0, 0, 0]);
  await expect(biz.getByTestId('count-line')).toHaveText('1 available slot');
  await pickExact(biz, 'Date', 'last');
  await pickExact(biz, 'Start time', '9:00 am');
  await pickExact(biz, 'End time', '9:30 am');
  await biz.getByRole('textbox', { name: 'Description' }).fill('Twice');
  await biz.getByRole('button', { name: 'Add Slot' }).click();
  await expect(biz.getByText('A slot with this date and time already exists.').first()).toBeVisible();

  // Edit: new end time and description.
  const colour = biz.getByTestId('slot-row').filter({ hasText: `Colour ${tag}` });
  await colour.getByRole('button', { name: 'Edit' }).click();
  const edit = biz.getByRole('dialog', { name: 'Edit slot' });
  await expect(edit.getByRole('combobox', { name: 'Start time' })).toHaveValue('9:00 am');
  await edit.getByRole('textbox', { name: 'Description' }).fill(`Colour and gloss ${tag}`);
  await pickExact(biz, 'End time', '11:00 am', edit);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(biz.getByText('Slot updated successfully')).toBeVisible();
  const edited = biz.getByTestId('slot-row').filter({ hasText: `Colour and gloss ${tag}` });
  await expect(edited).toContainText('9:00 am - 11:00 am');

  // Delete another slot through its dialog.
  await addSlotOnLastDate(biz, '2:00 pm', '2:30 pm', `Trim ${tag}`);
  await biz
    .getByTestId('slot-row')
    .filter({ hasText: `Trim ${tag}` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await biz.getByRole('dialog', { name: 'Delete this slot?' }).getByRole('button', { name: 'Delete slot' }).click();
  await expect(biz.getByText('Slot deleted successfully')).toBeVisible();
  await expect(biz.getByTestId('slot-row').filter({ hasText: `Trim ${tag}` })).toHaveCount(0);
  await expectCounts(biz, [1, 1, 0, 0, 0]);

  // Signed out elsewhere: adding a slot answers with its sign-in message. The page's own
  // session check would notice too and replace it with 'Session Expired' (which closes other
  // toasts); it is kept seeing the old answer here so the slot form's own message stays.
  let signedIn: unknown;
  await rewriteAnswer<{ authState: string }>(biz, 'auth.me', (me) => {
    if (me.authState === 'authenticated') signedIn = me;
    return (signedIn as typeof me | undefined) ?? me;
  });
  await biz.reload();
  await expect(biz.getByRole('heading', { name: 'Add New Slot' })).toBeVisible();
  // The page came with auth.me's answer inside it: one ask over the network while still signed in
  // gives the rewrite its answer, whatever asks next (the 30 s check, a live stream refused).
  await biz.evaluate(() => fetch('/trpc/auth.me?batch=1&input=%7B%7D'));
  expect(signedIn).toMatchObject({ authState: 'authenticated' });
  await pickExact(biz, 'Date', 'last');
  await pickExact(biz, 'Start time', '4:00 pm');
  await pickExact(biz, 'End time', '5:00 pm');
  await biz.getByRole('textbox', { name: 'Description' }).fill('Too late');
  // Signed out only now: any other call of the page's made meanwhile without the cookie (a live
  // stream's reconnect) would have it say 'Session Expired' and take the form away first.
  await biz.context().clearCookies();
  await biz.getByRole('button', { name: 'Add Slot' }).click();
  await expect(
    biz
      .getByRole('alert')
      .filter({ hasText: 'Authentication required' })
      .filter({ hasText: 'Please log in to add booking slots' }),
  ).toBeVisible();

  expect(errors).toEqual([]);
});

test('requests are confirmed, declined, approved and rejected; tabs, badges and added-to-system follow live', async ({
  people: { open, errors },
}) => {
  const biz = await open();
  const business = await businessOnDashboard(biz, newBusiness(`${tag}b`));
  const names = ['Confirm', 'Decline', 'Approve', 'Reject'].map((n) => `${n} me ${tag}`);
  const times = [
    ['10:00 am', '10:30 am'],
    ['11:00 am', '11:30 am'],
    ['12:00 pm', '12:30 pm'],
    ['1:00 pm', '1:30 pm'],
  ] as const;
  for (const [i, name] of names.entries()) await addSlotOnLastDate(biz, times[i]![0], times[i]![1], name);
  await expectCounts(biz, [4, 4, 0, 0, 0]);

  const cust = await open();
  const customer = newCustomer(`${tag}b`);
  await customerOnDashboard(cust, customer);
  await cust.goto(`/${business.slug}`);
  for (const name of names) await requestSlot(cust, name);

  // The business sees the four requests arrive live, newest first, with the customer.
  const requests = biz.getByTestId('booking-request');
  await expect(requests).toHaveCount(4);
  for (const [i, name] of [...names].reverse().entries()) {
    await expect(requests.nth(i)).toContainText(name);
    await expect(requests.nth(i)).toContainText(customer.name);
    await expect(requests.nth(i)).toContainText(customer.email);
  }
  await expectCounts(biz, [4, 0, 4, 0, 0]);
  const panel = biz.getByTestId('requested-slots');
  await expect(panel.getByTestId('slot-row')).toHaveCount(4);

  // Dialog: Confirm Booking, then Decline.
  await requests.filter({ hasText: names[0]! }).getByRole('button', { name: 'Confirm Booking' }).click();
  await biz.getByRole('dialog').getByRole('button', { name: 'Yes, confirm' }).click();
  await expect(biz.getByText('Booking confirmed!', { exact: true })).toBeVisible();
  await requests.filter({ hasText: names[1]! }).getByRole('button', { name: 'Decline' }).click();
  await biz.getByRole('dialog').getByRole('button', { name: 'Yes, decline' }).click();
  await expect(biz.getByText('Booking declined', { exact: true }).first()).toBeVisible();

  // Inline on the slot cards: Approve, then Reject.
  await panel.getByTestId('slot-row').filter({ hasText: names[2]! }).getByRole('button', { name: 'Approve' }).click();
  await expect(biz.getByText('Booking approved!', { exact: true })).toBeVisible();
  await panel.getByTestId('slot-row').filter({ hasText: names[3]! }).getByRole('button', { name: 'Reject' }).click();
  await expect(requests).toHaveCount(0);
  await expect(panel).toHaveCount(0);
  await expect(biz.getByText('No slots waiting for an answer')).toBeVisible();

  // Available: the rejected slot is back; Booked: confirmed and approved; Not Booked: declined.
  await expectCounts(biz, [4, 1, 0, 2, 1]);
  const rows = biz.getByTestId('slot-row');
  await expect(biz.getByTestId('count-line')).toHaveText('1 available slot');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(names[3]!);
  await expect(rows.first()).toContainText('Available');

  await biz.getByRole('tab', { name: 'Booked', exact: true }).click();
  await expect(biz.getByTestId('count-line')).toHaveText('2 booked slots');
  await expect(biz.getByText('Remember to add these bookings to your main calendar')).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(names[0]!); // oldest first
  await expect(rows.nth(1)).toContainText(names[2]!);
  for (const i of [0, 1]) {
    await expect(rows.nth(i)).toContainText('Booked');
    await expect(rows.nth(i)).toContainText(customer.email);
  }
  await rows.nth(0).getByRole('button', { name: 'Mark as added to system' }).click();
  await expect(rows.nth(0)).toContainText('Booking confirmed in system');
  await expect(rows.nth(0).getByRole('button', { name: 'Mark as added to system' })).toHaveCount(0);
  await expect(rows.nth(1).getByRole('button', { name: 'Mark as added to system' })).toBeVisible();

  await biz.getByRole('tab', { name: 'Not Booked', exact: true }).click();
  await expect(biz.getByTestId('count-line')).toHaveText('1 slot not booked');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(names[1]!);
  await expect(rows.first()).toContainText('Declined');
  await expect(rows.first().getByRole('button')).toHaveCount(0);

  // The customer: two confirmed appointments and one declined.
  await cust.goto('/dashboard');
  await cust.getByRole('tab', { name: /Confirmed/ }).click();
  const appointments = cust.getByTestId('appointment-row');
  await expect(appointments).toHaveCount(2);
  await cust.getByRole('tab', { name: /Declined/ }).click();
  await expect(appointments.filter({ hasText: names[1]! })).toBeVisible();

  expect(errors).toEqual([]);
});

test('the gate: visitors go to /login, checkout success is toasted', async ({ people: { open, errors } }) => {
  const visitor = await open();
  await visitor.goto('/dashboard');
  await expect(visitor).toHaveURL(/\/login$/);

  const biz = await open();
  const business = await businessOnDashboard(biz, newBusiness(`${tag}c`));
  await biz.goto('/dashboard?success=true');
  await expect(biz.getByText('Payment Successful!', { exact: true })).toBeVisible();
  await expect(biz).toHaveURL(/\/dashboard$/);
  await expect(biz.getByRole('heading', { name: business.businessName })).toBeVisible();

  expect(errors).toEqual([]);
});

test('a failed auth check offers Retry then Force Refresh', async ({ people: { open, errors } }) => {
  test.skip(!process.env.E2E_DATABASE_URL, 'needs PostgreSQL (E2E_DATABASE_URL) to hold the sessions table locked');
  const broken = await open();
  await signIn(broken, newCustomer(`${tag}d`));
  await broken.route('**/trpc/auth.me**', (route) => route.abort('connectionrefused'));
  // The sessions table is locked while /dashboard loads: the server stops waiting for the session.
  await withSessionsLocked(() => broken.goto('/dashboard'));
  await expect(broken.getByRole('heading', { name: 'Authentication Issue' })).toBeVisible({ timeout: 15_000 });
  for (let i = 0; i < 2; i++) {
    await broken.getByRole('button', { name: 'Retry' }).click();
    await expect(broken.getByRole('heading', { name: 'Authentication Issue' })).toBeVisible({ timeout: 15_000 });
  }
  await expect(broken.getByRole('button', { name: 'Force Refresh' })).toBeVisible();
  await broken.getByRole('link', { name: 'Back to Home' }).click();
  await expect(broken).toHaveURL(/\/$/);

  // Aborted requests are logged by Chromium as failed resources; nothing else may be.
  expect(errors.filter((e) => !/Failed to load resource: net::ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});
