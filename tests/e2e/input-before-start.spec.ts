/**
 * What a person types into a server-rendered form before the app runs is kept once it runs, and is
 * what the form sends (client/lib/input-before-start.ts, ADR 0098): on a slow phone (`slowPhone`:
 * the CPU throttled 6x, the app's script held back until the typing is done), the sign-up, sign-in
 * and contact forms are filled before the app runs, the app is let through, and once it has
 * hydrated the page the fields still show the typed values and the request sent carries them.
 */
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { MSG } from '../../shared/messages';
import { newCustomer, people, signIn, type CustomerAccount, type OpenOptions } from './helpers';
import { HYDRATED_MS, slowPhone } from './slow-phone';

test.describe.configure({ timeout: 180_000 });
const tag = `i${Date.now().toString(36)}`;
/** An account that signs in on the sign-in form. */
const member = newCustomer(`${tag}-member`);

test.beforeAll(async ({ browser }) => {
  const { open, closeAll } = people(browser);
  try {
    await signIn(await open(), member);
  } finally {
    await closeAll();
  }
});

/** A phone 375 px wide. */
const PHONE: OpenOptions = { context: { viewport: { width: 375, height: 812 } } };

/**
 * Opens `path` on a slow phone without waiting for the app (its script is held back, so the page
 * never finishes loading until `release`): returns once the server's HTML has come.
 */
async function openBeforeApp(open: (options?: OpenOptions) => Promise<Page>, path: string, account?: CustomerAccount) {
  const phone = await slowPhone(open, PHONE);
  if (account) await signIn(phone.page, account);
  // The frame's own goto: the page's (helpers.ts) would wait for the app.
  await phone.page.mainFrame().goto(path, { waitUntil: 'commit' });
  return phone;
}

/** Whether the app has hydrated the page. */
function appRunning(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.hasAttribute('data-app-running'));
}

/** The input of the tRPC mutation `procedure` that `request` sends (a batch of one, superjson). */
function mutationInput(request: Request): Record<string, unknown> {
  const body = request.postDataJSON() as Record<string, { json: Record<string, unknown> }>;
  return body['0']!.json;
}

/** Waits for the app to take over the page (after `release`). */
async function appTakesOver(page: Page) {
  await expect.poll(() => appRunning(page), { timeout: HYDRATED_MS }).toBe(true);
}

test('the customer sign-up form typed before the app runs sends what was typed', async ({
  people: { open, errors },
}) => {
  const customer = newCustomer(`${tag}-signup`);
  const { page, release } = await openBeforeApp(open, '/register?role=customer');
  const name = page.getByLabel('Full name');
  await expect(name).toBeVisible();
  expect(await appRunning(page)).toBe(false);
  await name.fill(customer.name);
  await page.getByLabel('Email').pressSequentially(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  expect(await appRunning(page)).toBe(false);

  release();
  await appTakesOver(page);
  const create = page.getByRole('button', { name: 'Create Account' });
  await expect(create).toBeEnabled({ timeout: HYDRATED_MS });
  await expect(name).toHaveValue(customer.name);
  await expect(page.getByLabel('Email')).toHaveValue(customer.email);
  const sent = page.waitForRequest((r) => r.url().includes('/trpc/auth.registerCustomer'), {
    timeout: HYDRATED_MS,
  });
  await create.click();
  expect(mutationInput(await sent)).toEqual({
    name: customer.name,
    email: customer.email,
    password: customer.password,
  });
  await expect(page).toHaveURL(/\/check-email/, { timeout: HYDRATED_MS });
  expect(errors).toEqual([]);
});

test('the sign-in form typed before the app runs signs in with what was typed', async ({
  people: { open, errors },
}) => {
  const { page, release } = await openBeforeApp(open, '/login');
  const email = page.getByLabel('Email');
  await expect(email).toBeVisible();
  expect(await appRunning(page)).toBe(false);
  await email.fill(member.email);
  await page.getByLabel('Password').pressSequentially(member.password);
  expect(await appRunning(page)).toBe(false);

  release();
  await appTakesOver(page);
  await expect(email).toHaveValue(member.email);
  const sent = page.waitForRequest((r) => r.url().includes('/trpc/auth.login'), { timeout: HYDRATED_MS });
  await page.getByRole('button', { name: 'Log In' }).click();
  expect(mutationInput(await sent)).toMatchObject({ email: member.email, password: member.password });
  await expect(page).toHaveURL(/\/dashboard/, { timeout: HYDRATED_MS });
  expect(errors).toEqual([]);
});

test('the contact form typed before the app runs sends what was typed', async ({ people: { open, errors } }) => {
  const subject = `Typed early ${tag}`;
  const message = 'Two lines,\ntyped before the page had loaded.';
  const { page, release } = await openBeforeApp(open, '/contact', newCustomer(`${tag}-contact`));
  const subjectField = page.getByRole('textbox', { name: 'Subject' });
  await expect(subjectField).toBeVisible({ timeout: HYDRATED_MS });
  expect(await appRunning(page)).toBe(false);
  await subjectField.pressSequentially(subject);
  await page.getByRole('textbox', { name: 'Message' }).fill(message);
  expect(await appRunning(page)).toBe(false);

  release();
  await appTakesOver(page);
  await expect(page.getByText(`${message.length} / `)).toBeVisible({ timeout: HYDRATED_MS });
  const sent = page.waitForRequest((r) => r.url().includes('/trpc/contact.send'), { timeout: HYDRATED_MS });
  await page.getByRole('button', { name: 'Send Message' }).click();
  expect(mutationInput(await sent)).toEqual({ subject, message });
  await expect(page.getByText(MSG.contactSent)).toBeVisible({ timeout: HYDRATED_MS });
  expect(errors).toEqual([]);
});
