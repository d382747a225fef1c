import { notifications } from '@mantine/notifications';
import { getRouteApi, isRedirect, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { MSG } from '../../../shared/messages';
import { requireAuthenticated } from '../auth/guards';
import { BusinessDashboard } from '../business/business-dashboard';
import { CustomerDashboard } from '../customer/customer-dashboard';
import { DashboardGate, FIRST_ATTEMPT_MS } from './dashboard-gate';
import { callWithTimeout, TimeoutError } from '../../lib/requests';
import { trpc, type TrpcUtils } from '../../lib/trpc';

/** Query parameters /dashboard reacts to: the return from checkout. */
interface DashboardSearch {
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

const route = getRouteApi('/dashboard/');

export function DashboardPage() {
  const { timedOut } = route.useRouteContext();
  useCheckoutReturn();
  return (
    <DashboardGate startTimedOut={timedOut}>
      {(user) => (user.role === 'business' ? <BusinessDashboard /> : <CustomerDashboard name={user.name} />)}
    </DashboardGate>
  );
}

/**
 * The return from checkout: with success=true, the 'Payment Successful!' toast, a refresh of
 * profile and subscription, and the parameter removed from the address; entering without success or
 * canceled also refreshes profile and subscription (the subscription view lives on the profile and
 * auth.me).
 */
function useCheckoutReturn() {
  const search = route.useSearch();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    if (search.success === true) {
      notifications.show({ color: 'green', title: MSG.paymentSuccessfulTitle, message: MSG.paymentSuccessful });
    }
    void utils.auth.me.invalidate();
    void utils.businesses.mine.invalidate();
    // A canceled checkout has no message of its own; its parameter goes as well.
    if (search.success !== undefined || search.canceled !== undefined) {
      void navigate({ to: '/dashboard', search: {}, replace: true });
    }
  }, [search.success, search.canceled, navigate, utils]);
}
