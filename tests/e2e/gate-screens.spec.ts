/**
 * The signed-in area's gate screens that need a slow network or an account our server never
 * produces (the gate of /dashboard, /settings and /qrcode): a slow auth check ('Loading Timeout'),
 * a visitor whose auth check answers after the route guard gave up ('Authentication Required'), an
 * account with no role ('Role Selection Required') or an unknown one ('Permission Error', 'Access
 * Denied'). auth.me is delayed or its real answer rewritten on the way in; every other call is
 * real. The server renders a page with its own answer, so these screens are reached as the browser's
 * router reaches them: by a link inside the running app, once the answer the page came with is more
 * than 30 s old (the guards' limit), so the guard asks again; or, for 'Loading Timeout', on a page
 * the server rendered without an answer because its session read was held up (docs/decisions/0088).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { MSG } from '../../shared/messages';
import { customerOnDashboard, navigateInApp, newCustomer, openAndAge, withSessionsLocked } from './helpers';
import { rewriteAnswer, unlessTornDown } from './trpc-stubs';

const tag = Date.now().toString(36);

interface MeOutput {
  user: { role: string | null } | null;
  authState: string;
}

const rewriteMe = (page: Page, edit: (me: MeOutput) => MeOutput) => rewriteAnswer<MeOutput>(page, 'auth.me', edit);

/** A confirmed customer, signed in, on /dashboard. */
async function signedInCustomer(open: () => Promise<Page>, suffix: string) {
  const page = await open();
  await customerOnDashboard(page, newCustomer(`${tag}${suffix}`));
  return page;
}

test('an unknown role sees Permission Error on /dashboard and /settings, Access Denied on /qrcode', async ({
  people: { open, errors },
}) => {
  const page = await signedInCustomer(open, 'a');
  await openAndAge(page, '/contact');
  await rewriteMe(page, (me) => ({ ...me, user: me.user && { ...me.user, role: 'admin' } }));

  await navigateInApp(page, '/dashboard');
  await expect(page.getByRole('heading', { name: MSG.permissionErrorTitle })).toBeVisible();
  await expect(page.getByText(MSG.permissionError)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();

  await navigateInApp(page, '/settings');
  await expect(page.getByText(MSG.permissionErrorTitle, { exact: true })).toBeVisible();
  await expect(page.getByText(MSG.permissionError)).toBeVisible();

  await navigateInApp(page, '/qrcode');
  await expect(page.getByText(MSG.qrAccessDeniedTitle, { exact: true })).toBeVisible();
  await expect(page.getByText(MSG.qrAccessDenied)).toBeVisible();
  await expect(page.locator('img[alt*="QR"]')).toHaveCount(0);

  expect(errors).toEqual([]);
});

test('an account without a role is asked to choose one; a customer is sent away from /qrcode', async ({
  people: { open, errors },
}) => {
  const page = await signedInCustomer(open, 'b');

  // A customer on the QR page goes to the dashboard.
  await page.goto('/qrcode');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Your Appointments' })).toBeVisible();

  await rewriteMe(page, (me) => ({ ...me, user: me.user && { ...me.user, role: null } }));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: MSG.roleSelectionTitle })).toBeVisible();
  await expect(page.getByText(MSG.roleSelection)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Choose a role' })).toHaveAttribute('href', '/register');

  expect(errors).toEqual([]);
});

test('a slow auth check shows Loading Timeout, then the dashboard once it answers', async ({
  people: { open, errors },
}) => {
  test.skip(!process.env.E2E_DATABASE_URL, 'needs PostgreSQL (E2E_DATABASE_URL) to hold the sessions table locked');
  const page = await signedInCustomer(open, 'c');
  let delayMs = 5_000;
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('auth.me'),
    async (route) => {
      await new Promise((r) => setTimeout(r, delayMs));
      await unlessTornDown(() => route.continue());
    },
  );
  // The sessions table is locked while /dashboard loads: the server stops waiting for the session.
  await withSessionsLocked(() => page.goto('/dashboard'));
  // The server's loading screen stays in the page, hidden, once the browser's shows.
  await expect(page.getByText('Loading dashboard...').filter({ visible: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: MSG.loadingTimeoutTitle })).toBeVisible();
  await expect(page.getByText(MSG.loadingTimeout)).toBeVisible();
  // Who is signed in is not known yet (auth.me is still held back): the header offers neither
  // Login nor Logout. Counted now, not awaited, since the answer will change the header.
  const header = page.getByRole('banner');
  expect(await header.getByRole('link', { name: 'Login' }).count()).toBe(0);
  expect(await header.getByRole('button', { name: 'Logout' }).count()).toBe(0);
  delayMs = 0;
  await expect(page.getByRole('heading', { name: 'Your Appointments' })).toBeVisible({ timeout: 15_000 });
  await expect(header.getByRole('button', { name: 'Logout' })).toBeVisible();

  expect(errors).toEqual([]);
});

test('a visitor whose auth check answers after the guard gave up sees Authentication Required', async ({
  people: { open, errors },
}) => {
  const page = await open();
  // The route guard waits 2 s for auth.me, then leaves the answer to the gate (ADR 0011); the
  // late answer is 'unregistered', which the gate shows as its own screen. Delayed from the start,
  // so the session check the aged clock sets off is still on its way when the guard asks.
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('auth.me'),
    async (route) => {
      await new Promise((r) => setTimeout(r, 3_000));
      await unlessTornDown(() => route.continue());
    },
  );
  await openAndAge(page, '/login');
  await navigateInApp(page, '/dashboard');
  await expect(page.getByRole('heading', { name: MSG.authRequiredGateTitle })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(MSG.authRequiredGate)).toBeVisible();
  await page.getByRole('link', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/login$/);

  expect(errors).toEqual([]);
});
