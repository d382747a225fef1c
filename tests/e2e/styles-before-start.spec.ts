/**
 * A server-rendered page is styled before its app runs, also where its screen's code is a chunk of
 * its own: the page's head links the style sheets of its matched routes' chunks besides the
 * entry's (server/http/pages.ts `assetTags`). On a slow phone with the app's script held back
 * (slow-phone.ts), the sign-up form's radios and password field show with their own styles; once
 * the app runs, its loader links no sheet a second time.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { appRunning, appTakesOver, openBeforeApp } from './slow-phone';

/** The sign-up form's own styles: Mantine's radios (Radio.css) and password field (PasswordInput.css). */
async function expectSignUpStyled(page: Page) {
  const radio = page.getByRole('radio', { name: 'Customer', exact: true });
  // Mantine's drawn radio, not the browser's own.
  await expect(radio).toHaveCSS('appearance', 'none');
  await expect(radio).toHaveCSS('cursor', 'pointer');
  // The password's input lies borderless over the field's box, beside the show/hide toggle.
  const password = page.getByLabel('Password');
  await expect(password).toHaveCSS('position', 'absolute');
  await expect(password).toHaveCSS('border-top-width', '0px');
}

test('the sign-up form is styled before the app runs, and its sheets are linked once', async ({
  people: { open, errors },
}) => {
  const { page, release } = await openBeforeApp(open, '/register?role=customer');
  await expect(page.getByLabel('Full name')).toBeVisible();
  expect(await appRunning(page)).toBe(false);
  await expectSignUpStyled(page);

  release();
  await appTakesOver(page);
  await expectSignUpStyled(page);
  const sheets = await page
    .locator('link[rel="stylesheet"]')
    .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(sheets.length).toBeGreaterThan(1);
  expect(sheets).toEqual([...new Set(sheets)]);
  expect(errors).toEqual([]);
});
