/**
 * The signed-in area's navigation (the sidebars and the phone menu), the QR code page and 'Get in
 * Touch' in real Chromium: a business moves around with its sidebar, copies, downloads and prints
 * its QR code and writes to support; a customer is sent away from /qrcode, has no QR Code entry,
 * and writes to support; both messages reach the support address in the dev mailbox.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { businessOnDashboard, customerOnDashboard, newBusiness, newCustomer } from './helpers';

const tag = Date.now().toString(36);
const business = newBusiness(`qr${tag}`);
const customer = newCustomer(`qr${tag}`);
const SUPPORT = 'support@lastslot.local';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Sends a message from /contact and checks the success toast and the cleared form. */
async function sendMessage(page: Page, subject: string, message: string) {
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill(message);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Message Sent!')).toBeVisible();
  await expect(page.getByText("Thank you for your feedback. We'll be in touch soon.")).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveValue('');
}

/** The dev mailbox message to support with `subject`. */
async function supportMessage(page: Page, subject: string) {
  await page.goto('/dev/mailbox');
  const article = page.getByRole('article', { name: `LastSlot contact: ${subject}` });
  await expect(article).toBeVisible();
  await expect(article).toContainText(`To: ${SUPPORT}`);
  return article;
}

/** The 'Label: value' line of a contact email's details (a paragraph of the React Email template). */
function detail(mail: Locator, label: string) {
  return mail.getByRole('paragraph').filter({ hasText: new RegExp(`^${label}:`) });
}

/** Opens the phone menu and returns the names of its links and buttons. */
async function phoneMenuEntries(page: Page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#mobile-menu');
  await expect(menu).toBeVisible();
  // Text entries only (the social links are icons).
  const texts = await menu.getByRole('link').or(menu.getByRole('button')).allInnerTexts();
  return texts.map((t) => t.trim()).filter(Boolean);
}

test('a business uses its sidebar, copies, downloads and prints its QR code, and writes to support', async ({
  people: { open, errors },
  baseURL,
}) => {
  const page = await open();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await businessOnDashboard(page, business);

  // The sidebar: the business name and its four entries.
  const sidebar = page.getByRole('navigation', { name: 'Business navigation' });
  await expect(sidebar).toBeVisible();
  await expect(sidebar).toContainText(business.businessName);
  await expect(sidebar.getByRole('link')).toHaveText(['Dashboard', 'QR Code', 'Settings', 'Get in Touch']);
  await expect(sidebar.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');

  // The QR code page.
  await sidebar.getByRole('link', { name: 'QR Code' }).click();
  await expect(page).toHaveURL(/\/qrcode$/);
  await expect(page.getByRole('heading', { name: 'QR Code', level: 1 })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'QR Code' })).toHaveAttribute('aria-current', 'page');
  const link = `${baseURL}/${business.slug}`;
  const image = page.getByRole('img', { name: `QR code for ${link}` });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([400, 400]);
  await expect(page.getByLabel('Booking link')).toHaveValue(link);
  await expect(page.getByRole('link', { name: /Preview your booking page/ })).toHaveAttribute(
    'href',
    `/${business.slug}`,
  );

  // Copy.
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Link Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // Download: {slug}.png, a PNG.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download QR Code' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${business.slug}.png`);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  await expect(page.getByText('QR Code Downloaded')).toBeVisible();

  // Print: a view with the business name, the code, 'Scan to book an appointment' and the link.
  const [printView] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Print QR Code' }).click(),
  ]);
  await expect(printView.getByRole('heading', { name: business.businessName })).toBeVisible();
  await expect(printView.getByText('Scan to book an appointment')).toBeVisible();
  await expect(printView.getByText(link, { exact: true })).toBeVisible();
  await expect(printView.getByRole('img', { name: `QR code for ${link}` })).toBeVisible();
  await printView.close();

  // A blocked pop-up: 'Print Failed'.
  await page.evaluate(() => {
    window.open = () => null;
  });
  await page.getByRole('button', { name: 'Print QR Code' }).click();
  await expect(page.getByText('Print Failed')).toBeVisible();

  // /dashboard/qrcode is the same page.
  await page.goto('/dashboard/qrcode');
  await expect(page).toHaveURL(/\/qrcode$/);
  await expect(page.getByRole('img', { name: `QR code for ${link}` })).toBeVisible();

  // Get in Touch: the required fields, then a message to support.
  await sidebar.getByRole('link', { name: 'Get in Touch' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('heading', { name: 'Get in Touch', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Subject is required')).toBeVisible();
  await expect(page.getByText('Message is required')).toBeVisible();
  await sendMessage(page, `Poster sizes ${tag}`, 'Can I print the code as an A3 poster?');

  await sidebar.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(sidebar.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
  await sidebar.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const mail = await supportMessage(page, `Poster sizes ${tag}`);
  await expect(detail(mail, 'Name')).toContainText(business.name);
  await expect(detail(mail, 'Email')).toContainText(business.email);
  await expect(detail(mail, 'Role')).toContainText('Business');
  await expect(detail(mail, 'Business')).toContainText(business.businessName);
  await expect(mail).toContainText('Can I print the code as an A3 poster?');

  // On a phone: no sidebar; the menu lists the four entries and Logout.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/qrcode');
  await expect(page.getByRole('img', { name: `QR code for ${link}` })).toBeVisible();
  await expect(sidebar).toBeHidden();
  expect(await phoneMenuEntries(page)).toEqual([
    'Discover',
    'Dashboard',
    'QR Code',
    'Settings',
    'Get in Touch',
    'Logout',
  ]);
  await page.locator('#mobile-menu').getByRole('link', { name: 'Get in Touch' }).click();
  await expect(page).toHaveURL(/\/contact$/);

  expect(errors).toEqual([]);
});

test('a customer is sent away from the QR page, has no QR Code entry, and writes to support', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await customerOnDashboard(page, customer);

  const sidebar = page.getByRole('navigation', { name: 'Account navigation' });
  await expect(sidebar).toBeVisible();
  await expect(sidebar).toContainText(customer.name);
  await expect(sidebar.getByRole('link')).toHaveText(['Dashboard', 'Settings', 'Get in Touch']);

  await page.goto('/qrcode');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/qrcode');
  await expect(page).toHaveURL(/\/dashboard$/);

  await sidebar.getByRole('link', { name: 'Get in Touch' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByText(`We will reply to ${customer.email}.`)).toBeVisible();
  await sendMessage(page, `Rescheduling ${tag}`, 'How do I move my appointment?');

  const mail = await supportMessage(page, `Rescheduling ${tag}`);
  await expect(detail(mail, 'Name')).toContainText(customer.name);
  await expect(detail(mail, 'Email')).toContainText(customer.email);
  await expect(detail(mail, 'Role')).toContainText('Customer');
  await expect(detail(mail, 'Business')).toHaveCount(0);
  await expect(mail).toContainText('How do I move my appointment?');

  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/settings');
  await expect(sidebar).toBeHidden();
  expect(await phoneMenuEntries(page)).toEqual(['Discover', 'Dashboard', 'Settings', 'Get in Touch', 'Logout']);
  await page.locator('#mobile-menu').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  expect(errors).toEqual([]);
});
