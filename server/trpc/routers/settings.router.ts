/**
 * Business and customer settings (dashboards spec §2 "Business settings cards", "Customer settings
 * cards", §5 "Business profile save", "Customer profile", §7 "Profiles", §8 "Settings"). Account
 * cards (email, password) live in the auth router; billing, export and deletion in their own
 * routers.
 */
import {
  checkBusinessSlugInput,
  updateBusinessHoursInput,
  updateBusinessProfileInput,
  updateCustomerNameInput,
} from '../../../shared/schemas/settings';
import {
  checkBusinessSlug,
  getBusinessSettings,
  updateBusinessHours,
  updateBusinessProfile,
} from '../../features/settings/business-settings.service';
import { getCustomerSettings, updateCustomerName } from '../../features/settings/customer-settings.service';
import { businessProcedure, customerProcedure } from '../procedures';
import { router } from '../trpc';

export const settingsRouter = router({
  /**
   * The signed-in business's settings: businessName, slug, category, description, address,
   * phoneNumber, emailAddress, timezone, contactName, accountEmail, schedule (weekly form) and
   * showBilling. NOT_FOUND 'Could not load your business profile' (title 'Error loading profile');
   * FORBIDDEN for customers; UNAUTHORIZED for visitors.
   */
  business: businessProcedure.query(({ ctx }) => getBusinessSettings(ctx, ctx.user.id)),

  /**
   * Business URL availability: { status: 'valid' } or { status: 'invalid' | 'taken', message }.
   * The business's own slug is valid. FORBIDDEN for customers; UNAUTHORIZED for visitors.
   */
  checkSlug: businessProcedure
    .input(checkBusinessSlugInput)
    .query(({ ctx, input }) => checkBusinessSlug(ctx, ctx.user.id, input.slug)),

  /**
   * Saves Business Information. Input: businessName, slug, contactName, category, description,
   * address/phone/email (empty → null), timezone. Output { slug, slugChanged }. BAD_REQUEST with
   * the field's 'X is required' / format message; BAD_REQUEST 'This URL is reserved…'; CONFLICT
   * 'This business name or slug is already in use by another business.'; NOT_FOUND without a
   * profile; FORBIDDEN for customers; UNAUTHORIZED for visitors.
   */
  updateBusinessProfile: businessProcedure
    .input(updateBusinessProfileInput)
    .mutation(({ ctx, input }) => updateBusinessProfile(ctx, ctx.user.id, input)),

  /**
   * Saves Business Hours from the weekly schedule (active days only). Output { openingHours }.
   * BAD_REQUEST 'Closing time must be after opening time'; NOT_FOUND without a profile; FORBIDDEN
   * for customers; UNAUTHORIZED for visitors.
   */
  updateBusinessHours: businessProcedure
    .input(updateBusinessHoursInput)
    .mutation(({ ctx, input }) => updateBusinessHours(ctx, ctx.user.id, input.schedule)),

  /**
   * The signed-in customer's Personal Information: { fullName, email }. NOT_FOUND 'Could not load
   * your profile information' (title 'Error loading profile'); FORBIDDEN for businesses;
   * UNAUTHORIZED for visitors.
   */
  customer: customerProcedure.query(({ ctx }) => getCustomerSettings(ctx, ctx.user.id)),

  /**
   * 'Update Name': { fullName } (trimmed) → { fullName }; the profile's full name and the account's
   * name change together. BAD_REQUEST 'Full name is required'; FORBIDDEN for businesses;
   * UNAUTHORIZED for visitors.
   */
  updateCustomerName: customerProcedure
    .input(updateCustomerNameInput)
    .mutation(({ ctx, input }) => updateCustomerName(ctx, ctx.user.id, input)),
});
