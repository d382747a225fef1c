/**
 * What /dashboard/ runs before its screen loads: the guard and the search parameters. Apart from
 * the screen because they run in the first-load bundle while the screen is a lazily loaded chunk
 * (ADR 0055).
 */
import { isRedirect } from '@tanstack/react-router';
import { callWithTimeout, TimeoutError } from '../../lib/requests';
import type { TrpcUtils } from '../../lib/trpc';
import { requireAuthenticated } from '../auth/guards';

/** Loading turns into 'Loading Timeout' after 2 s on the first attempt and 1 s on later ones. */
export const FIRST_ATTEMPT_MS = 2_000;
export const LATER_ATTEMPT_MS = 1_000;

/** Query parameters /dashboard reacts to: the return from checkout. */
export interface DashboardSearch {
  success?: boolean;
  canceled?: boolean;
}

function flag(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/**
 * The protected-route guard, bounded by the gate's first loading attempt (ADR 0011): a known
 * visitor still goes to /login (and unconfirmed or incomplete accounts to their pages), but when
 * auth.me fails or has not answered within 2 s the gate shows its own screens instead of the
 * guard's error page or reload.
 */
export async function guardDashboard(utils: TrpcUtils): Promise<{ timedOut: boolean }> {
  try {
    // A late redirect or failure is ignored: the gate reads auth.me itself.
    await callWithTimeout(() => requireAuthenticated(utils), FIRST_ATTEMPT_MS);
    return { timedOut: false };
  } catch (err) {
    if (isRedirect(err)) throw err;
    return { timedOut: err instanceof TimeoutError };
  }
}

/** /dashboard/'s search parameters, read leniently: an unknown or malformed value is left out. */
export function dashboardSearch(search: Record<string, unknown>): DashboardSearch {
  const out: DashboardSearch = {};
  const success = flag(search.success);
  const canceled = flag(search.canceled);
  if (success !== undefined) out.success = success;
  if (canceled !== undefined) out.canceled = canceled;
  return out;
}

/**
 * On the server only: a signed-in business's dashboard data (its business, slots, requests and
 * subscription), so the page's HTML carries its screen (the add-slot form) rather than a loading
 * screen, and what is typed there before the app runs is kept (ADR 0098). A failed read leaves the
 * browser to ask, as before.
 */
export async function prefetchBusinessDashboard(utils: TrpcUtils): Promise<void> {
  if (!import.meta.env.SSR || utils.auth.me.getData()?.user?.role !== 'business') return;
  await Promise.all([
    utils.businesses.mine.ensureData(),
    utils.slots.listMine.ensureData(),
    utils.bookings.requests.ensureData(),
    utils.billing.subscription.ensureData(),
  ]).catch(() => undefined);
}
