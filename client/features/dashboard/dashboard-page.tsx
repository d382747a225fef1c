import { notifications } from '@mantine/notifications';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { MSG } from '../../../shared/messages';
import { BusinessDashboard } from '../business/business-dashboard';
import { CustomerDashboard } from '../customer/customer-dashboard';
import { DashboardGate } from './dashboard-gate';
import { trpc } from '../../lib/trpc';

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
 * canceled also refreshes profile and subscription (billing.subscription); canceled=true says nothing
 * was charged.
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
    } else if (search.canceled === true) {
      notifications.show({ color: 'blue', title: MSG.paymentCanceledTitle, message: MSG.paymentCanceled });
    }
    void utils.auth.me.invalidate();
    void utils.businesses.mine.invalidate();
    void utils.billing.subscription.invalidate();
    if (search.success !== undefined || search.canceled !== undefined) {
      void navigate({ to: '/dashboard', search: {}, replace: true });
    }
  }, [search.success, search.canceled, navigate, utils]);
}
