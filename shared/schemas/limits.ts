/**
 * Length limits of user input, in characters: the schemas enforce them and the forms show them
 * (counters, `maxLength`). Each limit is defined here only.
 */

/** A person's full name, a business name, a contact name. */
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
/** A new password: at least 8, at most 128 characters, never trimmed (ADR 0004). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** The username chosen at business sign-up (its first booking page address). */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 29;
/** The Business URL changed in settings. */
export const BUSINESS_URL_MIN = 3;
export const BUSINESS_URL_MAX = 50;
/** A business's or a slot's description. */
export const DESCRIPTION_MAX = 300;
export const ADDRESS_MAX = 300;
export const PHONE_MAX = 40;
/** The notes of a booking request. */
export const NOTES_MAX = 500;
/** The contact form (ADR 0016). */
export const CONTACT_SUBJECT_MAX = 150;
export const CONTACT_MESSAGE_MAX = 5000;
