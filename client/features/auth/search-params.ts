/**
 * Search parameters of the auth routes, read leniently: an unknown or malformed value is left out.
 * They live apart from the screens because a route's `validateSearch` runs in the first-load
 * bundle while its screen is a lazily loaded chunk (ADR 0055).
 */

/** A non-empty string, else undefined. */
export const nonEmptyString = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export interface LoginSearch {
  confirmed?: boolean;
  message?: string;
  error?: string;
}

/** /login's search parameters. */
export function loginSearch(search: Record<string, unknown>): LoginSearch {
  return {
    confirmed: search.confirmed === true || search.confirmed === 'true' ? true : undefined,
    message: typeof search.message === 'string' ? search.message : undefined,
    error: typeof search.error === 'string' ? search.error : undefined,
  };
}

export type RegisterRole = 'business' | 'customer';

/** /register's search parameters. */
export function registerSearch(search: Record<string, unknown>): { role?: RegisterRole } {
  return {
    role: search.role === 'customer' || search.role === 'business' ? search.role : undefined,
  };
}

/** The parameters of an emailed link (/reset-password, /auth-redirect): its token or its error. */
export interface EmailLinkSearch {
  token?: string;
  error?: string;
  error_description?: string;
}

/** /reset-password's and /auth-redirect's search parameters. */
export function emailLinkSearch(search: Record<string, unknown>): EmailLinkSearch {
  return {
    token: nonEmptyString(search.token),
    error: nonEmptyString(search.error),
    error_description: nonEmptyString(search.error_description),
  };
}

/** The link's parameters, from the query or (older links) the hash. */
export function readEmailLink(search: EmailLinkSearch): EmailLinkSearch {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  return {
    token: search.token ?? nonEmptyString(hash.get('token')),
    error: search.error ?? nonEmptyString(hash.get('error')),
    error_description: search.error_description ?? nonEmptyString(hash.get('error_description')),
  };
}
