/**
 * Input schemas of business settings, data export and account deletion, with the settings forms'
 * messages. Used by the tRPC procedures and by the settings forms.
 */
import { z } from 'zod';
import { ALL_CATEGORIES } from '../categories';
import { MSG } from '../messages';
import { isValidTimezone } from '../zoned-time';
import { contactEmailSchema, nameSchema, weeklyScheduleSchema } from './auth';
import { ADDRESS_MAX, BUSINESS_URL_MAX, BUSINESS_URL_MIN, DESCRIPTION_MAX, NAME_MAX, PHONE_MAX } from './limits';
import { safeText } from './text';

/** Business URL (slug) in settings: 3-50 lowercase letters, digits and hyphens. */
export const SLUG_PATTERN = new RegExp(`^[a-z0-9-]{${BUSINESS_URL_MIN},${BUSINESS_URL_MAX}}$`);

/**
 * What typing into the Business URL field keeps: lower-cased, anything but letters, digits and
 * hyphens stripped, at most 50 characters.
 */
export function normaliseSlugInput(typed: string): string {
  return typed
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '')
    .slice(0, BUSINESS_URL_MAX);
}

export const businessSlugSchema = safeText({ error: MSG.businessUrlRequired })
  .trim()
  .toLowerCase()
  .min(1, MSG.businessUrlRequired)
  .regex(SLUG_PATTERN, MSG.slugFormat);

/** Optional text: trimmed; empty is saved as null. */
const optionalText = (max: number, tooLong: string) =>
  safeText()
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => (v ? v : null));

const categories = new Set(ALL_CATEGORIES);

/** The Business Information card. */
export const updateBusinessProfileInput = z.object({
  businessName: safeText({ error: MSG.businessNameRequired })
    .trim()
    .min(1, MSG.businessNameRequired)
    .max(NAME_MAX, `Business name must be ${NAME_MAX} characters or less`),
  slug: businessSlugSchema,
  contactName: safeText({ error: MSG.contactNameRequired })
    .trim()
    .min(1, MSG.contactNameRequired)
    .max(NAME_MAX, `Contact name must be ${NAME_MAX} characters or less`),
  category: safeText({ error: MSG.businessTypeRequired })
    .min(1, MSG.businessTypeRequired)
    .refine((c) => categories.has(c), MSG.businessTypeRequired),
  description: safeText({ error: MSG.descriptionRequired, multiline: true })
    .trim()
    .min(1, MSG.descriptionRequired)
    .max(DESCRIPTION_MAX, MSG.descriptionMax),
  address: optionalText(ADDRESS_MAX, `Address must be ${ADDRESS_MAX} characters or less`),
  phone: optionalText(PHONE_MAX, `Phone number must be ${PHONE_MAX} characters or less`),
  email: contactEmailSchema.optional().transform((v) => v ?? null),
  timezone: safeText({ error: MSG.timezoneInvalid })
    .min(1, MSG.timezoneInvalid)
    .max(64, MSG.timezoneInvalid)
    .refine(isValidTimezone, MSG.timezoneInvalid),
});
export type UpdateBusinessProfileInput = z.infer<typeof updateBusinessProfileInput>;
export type UpdateBusinessProfileForm = z.input<typeof updateBusinessProfileInput>;

/** Business Hours card: the weekly schedule; only active days are stored. */
export const updateBusinessHoursInput = z.object({ schedule: weeklyScheduleSchema });
export type UpdateBusinessHoursInput = z.infer<typeof updateBusinessHoursInput>;

export const checkBusinessSlugInput = z.object({ slug: safeText().max(100) });

/** Delete-account dialog (typed DELETE and the current password: docs/decisions/0014). */
export const deleteAccountInput = z.object({
  confirmation: safeText({ error: MSG.deleteTypeConfirm })
    .trim()
    .refine((v) => v === 'DELETE', MSG.deleteTypeConfirm),
  currentPassword: safeText({ error: MSG.currentPasswordRequired, verbatim: true })
    .min(1, MSG.currentPasswordRequired)
    .max(1024),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

/** Customer Personal Information card, 'Update Name' ('Full name is required'). */
export const updateCustomerNameInput = z.object({ fullName: nameSchema });
export type UpdateCustomerNameInput = z.infer<typeof updateCustomerNameInput>;
