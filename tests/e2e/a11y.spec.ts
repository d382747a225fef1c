/**
 * Automated accessibility check (issue 6): axe-core over the landing page, login, register, a
 * public business page, both dashboards and settings, at desktop and phone width. Zero serious or
 * critical violations; no page wider than the screen at 375 px.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  confirmFromMailbox,
  fillCustomerSignUp,
  newBusiness,
  newCustomer,
  people,
  signUpBusiness,
  type BusinessAccount,
} from './helpers';

const tag = `a${Date.now().toString(36)}`;

async function expectAccessible(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `${name}: serious or critical axe violations`).toEqual([]);
  const overflows = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  expect(overflows, `${name}: wider than the screen`).toBe(false);
}

async function checkPages(page: Page, business: BusinessAccount, role: 'business' | 'customer') {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expectAccessible(page, `${role} dashboard`);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
  await expectAccessible(page, `${role} settings`);
  await page.goto(`/${business.slug}`);
  await expect(page.getByRole('heading', { name: business.businessName })).toBeVisible();
  await expectAccessible(page, `public page seen by a ${role}`);
}

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 375, height: 740 }],
] as const) {
  test(`pages have no serious accessibility violations (${label})`, async ({ browser }) => {
    const { open, errors, closeAll } = people(browser);
    const business = newBusiness(`${tag}${label[0]}`);
    const customer = newCustomer(`${tag}${label[0]}`);
    try {
      const visitor = await open();
      await visitor.setViewportSize(viewport);
      for (const path of ['/', '/login', '/register', '/forgot-password']) {
        await visitor.goto(path);
        await expectAccessible(visitor, path);
      }

      const biz = await open();
      await biz.setViewportSize(viewport);
      await signUpBusiness(biz, business);
      await confirmFromMailbox(biz, business.email);
      await checkPages(biz, business, 'business');

      await visitor.goto(`/${business.slug}`);
      await expectAccessible(visitor, 'public page seen by a visitor');

      const cust = await open();
      await cust.setViewportSize(viewport);
      await cust.goto('/register?role=customer');
      await fillCustomerSignUp(cust, customer);
      await confirmFromMailbox(cust, customer.email);
      await checkPages(cust, business, 'customer');
      expect(errors).toEqual([]);
    } finally {
      await closeAll();
    }
  });
}
