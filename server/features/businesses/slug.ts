/**
 * Slugs derived from a business name for the logged-in variant of /complete-business-profile:
 * lower-cased, punctuation removed, spaces to hyphens, 3 to 29 characters.
 */
export const SLUG_MIN = 3;
export const SLUG_MAX = 29;

/**
 * The slug a business name asks for: accents dropped, lower case, punctuation removed, runs of
 * spaces and hyphens to one hyphen, at most 29 characters. A result shorter than 3 characters is
 * padded ('Jo' → 'jo-business'; nothing usable → 'business').
 */
export function slugFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const padded = base.length >= SLUG_MIN ? base : base ? `${base}-business` : 'business';
  return fit(padded, SLUG_MAX);
}

function fit(slug: string, max: number): string {
  return slug.slice(0, max).replace(/-+$/, '');
}

/** The n-th choice for `base` (n from 1): 'base', then 'base-2', 'base-3', … each within 29 characters. */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${fit(base, SLUG_MAX - suffix.length)}${suffix}`;
}
