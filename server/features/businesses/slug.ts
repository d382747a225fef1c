/** Slugs derived from a business name, for completing a profile while signed in. */
export const SLUG_MIN = 3;
export const SLUG_MAX = 29;

/** The slug a business name asks for; a short one is padded ('Jo' → 'jo-business'; nothing usable → 'business'). */
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

/** The n-th choice for `base` (n from 1): 'base', then 'base-2', 'base-3', … within SLUG_MAX. */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${fit(base, SLUG_MAX - suffix.length)}${suffix}`;
}
