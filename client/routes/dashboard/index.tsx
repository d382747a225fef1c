import { createFileRoute } from '@tanstack/react-router';
import { MSG } from '../../../shared/messages';
import { DashboardPage } from '../../features/dashboard/dashboard-page';
import { dashboardSearch, guardDashboard, prefetchBusinessDashboard } from '../../features/dashboard/dashboard-route';
import { FullPageLoader } from '../../features/layout/full-page-loader';

export const Route = createFileRoute('/dashboard/')({
  validateSearch: dashboardSearch,
  beforeLoad: ({ context }) => guardDashboard(context.trpcUtils),
  loader: ({ context }) => prefetchBusinessDashboard(context.trpcUtils),
  pendingComponent: () => <FullPageLoader label={MSG.loadingDashboard} />,
  component: DashboardPage,
});
