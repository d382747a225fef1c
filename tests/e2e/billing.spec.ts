/**
 * Subscriptions in the browser, offline (docs/decisions/0100, 0101): a second server with BILLING=test
 * (the local Stripe stand-in and its pages) and no free trial, so a new business is told at once why it
 * cannot add slots, subscribes through "Test checkout", sees 'Payment Successful!', and cancels in the
 * test billing portal. The pricing section is read on both servers: the suite's (billing off) and this one.
 */
import { MSG } from '../../shared/messages';
import { startServerProcess, type ServerProcess } from '../setup/server-process';
import { expect, test } from './fixtures';
import { addFirstSlot, confirmFromMailbox, newBusiness, signUpBusiness } from './helpers';

const tag = `bill${Date.now().toString(36)}`;
let billing: ServerProcess;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  billing = await startServerProcess({
    PORT: String(Number(process.env.E2E_PORT ?? 3210) + 2),
    BILLING: 'test',
    BILLING_TRIAL_DAYS: '0',
    PGLITE_DIR: `.tmp/e2e-billing-pglite-${Date.now()}`,
    CLIENT_DIST_DIR: process.env.E2E_CLIENT_DIST ?? '',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_EMAIL_REQUESTS_PER_IP: '10000',
  });
});

test.afterAll(async () => {
  await billing?.stop();
});

test('the pricing section tells the launch offer with billing off, and the monthly prices with it on', async ({
  people: { open },
}) => {
  const page = await open();
  await page.goto('/#pricing');
  await expect(page.getByTestId('pricing-terms')).toContainText(
    'businesses that joined at launch pay £9.95 a month for life instead of the list price of £19.95. No card needed until then.',
  );
  await page.goto(`${billing.url}/#pricing`);
  const pricing = page.locator('#pricing');
  await expect(pricing.getByText('£19.95', { exact: true })).toBeVisible();
  await expect(page.getByTestId('pricing-terms')).toHaveText('£9.95 for life for businesses that joined at launch.');
});

test('an expired business is told why it cannot add a slot, subscribes, sees Payment Successful!, and cancels', async ({
  people: { open },
}) => {
  const page = await open();
  const account = newBusiness(`${tag}a`);
  await signUpBusiness(page, account, billing.url);
  await confirmFromMailbox(page, account.email, billing.url);

  await expect(page.getByTestId('subscription-banner')).toContainText('Your free trial has ended');
  const needed = page.getByTestId('subscription-needed');
  await expect(needed).toContainText(MSG.slotsTrialEnded);
  await needed.getByRole('button', { name: 'Subscribe' }).click();

  await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
  await expect(page.getByText('LastSlot subscription: £19.95 a month.')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(`${billing.url}/dashboard`);
  await expect(page.getByText(MSG.paymentSuccessfulTitle)).toBeVisible();
  await expect(page.getByTestId('subscription-banner')).toHaveCount(0);
  await addFirstSlot(page, `Trim ${tag}`);

  await page.goto(`${billing.url}/settings`);
  await page.getByRole('button', { name: 'Manage Billing' }).click();
  await expect(page.getByRole('heading', { name: 'Test billing portal' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page).toHaveURL(`${billing.url}/settings`);
  await expect(page.getByTestId('subscription-state')).toContainText('Your subscription is canceling');

  await page.getByRole('button', { name: 'Manage Billing' }).click();
  await page.getByRole('button', { name: 'End the current period now' }).click();
  await expect(page).toHaveURL(`${billing.url}/settings`);
  await expect(page.getByTestId('subscription-state')).toContainText('Your subscription is not active');
  await expect(page.getByRole('button', { name: 'Manage Billing' })).toHaveCount(0);

  await page.goto(`${billing.url}/dashboard`);
  await expect(page.getByTestId('subscription-needed')).toContainText(MSG.slotsSubscriptionEnded);
  await expect(page.getByTestId('slot-row').filter({ hasText: `Trim ${tag}` })).toBeVisible();
});

test('leaving Checkout with Cancel says nothing was charged', async ({ people: { open } }) => {
  const page = await open();
  const account = newBusiness(`${tag}b`);
  await signUpBusiness(page, account, billing.url);
  await confirmFromMailbox(page, account.email, billing.url);
  await page.getByTestId('subscription-banner').getByRole('button', { name: 'Subscribe' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(`${billing.url}/dashboard`);
  await expect(page.getByText(MSG.paymentCanceled)).toBeVisible();
  await expect(page.getByTestId('subscription-needed')).toBeVisible();
});
