/**
 * Which public pages the bench's visitors open, in turn: the shapes of traffic the public page
 * scenarios send (docs/decisions/0110, 0118). Pure; business numbers are 1-based, as bench/db.ts seeds them.
 */

/** How visitors' views spread over the pages: `hotShare` of them on `hot` pages, the rest over every business. */
export interface VisitorMix {
  /** Businesses seeded (1..businesses). */
  businesses: number;
  /** Pages that get most views, as when a link goes round a group chat: businesses 1..hot. */
  hot: number;
  /** Share of the views on those pages, 0..1. */
  hotShare: number;
}

/**
 * A link going round over the platform's steady background: 99% of the views on 5 pages, the rest
 * spread over every business (docs/decisions/0118).
 */
export const GROUP_CHAT_MIX = { hot: 5, hotShare: 0.99 } as const;

/**
 * The business whose page the i-th view (i from 0) opens under `mix`. Views alternate so that
 * any run of views holds the hot share (rounded per view): exactly floor((i+1) x hotShare) of
 * the first i+1 views are on the hot pages, which take them in turn; the other views walk every
 * business 1..businesses in a fixed stride order (7919, a prime), so every page is opened before
 * any is opened twice (when businesses is no multiple of 7919).
 */
export function visitorBusiness(i: number, mix: VisitorMix): number {
  const hotBefore = Math.floor(i * mix.hotShare);
  const isHot = Math.floor((i + 1) * mix.hotShare) > hotBefore;
  if (isHot) return 1 + (hotBefore % mix.hot);
  const coldBefore = i - hotBefore;
  return 1 + ((coldBefore * 7919) % mix.businesses);
}

/**
 * A pass that opens each page once: `count` business numbers from `from` (1-based, inclusive)
 * to `to`, none twice, spread over that range by a fixed stride (`count` at most the range's size).
 * A fresh target answering it misses every cache keyed by page.
 */
export function distinctPass(from: number, to: number, count: number): number[] {
  const size = to - from + 1;
  const n = Math.max(0, Math.min(count, size));
  let stride = 7919 % size || 1;
  while (gcd(stride, size) !== 1) stride++;
  return Array.from({ length: n }, (_, k) => from + ((k * stride) % size));
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
