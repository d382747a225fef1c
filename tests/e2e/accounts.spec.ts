/**
 * Accounts and access journeys in real Chromium: the guards, sign-up and confirmation of a customer
 * with the register form's messages, login errors and throttling, the login page's URL codes,
 * sessions shared across tabs, forgot/reset password and email change (these two start from an
 * account made without the sign-up screens).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import postgres from 'postgres';
import { hashPassword } from '../../server/features/auth/password';
import { MSG } from '../../shared/messages';
import { confirmFromMailbox, customerOnDashboard, logIn, mailboxLink, newCustomer } from './helpers';
import { proceduresOf, unlessTornDown } from './trpc-stubs';

const tag = Date.now().toString(36);

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
}

test('guards send visitors to /login or /register', async ({ people: { open, errors } }) => {
  const page = await open();
  for (const path of ['/dashboard', '/settings', '/dashboard/settings']) {
    await page.goto(path);
    await expect(page, `${path} for a visitor`).toHaveURL(/\/login$/);
  }
  await page.goto('/complete-business-profile');
  await expect(page).toHaveURL(/\/register$/);
  await page.goto('/register/business-details');
  await expect(page).toHaveURL(/\/register$/);
  // The pending registration marker opens the business details step.
  await page.getByLabel('Full name').fill('Bea Owner');
  await page.getByLabel('Email').fill(`guard-${tag}@example.test`);
  await page.getByLabel('Password').fill('owner-password-1');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/complete-business-profile$/);
  await page.goto('/register/business-details');
  await expect(page).toHaveURL(/\/complete-business-profile$/);
  expect(errors).toEqual([]);
});

test('a customer signs up, is refused before confirming, confirms, and the guards follow the session', async ({
  people: { open, errors },
}) => {
  const customer = newCustomer(`acc-${tag}`);
  const page = await open();
  await page.goto('/register?role=customer');
  await expect(page.getByRole('radio', { name: 'Customer' })).toBeChecked();
  const submit = page.getByRole('button', { name: 'Create Account' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Full name').fill(customer.name);
  await page.getByLabel('Email').fill('cam@');
  await expect(page.getByText('Invalid email format')).toBeVisible();
  await page.getByLabel('Password').focus();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill('short');
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(submit).toBeDisabled();
  await page.getByLabel('Password').fill(customer.password);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page).toHaveURL(/\/check-email/);
  await expect(page.getByText(customer.email)).toBeVisible();

  // Resend: one email per address per minute; the sign-up email was sent a moment ago.
  await page.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText('Email Limit Reached')).toBeVisible();

  // Before confirming: the right password is refused with its own text and the banner.
  await logIn(page, customer.email, customer.password);
  await expect(page.getByText('Please confirm your email address before logging in')).toBeVisible();
  await expect(page.getByText('Please confirm your email!')).toBeVisible();
  // A wrong password gets the same answer as an unknown email.
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();

  await confirmFromMailbox(page, customer.email);
  await expect(page.getByText(`Welcome, ${customer.name}`).first()).toBeVisible();

  // Guest-only pages send a signed-in user on.
  await page.goto('/register');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/login');
  await expect(page.getByText("You're already logged in. Taking you to your dashboard...")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/check-email');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/complete-business-profile');
  await expect(page).toHaveURL(/\/dashboard$/);

  // A second tab follows a logout made in the first, even when it hears of the ended session
  // before the first tab has its answer: here the logout's answer is held back while the second
  // tab's own 30 s session check (its clock moved on) already finds no session.
  const second = await page.context().newPage();
  await second.clock.install();
  await second.goto('/dashboard');
  await expect(second.getByText(`Welcome, ${customer.name}`).first()).toBeVisible();
  let ended!: () => void;
  const sessionEnded = new Promise<void>((resolve) => (ended = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && proceduresOf(url.href).includes('auth.logout'),
    (route) =>
      unlessTornDown(async () => {
        const response = await route.fetch();
        ended();
        await released;
        await route.fulfill({ response });
      }),
  );
  await page.getByRole('button', { name: 'Logout' }).click();
  await sessionEnded;
  await second.clock.fastForward('00:31');
  await expect(second).toHaveURL(/\/login$/);
  await expect(second.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(second.getByText(MSG.sessionExpiredTitle)).toHaveCount(0);
  release();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(page.getByText(MSG.sessionExpiredTitle)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the login page reads its URL codes, and repeated failures are throttled', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await page.goto('/login?error=timeout');
  await expect(page.getByText('Request Timeout')).toBeVisible();
  await expect(page.getByText('The confirmation process timed out. Please try logging in.')).toBeVisible();
  await expect(page.getByText('Please try logging in again.')).toBeVisible();

  await page.goto('/login?error=confirmation_failed');
  await expect(page.getByText('Email confirmation failed. Please try again or contact support.')).toBeVisible();
  await expect(page.getByText('Please check your credentials and try again.')).toBeVisible();

  await page.goto('/login?error=something_else');
  await expect(page.getByText('An unknown error occurred. Please try again.')).toBeVisible();

  await page.goto('/login?confirmed=true');
  await expect(page.getByText('Email confirmed!')).toBeVisible();

  await page.goto('/login');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();

  // Five failures for one account, then the sixth attempt is refused whatever the password.
  const email = `nobody-${tag}@example.test`;
  await page.getByLabel('Email').fill(email);
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('Password').fill(`wrong-password-${i}`);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
  }
  await page.getByLabel('Password').fill('wrong-password-6');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(
    page.getByText("You've made too many login attempts. Please wait a few minutes before trying again."),
  ).toBeVisible();
  expect(errors).toEqual([]);
});

test('forgot password: the link sets a new password once, then the old one no longer works', async ({
  people: { open, errors },
}) => {
  const customer = newCustomer(`reset-${tag}`);
  const newPassword = 'brand-new-password-2';
  const page = await open();
  await customerOnDashboard(page, customer);
  await logOut(page);
  // Another device stays signed in until the reset.
  const otherDevice = await open();
  await logIn(otherDevice, customer.email, customer.password);
  await expect(otherDevice).toHaveURL(/\/dashboard$/);
  await otherDevice.goto('/settings');
  await expect(otherDevice.getByRole('heading', { name: 'Settings' })).toBeVisible();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await page.getByLabel('Email').fill(customer.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText(`If registered, a reset link will be sent to ${customer.email}`)).toBeVisible();

  // The link as mailed: the page drops the token from the address bar once read, possibly before
  // goto() returns, so page.url() could already be the bare /reset-password.
  const resetUrl = await mailboxLink(page, customer.email, /\/reset-password\?token=/);
  await page.goto(resetUrl);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  // The token leaves the address bar once read.
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel('Confirm new password').fill('something-else');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page).toHaveURL(/\/login\?message=password_updated$/);
  await expect(page.getByText('Password updated!')).toBeVisible();

  // Every session ended: the other device is told at its next session check and sent home. Its
  // person coming back to the tab makes that check now; its 30 s check may come first, and a click
  // on a page it is leaving would wait for ever, so the check is started without one.
  await otherDevice.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
  await expect(otherDevice.getByText('Session Expired')).toBeVisible({ timeout: 35_000 });
  await expect(otherDevice.getByText('Please log in again to continue.')).toBeVisible();
  await expect(otherDevice).toHaveURL(/\/$/);
  await expect(otherDevice.getByRole('link', { name: 'Login' })).toBeVisible();

  // The link is single-use.
  await page.goto(resetUrl);
  await expect(page.getByText('This password reset link is invalid. Please request a new one.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request New Reset Link' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/reset-password');
  await expect(page.getByText('Invalid reset link. Missing authentication tokens.')).toBeVisible();

  await logIn(page, customer.email, customer.password);
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await logIn(page, customer.email, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(errors).toEqual([]);
});

test('email change: the link to the new address changes the login email', async ({ people: { open, errors } }) => {
  const customer = newCustomer(`change-${tag}`);
  const newEmail = `moved-${tag}@example.test`;
  const page = await open();
  await customerOnDashboard(page, customer);
  await page.goto('/settings');
  const card = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Change Email Address' }) });
  await expect(card.getByLabel('Current email')).toHaveValue(customer.email);
  await card.getByLabel('New email').fill(newEmail);
  await card.getByLabel('Current password').fill('wrong-password');
  await card.getByRole('button', { name: 'Change Email' }).click();
  await expect(card.getByText('Your current password is incorrect.')).toBeVisible();
  await card.getByLabel('Current password').fill(customer.password);
  await card.getByRole('button', { name: 'Change Email' }).click();
  await expect(page.getByText('Email Update Requested')).toBeVisible();

  // The current address gets a notice; the new one gets the link.
  await page.goto('/dev/mailbox');
  await expect(
    page
      .getByRole('article')
      .filter({ hasText: `To: ${customer.email}` })
      .first(),
  ).toContainText(newEmail);
  await page.goto(await mailboxLink(page, newEmail, /\/auth-redirect\?token=/));
  await expect(page.getByText('Email updated!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  await logOut(page);
  await logIn(page, customer.email, customer.password);
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await logIn(page, newEmail, customer.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/settings');
  await expect(page.getByLabel('Current email')).toHaveValue(newEmail);
  expect(errors).toEqual([]);
});

test('a signed-in business without a profile is sent to the logged-in profile form and completes it', async ({
  people: { open, errors },
}) => {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  test.skip(!databaseUrl, 'needs PostgreSQL (E2E_DATABASE_URL) to create an account without a profile');
  const email = `incomplete-${tag}@example.test`;
  const password = 'owner-password-1';
  const sql = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
  try {
    const hash = await hashPassword(password);
    await sql`insert into users (email, password_hash, role, name, email_verified_at)
              values (${email}, ${hash}, 'business', 'Ida Owner', now())`;
  } finally {
    await sql.end();
  }
  const page = await open();
  await logIn(page, email, password);
  await expect(page).toHaveURL(/\/complete-business-profile$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  // Protected and guest-only routes both lead back here while the profile is incomplete.
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/complete-business-profile$/);
  await page.goto('/register');
  await expect(page).toHaveURL(/\/complete-business-profile$/);

  await page.getByRole('button', { name: 'Complete Profile' }).click();
  await expect(page.getByText('Business name is required').first()).toBeVisible();
  await page.getByLabel('Business name').fill(`Ida Nails ${tag}`);
  await expect(page.getByText(`/ida-nails-${tag}`)).toBeVisible();
  await page.getByLabel('Description').fill('Gel and acrylic nails.');
  await page.getByLabel('Address').fill('9 Quay Street, Bristol, BS1 4DB');
  await page.getByRole('button', { name: 'Complete Profile' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: `Ida Nails ${tag}` })).toBeVisible();
  expect(errors).toEqual([]);
});
