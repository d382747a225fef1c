/**
 * What a person types into a server-rendered form before the app runs is kept once it runs, and is
 * what the form sends (client/lib/input-before-start.ts, ADR 0098): on a slow phone (`slowPhone`:
 * the CPU throttled 6x, the app's script held back until the typing is done), the sign-up, sign-in
 * and contact forms are filled before the app runs, the app is let through, and once it has
 * hydrated the page the fields still show the typed values and the request sent carries them.
 * A form sent before the app runs (client/lib/hold-before-start.ts, ADR 0105: the sign-up form
 * with Enter, the sign-in and contact forms with their buttons) is held: the page is not reloaded
 * (the fields keep what was typed, the button shows it was taken), and once the app runs the
 * request it sends carries the typed values and the page shows the app's answer. A select's list
 * tapped before the app runs (the add-slot form's Date) is held the same way and opens once it runs.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { MSG } from '../../shared/messages';
import { newBusiness, newCustomer, people, pick, signIn } from './helpers';
import { appRunning, appTakesOver, HYDRATED_MS, mutationInput, openBeforeApp, PENDING } from './slow-phone';

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

/** /login on a slow phone, before the app runs (see `openBeforeApp`), and its email field. */
async function loginBeforeApp(open: Parameters<typeof openBeforeApp>[0]) {
  const phone = await openBeforeApp(open, '/login');
  const email = phone.page.getByLabel('Email');
  await expect(email).toBeVisible();
  expect(await appRunning(phone.page)).toBe(false);
  return { ...phone, email };
}

test('the sign-in form typed before the app runs signs in with what was typed', async ({
  people: { open, errors },
}) => {
  const { page, release, email } = await loginBeforeApp(open);
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

/**
 * Marks the page's document; the returned check says whether it is still the same one (a
 * browser's send of a form loads another).
 */
async function markDocument(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => Object.assign(window, { documentBeforeSend: true }));
  return () => page.evaluate(() => 'documentBeforeSend' in window);
}

test('the customer sign-up form sent with Enter before the app runs signs up with what was typed', async ({
  people: { open, errors },
}) => {
  const customer = newCustomer(`${tag}-signup`);
  const { page, release } = await openBeforeApp(open, '/register?role=customer');
  const name = page.getByLabel('Full name');
  await expect(name).toBeVisible();
  const sameDocument = await markDocument(page);
  await name.fill(customer.name);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').pressSequentially(customer.password);
  await page.getByLabel('Password').press('Enter');

  // Held, not sent by the browser: no reload, the fields keep their values, the button is taken.
  const create = page.getByRole('button', { name: 'Create Account' });
  await expect(create).toHaveAttribute(PENDING, '');
  await expect(create).toHaveAttribute('aria-busy', 'true');
  expect(await appRunning(page)).toBe(false);
  expect(await sameDocument()).toBe(true);
  await expect(name).toHaveValue(customer.name);

  const sent = page.waitForRequest((r) => r.url().includes('/trpc/auth.registerCustomer'), { timeout: HYDRATED_MS });
  release();
  await appTakesOver(page);
  expect(mutationInput(await sent)).toEqual({
    name: customer.name,
    email: customer.email,
    password: customer.password,
  });
  await expect(page).toHaveURL(/\/check-email/, { timeout: HYDRATED_MS });
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.locator(`[${PENDING}]`)).toHaveCount(0);
  // The app's own navigation, in the same document.
  expect(await sameDocument()).toBe(true);
  expect(errors).toEqual([]);
});

test('the sign-in form sent before the app runs shows the app’s answer to what was typed', async ({
  people: { open, errors },
}) => {
  const { page, release, email } = await loginBeforeApp(open);
  const sameDocument = await markDocument(page);
  await email.fill(member.email);
  await page.getByLabel('Password').fill(`${member.password}-wrong`);
  await page.getByRole('button', { name: 'Log In' }).click();
  expect(await appRunning(page)).toBe(false);
  expect(await sameDocument()).toBe(true);

  const sent = page.waitForRequest((r) => r.url().includes('/trpc/auth.login'), { timeout: HYDRATED_MS });
  release();
  await appTakesOver(page);
  expect(mutationInput(await sent)).toMatchObject({ email: member.email, password: `${member.password}-wrong` });
  await expect(page.getByText(MSG.loginInvalid)).toBeVisible({ timeout: HYDRATED_MS });
  await expect(email).toHaveValue(member.email);
  expect(await sameDocument()).toBe(true);

  // The app answers the next send itself.
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: HYDRATED_MS });
  expect(errors).toEqual([]);
});

for (const sentEarly of [false, true]) {
  test(`the contact form ${sentEarly ? 'sent' : 'typed'} before the app runs sends what was typed`, async ({
    people: { open, errors },
  }) => {
    const subject = `${sentEarly ? 'Sent' : 'Typed'} early ${tag}`;
    const message = 'Two lines,\ntyped before the page had loaded.';
    const account = newCustomer(`${tag}-contact-${sentEarly ? 'sent' : 'typed'}`);
    const { page, release } = await openBeforeApp(open, '/contact', account);
    const subjectField = page.getByRole('textbox', { name: 'Subject' });
    await expect(subjectField).toBeVisible({ timeout: HYDRATED_MS });
    const sameDocument = await markDocument(page);
    await subjectField.pressSequentially(subject);
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    const send = page.getByRole('button', { name: 'Send Message' });
    if (sentEarly) await send.click();
    expect(await appRunning(page)).toBe(false);
    expect(await sameDocument()).toBe(true);

    const sent = page.waitForRequest((r) => r.url().includes('/trpc/contact.send'), { timeout: 2 * HYDRATED_MS });
    release();
    await appTakesOver(page);
    if (!sentEarly) {
      await expect(page.getByText(`${message.length} / `)).toBeVisible({ timeout: HYDRATED_MS });
      await send.click();
    }
    expect(mutationInput(await sent)).toEqual({ subject, message });
    await expect(page.getByText(MSG.contactSent)).toBeVisible({ timeout: HYDRATED_MS });
    expect(await sameDocument()).toBe(true);
    expect(errors).toEqual([]);
  });
}

test("the business's add-slot form typed and its Date list tapped before the app runs adds the slot with what was typed", async ({
  people: { open, errors },
}) => {
  const description = `Typed early ${tag}`;
  const { page, release } = await openBeforeApp(open, '/dashboard', newBusiness(`${tag}-biz`));
  // The dashboard is in the server's HTML for a signed-in business, its add-slot form included.
  const field = page.getByRole('textbox', { name: 'Description' });
  await expect(field).toBeVisible({ timeout: HYDRATED_MS });
  expect(await appRunning(page)).toBe(false);
  await field.pressSequentially(description);
  // The Date list, tapped before the app runs, is held (shown as taken) and opens once it runs.
  const date = page.getByRole('combobox', { name: 'Date' });
  await date.click();
  await expect(date).toHaveAttribute(PENDING, '');
  expect(await appRunning(page)).toBe(false);

  release();
  await appTakesOver(page);
  const dates = page.getByRole('listbox', { name: 'Date' });
  await expect(dates).toBeVisible({ timeout: HYDRATED_MS });
  await expect(date).not.toHaveAttribute(PENDING);
  // Choices made once the app runs render the form again: the typed description stays.
  await dates.getByRole('option').last().click();
  await pick(page, 'Start time');
  await pick(page, 'End time');
  await expect(field).toHaveValue(description);
  const sent = page.waitForRequest((r) => r.url().includes('/trpc/slots.create'), { timeout: HYDRATED_MS });
  await page.getByRole('button', { name: 'Add Slot' }).click();
  expect(mutationInput(await sent)).toMatchObject({ description });
  await expect(page.getByText('Slot added successfully')).toBeVisible({ timeout: HYDRATED_MS });
  expect(errors).toEqual([]);
});
