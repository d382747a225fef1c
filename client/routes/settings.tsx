import { Container } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { GuardPending } from '../features/auth/guard-pending';
import { requireAuthenticated } from '../features/auth/guards';
import { useAuth } from '../features/auth/use-auth';
import { FullPageLoader } from '../features/layout/full-page-loader';
import { BusinessSettings } from '../features/settings/business-settings';
import { CustomerSettings } from '../features/settings/customer-settings';
import { PermissionError } from '../features/settings/permission-error';
import { usePageTitle } from '../lib/use-page-title';

export const Route = createFileRoute('/settings')({
  beforeLoad: ({ context }) => requireAuthenticated(context.trpcUtils),
  pendingComponent: () => <GuardPending label="Loading settings..." />,
  component: SettingsPage,
});

/**
 * /settings: not signed in → /login (guard); business → business settings; customer → customer
 * settings; any other role → 'Permission Error'. /dashboard/settings and
 * /dashboard/customer/settings redirect here.
 */
function SettingsPage() {
  usePageTitle('Settings');
  const { user: fromGuard } = Route.useRouteContext();
  const { user: live } = useAuth();
  const user = live ?? fromGuard;
  if (!user) return <FullPageLoader label="Loading settings..." />;
  const role: string = user.role;
  if (role !== 'business' && role !== 'customer') return <PermissionError />;
  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      {role === 'business' ? <BusinessSettings email={user.email} /> : <CustomerSettings email={user.email} />}
    </Container>
  );
}
