/**
 * Alerts of new slots in real Chromium (docs/decisions/0086): a customer saves the Discover search
 * ("Tell me when something opens near me"), a business nearby adds a matching slot, the email
 * reaches /dev/mailbox, and Settings' Alerts card pauses and deletes the alert; a visitor is asked
 * to sign in and a business user sees no button. A favourite's "Email me when this business adds a
 * slot" brings the next slot of that business by email. The suite's server runs alert rounds of 2
 * seconds (playwright.config.ts) instead of 15 minutes.
 */
import type { Page } from '@playwright/test';
import { MSG } from '../../shared/messages';
import { MANCHESTER, publish as publishAt, SEARCH, waitUntilListed } from './discover-helpers';
import { expect, test } from './fixtures';
import { ALWAYS_OPEN, newBusiness, newCustomer, signIn, startApp } from './helpers';

const tag = `al${Date.now().toString(36)}`;

/** Adds a slot tomorrow at `start` for an hour, as the business signed in on `page`. */
function publish(page: Page, description: string, start: string) {
  const [h, m] = start.split(':');
  return publishAt(page, description, start, `${String(Number(h) + 1).padStart(2, '0')}:${m}`);
}

/**
 * Waits for the email `subject` to `to` in the dev mailbox (rounds of 2 s, a pass every 5 s): the
 * mailbox page refreshes itself every 3 s, so it is opened once and watched.
 */
async function waitForEmail(page: Page, subject: string, to: string) {
  const mail = page.getByRole('article', { name: subject }).filter({ hasText: `To: ${to}` });
  await page.goto('/dev/mailbox');
  await expect(mail.first()).toBeVisible({ timeout: 30_000 });
  return mail.first();
}

test('a saved search emails the next matching slot; Settings pauses and deletes the alert', async ({
  people: { open, errors },
}) => {
  test.slow();
  const biz = await open();
  const business = newBusiness(tag);
  await signIn(biz, business, {
    profile: { address: MANCHESTER, schedule: ALWAYS_OPEN, category: 'Barber Shop' },
  });
  await publish(biz, `Placed ${tag}`, '09:00');
  await waitUntilListed(biz, `Placed ${tag}`);

  // A visitor is asked to sign in; the business user sees no button.
  const visitor = await open();
  await visitor.goto(SEARCH);
  await visitor.getByRole('button', { name: MSG.alertButton }).click();
  await expect(visitor.getByRole('dialog', { name: MSG.alertSignInTitle })).toContainText(MSG.alertSignIn);
  await biz.goto(SEARCH);
  await expect(biz.getByTestId('discover-result').first()).toBeVisible();
  await expect(biz.getByRole('button', { name: MSG.alertButton })).toHaveCount(0);

  // The customer saves the search.
  const cust = await open();
  const customer = newCustomer(tag);
  await signIn(cust, customer);
  await cust.goto(SEARCH);
  await cust.getByRole('button', { name: MSG.alertButton }).click();
  await expect(cust.getByText(MSG.alertSaved)).toBeVisible();
  await expect(cust.getByTestId('alert-saved')).toContainText(MSG.alertSavedTitle);
  // Reloaded, the page still knows this search is saved.
  await cust.reload();
  await expect(cust.getByTestId('alert-saved')).toBeVisible();

  // The business adds a matching slot: the email lists it with the business's page.
  await publish(biz, `Alert fade ${tag}`, '12:00');
  const mail = await waitForEmail(cust, 'New slot near Manchester', customer.email);
  await expect(mail).toContainText(`Alert fade ${tag}`);
  await expect(mail).toContainText('Barber Shop');
  await expect(mail).toContainText('12:00 pm - 1:00 pm');
  await expect(mail.getByRole('link', { name: business.businessName })).toHaveAttribute(
    'href',
    new RegExp(`/${business.slug}$`),
  );
  await expect(mail.getByRole('link', { name: 'Unsubscribe from these emails' })).toBeVisible();

  // Settings: the Alerts card pauses, resumes and deletes it.
  await cust.goto('/settings');
  const card = cust.getByRole('region', { name: 'Alerts' });
  const row = card.getByTestId('alert-row').filter({ hasText: 'Within 5 miles of Manchester' });
  await expect(row).toContainText('Starting tomorrow · All categories');
  await row.getByRole('button', { name: /^Pause alert/ }).click();
  await expect(row.getByText('Paused', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: /^Resume alert/ }).click();
  await expect(row.getByText('Paused', { exact: true })).toHaveCount(0);
  await row.getByRole('button', { name: /^Delete alert/ }).click();
  const dialog = cust.getByRole('dialog', { name: 'Delete this alert?' });
  await dialog.getByRole('button', { name: 'Delete Alert' }).click();
  await expect(card.getByTestId('alert-row')).toHaveCount(0);
  await expect(card).toContainText(MSG.alertsEmpty);
  expect(errors).toEqual([]);
});

test("a favourite's 'Email me when this business adds a slot' brings its next slot by email", async ({
  people: { open, errors },
}) => {
  test.slow();
  const biz = await open();
  const business = newBusiness(`${tag}f`);
  await signIn(biz, business, { profile: { schedule: ALWAYS_OPEN } });

  const cust = await open();
  const customer = newCustomer(`${tag}f`);
  await signIn(cust, customer);
  await cust.goto(`/${business.slug}`);
  await startApp(cust);
  await cust.getByRole('button', { name: /^Favourite/ }).click();
  const toggle = cust.getByRole('button', { name: MSG.favouriteAlertLabel });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(cust.getByText(MSG.favouriteAlertOn)).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');

  await publish(biz, `Favourite trim ${tag}`, '15:00');
  const mail = await waitForEmail(cust, `New slot at ${business.businessName}`, customer.email);
  await expect(mail).toContainText(`Favourite trim ${tag}`);

  // The dashboard's Favourites panel shows the same choice.
  await cust.goto('/dashboard');
  const favourite = cust.getByTestId('favourite-row').filter({ hasText: business.businessName });
  await expect(favourite.getByRole('button', { name: MSG.favouriteAlertLabel })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(errors).toEqual([]);
});
