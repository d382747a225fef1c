/**
 * More accounts journeys in real Chromium (docs/decisions/0010): business sign-up with the
 * username states, categories, default hours and the role's banner; the pending registration
 * across a reload and when corrupted; guard redirects; the login page's URL codes; /auth-redirect
 * without a token, with an error, and dropping its token from the address; signing out clearing
 * this tab's and other tabs' state; the reset request retry and the used reset link screen; the
 * resend failure text.
 */
import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  confirmFromMailbox,
  customerOnDashboard,
  fillCustomerSignUp,
  logIn,
  mailboxLink,
  newBusiness,
  newCustomer,
} from './helpers';
import { unlessTornDown } from './trpc-stubs';

const tag = Date.now().toString(36);

const BUSINESS_SENTENCE = 'You cannot add booking slots until you confirm your email address.';
const CUSTOMER_SENTENCE = 'You cannot make bookings until you confirm your email address.';

async function sessionItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => window.sessionStorage.getItem(k), key);
}

/** Holds every request matching `pattern` until `release()` is called. */
async function holdRequests(page: Page, pattern: string) {
  const held: Route[] = [];
  let open = false;
  await page.route(pattern, async (route) => {
    if (open) return route.continue();
    held.push(route);
  });
  return {
    count: () => held.length,
    async release() {
      open = true;
      for (const r of held.splice(0)) await unlessTornDown(() => r.continue());
    },
    async abort() {
      for (const r of held.splice(0)) await unlessTornDown(() => r.abort('connectionrefused'));
    },
  };
}

test('a business signs up: username states, categories, default hours, reload, banner with its sentence', async ({
  people: { open, errors },
}) => {
  const business = newBusiness(`more-${tag}`);
  const page = await open();
  await page.goto('/register');
  await page.getByLabel('Full name').fill(business.name);
  await page.getByLabel('Email').fill(business.email);
  await page.getByLabel('Password').fill(business.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/complete-business-profile$/);
  await page.getByLabel('Business name').fill(business.businessName);

  // The pending registration survives a reload (name and the derived username too).
  await page.reload();
  // The email shows as the pending account's and in the public contact email choice.
  await expect(page.getByText(business.email).first()).toBeVisible();
  await expect(page.getByLabel('Business name')).toHaveValue(business.businessName);

  // Categories: grouped, Hair Salon by default.
  const category = page.getByRole('combobox', { name: 'Category' });
  await expect(category).toHaveValue('Hair Salon');
  await category.click();
  const list = page.getByRole('listbox', { name: 'Category' });
  for (const group of ['Hair Services', 'Nails', 'Massage & Bodywork', 'Specialty Arts']) {
    await expect(list.getByText(group, { exact: true })).toBeVisible();
  }
  await list.getByRole('option', { name: 'Barber Shop', exact: true }).click();
  await expect(category).toHaveValue('Barber Shop');

  // Default hours: Monday to Friday 9:00 am to 5:00 pm; the weekend off, pre-filled 10 to 3.
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
    await expect(page.getByRole('switch', { name: day })).toBeChecked();
    await expect(page.getByRole('combobox', { name: `${day} opening time` })).toHaveValue('9:00 am');
    await expect(page.getByRole('combobox', { name: `${day} closing time` })).toHaveValue('5:00 pm');
  }
  for (const day of ['Saturday', 'Sunday']) {
    await expect(page.getByRole('switch', { name: day })).not.toBeChecked();
  }
  await page.getByRole('switch', { name: 'Saturday' }).dispatchEvent('click');
  await expect(page.getByRole('combobox', { name: 'Saturday opening time' })).toHaveValue('10:00 am');
  await expect(page.getByRole('combobox', { name: 'Saturday closing time' })).toHaveValue('3:00 pm');
  await page.getByRole('switch', { name: 'Saturday' }).dispatchEvent('click');
  await expect(page.getByRole('switch', { name: 'Saturday' })).not.toBeChecked();

  // Username states: invalid characters, taken (a reserved word), checking, available.
  const username = page.getByLabel('Username');
  await username.fill('bad_name');
  await expect(page.getByText('Only letters, numbers, and hyphens are allowed')).toBeVisible();
  await username.fill('dashboard');
  await expect(page.getByText('This username is already taken')).toBeVisible();
  const slow = await holdRequests(page, '**/trpc/auth.checkSlug**');
  await username.fill(business.slug);
  await expect(page.getByText('Checking availability...')).toBeVisible();
  await slow.release();
  await expect(page.getByText('This username is available')).toBeVisible();
  await page.unroute('**/trpc/auth.checkSlug**');

  // A check that takes over 8 s is marked invalid, with its own text.
  const stuck = await holdRequests(page, '**/trpc/auth.checkSlug**');
  await username.fill(`${business.slug}-x`);
  await expect(page.getByText('Checking availability...')).toBeVisible();
  await expect(page.getByText('Check timed out. Please try again.')).toBeVisible({ timeout: 15_000 });
  await stuck.abort();
  await page.unroute('**/trpc/auth.checkSlug**');
  await username.fill(business.slug);
  await expect(page.getByText('This username is available')).toBeVisible();

  await page.getByLabel('Description').fill('Short-notice cuts and colour.');
  await page.getByLabel('Address').fill('2 Market Row, Leeds, LS1 6DL');
  await page.getByRole('button', { name: 'Complete Profile' }).click();
  await expect(page.getByText('Business profile completed!')).toBeVisible();
  await expect(page.getByText(/Your business profile has been set up successfully/)).toBeVisible();
  await expect(page).toHaveURL(/\/check-email/);
  // Signed up: the pending registration (with its password) is gone; the banner names the role.
  expect(await sessionItem(page, 'pendingRegistration')).toBeNull();
  const banner = page.getByTestId('confirm-email-banner');
  await expect(banner.getByText('Please confirm your email!')).toBeVisible();
  await expect(banner.getByText(BUSINESS_SENTENCE)).toBeVisible();
  await page.reload();
  await expect(banner.getByText(BUSINESS_SENTENCE)).toBeVisible();
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toBeHidden();

  // A right password before confirming: the form's text and the business banner again.
  await logIn(page, business.email, business.password);
  await expect(page.getByText('Please confirm your email address before logging in')).toBeVisible();
  await expect(banner.getByText(BUSINESS_SENTENCE)).toBeVisible();
  await expect(banner.getByText('Please check your email and click the confirmation link to continue.')).toBeVisible();

  await confirmFromMailbox(page, business.email);
  await expect(banner).toBeHidden();
  // The stuck slug check was aborted on purpose; Chromium logs that as a failed resource.
  expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});

test('a customer who has not confirmed is told it cannot make bookings; a wrong password tells nothing', async ({
  people: { open, errors },
}) => {
  const customer = newCustomer(`more-${tag}`);
  const page = await open();
  await page.goto('/register?role=customer');
  await fillCustomerSignUp(page, customer);
  const banner = page.getByTestId('confirm-email-banner');
  await expect(banner.getByText(CUSTOMER_SENTENCE)).toBeVisible();

  // Another tab (no banner state) with a wrong password: no banner, no role.
  const other = await open();
  await logIn(other, customer.email, 'not-the-password');
  await expect(other.getByText('Invalid email or password')).toBeVisible();
  await expect(other.getByTestId('confirm-email-banner')).toBeHidden();
  await other.getByLabel('Password').fill(customer.password);
  await other.getByRole('button', { name: 'Log In' }).click();
  await expect(other.getByText('Please confirm your email address before logging in')).toBeVisible();
  await expect(other.getByTestId('confirm-email-banner').getByText(CUSTOMER_SENTENCE)).toBeVisible();

  // Resend failing without an answer: the page's own text, not the transport's.
  await page.route('**/trpc/auth.resendConfirmation**', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText('Failed to resend email')).toBeVisible();
  await expect(page.getByText('Failed to resend confirmation email. Please try again.')).toBeVisible();
  expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});

test('a corrupted pending registration sends /complete-business-profile to /register', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await page.goto('/register');
  for (const broken of [
    '{not json',
    JSON.stringify({ email: 'x@example.test', password: 'short', role: 'business' }),
  ]) {
    await page.evaluate((v) => window.sessionStorage.setItem('pendingRegistration', v), broken);
    await page.goto('/complete-business-profile');
    await expect(page).toHaveURL(/\/register$/);
  }
  expect(errors).toEqual([]);
});

test('guards: visitors go to /login; /auth-redirect with an error or no token; the login codes', async ({
  people: { open, errors },
}) => {
  const page = await open();
  for (const path of ['/qrcode', '/contact', '/dashboard/qrcode', '/dashboard/customer/settings', '/settings']) {
    await page.goto(path);
    await expect(page, `${path} for a visitor`).toHaveURL(/\/login$/);
  }
  // The landing page shows for a visitor.
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();

  await page.goto('/auth-redirect');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/auth-redirect?error=access_denied&error_description=Email+link+is+invalid+or+has+expired');
  await expect(page).toHaveURL(/\/login\?error=Email/);
  await expect(page.getByText('An unknown error occurred. Please try again.')).toBeVisible();
  await expect(page.getByText('Please check your credentials and try again.')).toBeVisible();

  const codes: Array<[string, string, string, string]> = [
    [
      'session_invalid',
      'Session Error',
      'Your session is invalid. Please log in again.',
      'Please try logging in again.',
    ],
    [
      'no_session',
      'Authentication Required',
      'Please log in to continue.',
      'Please check your credentials and try again.',
    ],
    [
      'invalid_role',
      'Account Setup Required',
      'Your account role is not properly configured. Please contact support.',
      'Please check your credentials and try again.',
    ],
    [
      'retry',
      'Please Try Again',
      'There was an issue with your session. Please log in again.',
      'Please try logging in again.',
    ],
    [
      'session_setup_failed',
      'Error',
      'An unknown error occurred. Please try again.',
      'Please check your credentials and try again.',
    ],
  ];
  for (const [code, title, text, bannerText] of codes) {
    await page.goto(`/login?error=${code}`);
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: text });
    await expect(toast, code).toBeVisible();
    await expect(toast.getByText(title, { exact: true })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: bannerText })).toBeVisible();
  }
  expect(errors).toEqual([]);
});

test('the confirmation link leaves the address at once; a reload then checks the session', async ({
  people: { open, errors },
}) => {
  const customer = newCustomer(`link-${tag}`);
  const page = await open();
  await page.goto('/register?role=customer');
  await fillCustomerSignUp(page, customer);
  const link = await mailboxLink(page, customer.email, /\/auth-redirect\?token=/);

  const held = await holdRequests(page, '**/trpc/auth.confirmEmail**');
  await page.goto(link);
  await expect(page.getByText('Confirming your email and setting up your account...')).toBeVisible();
  await expect(page).toHaveURL(/\/auth-redirect$/);
  await expect.poll(() => held.count()).toBe(1);
  await held.abort();
  await page.unroute('**/trpc/auth.confirmEmail**');
  // Aborted: the timeout code. A reload now has no token: nobody is signed in, so /login.
  await expect(page).toHaveURL(/\/login\?error=timeout$/);
  await page.goto('/auth-redirect');
  await expect(page).toHaveURL(/\/login$/);

  // The token was never used: the link still confirms and signs in.
  await page.goto(link);
  await expect(page.getByText('Welcome!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/auth-redirect');
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});

test('signed in: /, /login and /register lead to the dashboard; logout clears this and the other tab', async ({
  people: { open, errors },
}) => {
  const customer = newCustomer(`out-${tag}`);
  const page = await open();
  await customerOnDashboard(page, customer);
  for (const path of ['/', '/register', '/login']) {
    await page.goto(path);
    await expect(page, `${path} when signed in`).toHaveURL(/\/dashboard$/);
  }

  const second = await page.context().newPage();
  await second.goto('/settings');
  await expect(second.getByText(`Welcome, ${customer.name}`).first()).toBeVisible();
  for (const tab of [page, second]) {
    await tab.evaluate(() => {
      window.sessionStorage.setItem(
        'pendingRegistration',
        JSON.stringify({
          email: 'a@example.test',
          password: 'a-password-1',
          name: 'A',
          role: 'business',
          businessName: '',
          businessSlug: '',
        }),
      );
      window.sessionStorage.setItem('lastslot.checkEmail', 'a@example.test');
    });
  }
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(second).toHaveURL(/\/login$/);
  for (const tab of [page, second]) {
    expect(await sessionItem(tab, 'pendingRegistration')).toBeNull();
    expect(await sessionItem(tab, 'lastslot.checkEmail')).toBeNull();
  }
  expect(errors).toEqual([]);
});

test('forgot password retries once without an answer; a used or unknown reset link offers two ways on', async ({
  people: { open, errors },
}) => {
  const customer = newCustomer(`reset-${tag}`);
  const page = await open();
  await customerOnDashboard(page, customer);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Both attempts fail without an answer: the unexpected-error text.
  await page.goto('/forgot-password');
  await page.route('**/trpc/auth.requestPasswordReset**', (route) => route.abort('connectionrefused'));
  await page.getByLabel('Email').fill(customer.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('An unexpected error occurred. Please try again.')).toBeVisible();
  await page.unroute('**/trpc/auth.requestPasswordReset**');

  // The first attempt fails, the retry gets through.
  let attempts = 0;
  await page.route('**/trpc/auth.requestPasswordReset**', (route) => {
    attempts++;
    return attempts === 1 ? route.abort('connectionrefused') : route.continue();
  });
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText(`If registered, a reset link will be sent to ${customer.email}.`)).toBeVisible();
  expect(attempts).toBe(2);
  await page.unroute('**/trpc/auth.requestPasswordReset**');

  const link = await mailboxLink(page, customer.email, /\/reset-password\?token=/);
  await page.goto(link);
  await page.getByRole('textbox', { name: /^New password/ }).fill('a-newer-password-2');
  await page.getByLabel('Confirm new password').fill('a-newer-password-2');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page).toHaveURL(/\/login\?message=password_updated$/);

  for (const used of [link, '/reset-password?token=not-a-real-token']) {
    await page.goto(used);
    await expect(page.getByText('This password reset link is invalid. Please request a new one.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request New Reset Link' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Login' })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Request New Reset Link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.goBack();
  await page.getByRole('link', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});
