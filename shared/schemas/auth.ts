/**
 * Input schemas of the auth procedures, with the sign-up and sign-in forms' messages. Used by the
 * server (tRPC `.input`) and by the client forms.
 */
import { z } from 'zod';
import { CATEGORY_GROUPS } from '../categories';
import { MSG } from '../messages';
import { WEEKDAYS } from '../opening-hours';
import { TIME_PATTERN, END_TIME_PATTERN } from '../time-of-day';
import {
  ADDRESS_MAX,
  DESCRIPTION_MAX,
  EMAIL_MAX,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PHONE_MAX,
  USERNAME_MAX,
  USERNAME_MIN,
} from './limits';
import { safeText } from './text';

/** Simple email pattern of the register form. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailSchema = safeText({ error: MSG.emailRequired })
  .trim()
  .min(1, MSG.emailRequired)
  .max(EMAIL_MAX, MSG.validEmail)
  .regex(EMAIL_PATTERN, MSG.validEmail)
  .transform((v) => v.toLowerCase());

/**
 * A business's public contact email (business_profiles.email_address), in settings and at sign-up:
 * trimmed, lower-cased; empty or null is null (no email shown on the public page). Missing is
 * left to each input (`.optional()`).
 */
export const contactEmailSchema = safeText()
  .trim()
  .max(EMAIL_MAX, MSG.validEmail)
  .nullable()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || EMAIL_PATTERN.test(v), MSG.validEmail)
  .transform((v) => v?.toLowerCase() ?? null);

/** 8-128 characters, never trimmed (ADR 0004). */
export const newPasswordSchema = safeText({ error: MSG.passwordRequired, verbatim: true })
  .min(1, MSG.passwordRequired)
  .min(PASSWORD_MIN, MSG.passwordMin)
  .max(PASSWORD_MAX, MSG.passwordMax);

export const loginInput = z.object({
  email: emailSchema,
  password: safeText({ error: MSG.passwordRequired, verbatim: true }).min(1, MSG.passwordRequired).max(1024),
});
export type LoginInput = z.infer<typeof loginInput>;

export const nameSchema = safeText({ error: MSG.fullNameRequired })
  .trim()
  .min(1, MSG.fullNameRequired)
  .max(NAME_MAX, `Full name must be ${NAME_MAX} characters or less`);

export const registerCustomerInput = z.object({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});
export type RegisterCustomerInput = z.infer<typeof registerCustomerInput>;

/** Username at business sign-up: 3 to 29 characters, lowercase letters, digits and hyphens. */
export const onboardingSlugSchema = safeText({ error: MSG.usernameRequired })
  .trim()
  .toLowerCase()
  .min(1, MSG.usernameRequired)
  .regex(/^[a-z0-9-]*$/, MSG.usernameChars)
  .min(USERNAME_MIN, MSG.usernameMin)
  .max(USERNAME_MAX, MSG.usernameMax);

const scheduleDay = z.object({
  isActive: z.boolean(),
  start: safeText().regex(TIME_PATTERN),
  end: safeText().regex(END_TIME_PATTERN),
});

export const weeklyScheduleSchema = z
  .object(
    Object.fromEntries(WEEKDAYS.map((d) => [d, scheduleDay])) as Record<(typeof WEEKDAYS)[number], typeof scheduleDay>,
  )
  .refine((s) => WEEKDAYS.every((d) => !s[d].isActive || s[d].end > s[d].start), {
    message: 'Closing time must be after opening time',
  });

const categories = new Set(CATEGORY_GROUPS.flatMap((g) => g.items));

export const businessProfileFields = z.object({
  businessName: safeText({ error: MSG.businessNameRequired })
    .trim()
    .min(1, MSG.businessNameRequired)
    .max(NAME_MAX, `Business name must be ${NAME_MAX} characters or less`),
  description: safeText({ error: MSG.descriptionRequired, multiline: true })
    .trim()
    .min(1, MSG.descriptionRequired)
    .max(DESCRIPTION_MAX, MSG.descriptionMax),
  category: safeText({ error: MSG.categoryRequired })
    .min(1, MSG.categoryRequired)
    .refine((c) => categories.has(c), MSG.categoryRequired),
  address: safeText({ error: MSG.addressRequired }).trim().min(1, MSG.addressRequired).max(ADDRESS_MAX),
  phone: safeText()
    .trim()
    .max(PHONE_MAX)
    .optional()
    .transform((v) => (v ? v : undefined)),
  slug: onboardingSlugSchema,
  schedule: weeklyScheduleSchema,
});

/**
 * Business sign-up: the pending registration plus the completed profile. `contactEmail` is the
 * email shown on the public page (docs/decisions/0096): missing is the sign-in email, null or empty
 * is none, else that address.
 */
export const registerBusinessInput = registerCustomerInput.extend({
  ...businessProfileFields.shape,
  contactEmail: contactEmailSchema.optional(),
});
export type RegisterBusinessInput = z.infer<typeof registerBusinessInput>;

export const checkSlugInput = z.object({ slug: safeText().max(100) });
export const tokenInput = z.object({ token: safeText().min(1).max(200) });
export const resendConfirmationInput = z.object({
  email: safeText({ error: MSG.resendNoEmail }).trim().min(1, MSG.resendNoEmail).pipe(emailSchema),
});

/** /forgot-password: email required and well-formed. */
export const requestPasswordResetInput = z.object({ email: emailSchema });
export type RequestPasswordResetInput = z.infer<typeof requestPasswordResetInput>;

/** Sets a new password from an emailed reset token (8-128 characters, see ADR 0004). */
export const resetPasswordInput = z.object({
  token: safeText().min(1, MSG.resetMissingTokens).max(200, MSG.resetInvalid),
  password: newPasswordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

/** The /reset-password form: new password and its confirmation. */
export const resetPasswordForm = z
  .object({
    password: newPasswordSchema,
    confirmPassword: safeText({ verbatim: true }).min(1, MSG.confirmPasswordRequired),
  })
  .refine((v) => v.password === v.confirmPassword, { message: MSG.passwordsDontMatch, path: ['confirmPassword'] });

const currentPasswordSchema = safeText({ error: MSG.currentPasswordRequired, verbatim: true })
  .min(1, MSG.currentPasswordRequired)
  .max(1024);

/** Password change from settings; current password required. */
export const changePasswordInput = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: newPasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/** Email change from settings; current password required. */
export const requestEmailChangeInput = z.object({
  newEmail: safeText({ error: MSG.newEmailRequired }).trim().min(1, MSG.newEmailRequired).pipe(emailSchema),
  currentPassword: currentPasswordSchema,
});
export type RequestEmailChangeInput = z.infer<typeof requestEmailChangeInput>;

/**
 * Logged-in variant of /complete-business-profile: name, description and
 * address required; the slug is derived from the name on the server.
 */
export const completeBusinessProfileInput = businessProfileFields.omit({ slug: true });
export type CompleteBusinessProfileInput = z.infer<typeof completeBusinessProfileInput>;
