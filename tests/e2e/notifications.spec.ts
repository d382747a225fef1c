/**
 * Notifications and calendars in real Chromium (docs/decisions/0050-0054): a customer's request is
 * confirmed; the confirmation email is in /dev/mailbox with its .ics; the customer adds the
 * appointment to a calendar from the dashboard; the business creates its calendar feed in
 * Settings (reached from the Booked tab), reads it, and regenerates it, which stops the old URL.
 */
import { expect, test } from './fixtures';
import {
  addFirstSlot,
  businessOnDashboard,
  customerOnDashboard,
  newBusiness,
  newCustomer,
  requestSlot,
} from './helpers';

const tag = `nt${Date.now().toString(36)}`;
const business = newBusiness(tag);
const customer = newCustomer(tag);
const slotDescription = `Colour refresh ${tag}`;

test('a confirmed booking reaches the mailbox with its .ics, the customer calendar and the business feed', async ({
  people: { open, errors },
}) => {
  test.slow();
  const biz = await open();
  await businessOnDashboard(biz, business);
  await addFirstSlot(biz, slotDescription);

  const cust = await open();
  await customerOnDashboard(cust, customer);
  await cust.goto(`/${business.slug}`);
  await requestSlot(cust, slotDescription);

  const request = biz.getByTestId('booking-request').filter({ hasText: customer.email });
  await request.getByRole('button', { name: 'Confirm Booking' }).click();
  await biz.getByRole('dialog').getByRole('button', { name: 'Yes, confirm' }).click();
  await expect(biz.getByText('Booking confirmed!', { exact: true })).toBeVisible();

  // The confirmation email, with its calendar file.
  await cust.goto('/dev/mailbox');
  const mail = cust.getByRole('article', { name: `Booking confirmed: ${business.businessName}` });
  await expect(mail).toBeVisible();
  await expect(mail).toContainText(`To: ${customer.email}`);
  await expect(mail).toContainText(`${business.businessName} has confirmed your appointment.`);
  await expect(mail).toContainText(slotDescription);
  const [attachment] = await Promise.all([
    cust.waitForEvent('download'),
    mail.getByRole('link', { name: 'appointment.ics' }).click(),
  ]);
  expect(attachment.suggestedFilename()).toBe('appointment.ics');
  const ics = await streamText(attachment);
  expect(ics).toContain('BEGIN:VEVENT');
  expect(ics).toContain('DTSTART;TZID=Europe/London:');
  expect(ics).toContain(`SUMMARY:${slotDescription} at ${business.businessName}`);
  const uid = /UID:(\S+)/.exec(ics)![1]!;
  // The business's email of the request is there too.
  await expect(
    cust.getByRole('article', { name: 'New booking request' }).filter({ hasText: business.email }),
  ).toBeVisible();

  // 'Add to calendar' on the customer's confirmed appointment: the same event.
  await cust.goto('/dashboard');
  const row = cust.getByTestId('appointment-row').filter({ hasText: slotDescription });
  await expect(row).toBeVisible();
  const [download] = await Promise.all([
    cust.waitForEvent('download'),
    row.getByRole('button', { name: /Add to calendar/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^appointment-\d{4}-\d{2}-\d{2}\.ics$/);
  expect(await streamText(download)).toContain(`UID:${uid}`);

  // The business: the Booked tab's reminder leads to the calendar feed.
  await biz.getByRole('tab', { name: 'Booked', exact: true }).click();
  await biz.getByRole('link', { name: 'Subscribe to your calendar feed' }).click();
  await expect(biz).toHaveURL(/\/settings#calendar-feed$/);
  const card = biz.getByRole('region', { name: 'Calendar Feed' });
  await card.getByRole('button', { name: 'Create calendar link' }).click();
  const urlBox = card.getByRole('textbox', { name: 'Your calendar feed URL' });
  const first = await urlBox.inputValue();
  expect(first).toMatch(/\/calendar\/[a-z2-7]{32}\.ics$/);
  const feed = await biz.request.get(first);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const feedText = await feed.text();
  expect(feedText).toContain(`UID:${uid}`);
  expect(feedText).toContain(`SUMMARY:${slotDescription}: ${customer.name}`);

  await card.getByRole('button', { name: 'Regenerate link' }).click();
  await expect(urlBox).not.toHaveValue(first);
  expect((await biz.request.get(first)).status()).toBe(404);
  expect((await biz.request.get(await urlBox.inputValue())).status()).toBe(200);

  expect(errors).toEqual([]);
});

/** The text of a download. */
async function streamText(download: { createReadStream(): Promise<NodeJS.ReadableStream> }): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
