/**
 * Favourites: a visitor is asked to sign in, a customer favourites a business from its page and
 * removes it from the dashboard panel; the owner sees no favourite button.
 */
import { expect, test } from './fixtures';
import { businessOnDashboard, customerOnDashboard, newBusiness, newCustomer } from './helpers';

const tag = `f${Date.now().toString(36)}`;

test('a customer favourites a business and removes it again', async ({ people: { open, errors } }) => {
  const business = newBusiness(tag);
  const customer = newCustomer(tag);
  const biz = await open();
  await businessOnDashboard(biz, business);
  await biz.goto(`/${business.slug}`);
  await expect(biz.getByRole('heading', { name: business.businessName })).toBeVisible();
  await expect(biz.getByRole('button', { name: /^Favourite/ })).toHaveCount(0);

  const page = await open();
  await page.goto(`/${business.slug}`);
  await page.getByRole('button', { name: 'Favourite · 0' }).click();
  const signIn = page.getByRole('dialog');
  await expect(signIn.getByRole('link', { name: 'Create an Account' })).toBeVisible();
  await signIn.getByRole('link', { name: 'Create an Account' }).click();
  await expect(page).toHaveURL(/\/register\?role=customer$/);
  await expect(page.getByRole('radio', { name: 'Customer' })).toBeChecked();
  // The sign-up screens have their own journeys: the new account is made without them.
  await customerOnDashboard(page, customer);
  await expect(page.getByText('No favourite businesses yet')).toBeVisible();

  await page.goto(`/${business.slug}`);
  await page.getByRole('button', { name: 'Favourite · 0' }).click();
  await expect(page.getByRole('button', { name: 'Favourited · 1' })).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Favourited · 1' })).toBeVisible();

  await page.goto('/dashboard');
  const row = page.getByTestId('favourite-row').filter({ hasText: business.businessName });
  await expect(row.getByRole('link', { name: business.businessName })).toHaveAttribute('target', '_blank');
  await expect(row.getByRole('link', { name: business.businessName })).toHaveAttribute('href', `/${business.slug}`);
  await row.getByRole('button', { name: `Remove ${business.businessName} from favourites` }).click();
  await expect(page.getByText('Removed from favourites')).toBeVisible();
  await expect(page.getByText('No favourite businesses yet')).toBeVisible();

  await page.goto(`/${business.slug}`);
  await expect(page.getByRole('button', { name: 'Favourite · 0' })).toHaveAttribute('aria-pressed', 'false');
  expect(errors).toEqual([]);
});
