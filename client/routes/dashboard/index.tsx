import { createFileRoute } from '@tanstack/react-router';
import { GuardPending } from '../../features/auth/guard-pending';
import { requireAuthenticated } from '../../features/auth/guards';
import { useAuth } from '../../features/auth/use-auth';
import { BusinessDashboard } from '../../features/business/business-dashboard';
import { CustomerDashboard } from '../../features/customer/customer-dashboard';
import { FullPageLoader } from '../../features/layout/full-page-loader';

export const Route = createFileRoute('/dashboard/')({
  beforeLoad: ({ context }) => requireAuthenticated(context.trpcUtils),
  pendingComponent: () => <GuardPending label="Loading dashboard..." />,
  component: DashboardPage,
});

function DashboardPage() {
  const { user: fromGuard } = Route.useRouteContext();
  const { user: live } = useAuth();
  const user = live ?? fromGuard;
  if (!user) return <FullPageLoader label="Loading dashboard..." />;
  return user.role === 'business' ? <BusinessDashboard /> : <CustomerDashboard name={user.name} />;
}
