/**
 * Input schemas of business settings, data export and account deletion (dashboards spec §2
 * "Business settings cards", §5 "Business profile save", "Account deletion"), with the spec's
 * messages. Used by the tRPC procedures and by the settings forms.
 */
import { z } from 'zod';
import { ALL_CATEGORIES } from '../categories';
import { MSG } from '../messages';
import { isValidTimezone } from '../zoned-time';
import { EMAIL_PATTERN, nameSchema, weeklyScheduleSchema } from './auth';
import { safeText } from './text';

/** Business URL (slug) in settings: 3-50 lowercase letters, digits and hyphens (spec §5, §9). */
export const SLUG_PATTERN = /^[a-z0-9-]{3,50}$/;

/**
 * What typing into the Business URL field keeps (spec §5): lower-cased, anything but letters,
 * digits and hyphens stripped, at most 50 characters.
 */
export function normaliseSlugInput(typed: string): string {
  return typed
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '')
    .slice(0, 50);
}

export const businessSlugSchema = safeText({ error: MSG.businessUrlRequired })
  .trim()
  .toLowerCase()
  .min(1, MSG.businessUrlRequired)
  .regex(SLUG_PATTERN, MSG.slugFormat);

/** Optional text: trimmed; empty becomes null (spec §5 "saved as null when empty"). */
const optionalText = (max: number, tooLong: string) =>
  safeText()
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => (v ? v : null));

const categories = new Set(ALL_CATEGORIES);

/** Business Information card (spec §2 "Business settings cards", §5 "Business profile save"). */
export const updateBusinessProfileInput = z.object({
  businessName: safeText({ error: MSG.businessNameRequired })
    .trim()
    .min(1, MSG.businessNameRequired)
    .max(100, 'Business name must be 100 characters or less'),
  slug: businessSlugSchema,
  contactName: safeText({ error: MSG.contactNameRequired })
    .trim()
    .min(1, MSG.contactNameRequired)
    .max(100, 'Contact name must be 100 characters or less'),
  category: safeText({ error: MSG.businessTypeRequired })
    .min(1, MSG.businessTypeRequired)
    .refine((c) => categories.has(c), MSG.businessTypeRequired),
  description: safeText({ error: MSG.descriptionRequired, multiline: true })
    .trim()
    .min(1, MSG.descriptionRequired)
    .max(300, MSG.descriptionMax),
  address: optionalText(300, 'Address must be 300 characters or less'),
  phone: optionalText(40, 'Phone number must be 40 characters or less'),
  email: optionalText(254, MSG.validEmail)
    .refine((v) => v === null || EMAIL_PATTERN.test(v), MSG.validEmail)
    .transform((v) => v?.toLowerCase() ?? null),
  timezone: safeText({ error: MSG.timezoneInvalid })
    .min(1, MSG.timezoneInvalid)
    .max(64, MSG.timezoneInvalid)
    .refine(isValidTimezone, MSG.timezoneInvalid),
});
export type UpdateBusinessProfileInput = z.infer<typeof updateBusinessProfileInput>;
export type UpdateBusinessProfileForm = z.input<typeof updateBusinessProfileInput>;

/** Business Hours card: the weekly schedule; only active days are stored (spec §3). */
export const updateBusinessHoursInput = z.object({ schedule: weeklyScheduleSchema });
export type UpdateBusinessHoursInput = z.infer<typeof updateBusinessHoursInput>;

export const checkBusinessSlugInput = z.object({ slug: safeText().max(100) });

/** Delete-account dialog (spec §5 "Account deletion"; current password: docs/decisions/0014). */
export const deleteAccountInput = z.object({
  confirmation: safeText({ error: MSG.deleteTypeConfirm })
    .trim()
    .refine((v) => v === 'DELETE', MSG.deleteTypeConfirm),
  currentPassword: safeText({ error: MSG.currentPasswordRequired, multiline: true })
    .min(1, MSG.currentPasswordRequired)
    .max(1024),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

/** Customer Personal Information card, 'Update Name' (spec §5 "Customer profile": 'Full name is required'). */
export const updateCustomerNameInput = z.object({ fullName: nameSchema });
export type UpdateCustomerNameInput = z.infer<typeof updateCustomerNameInput>;
