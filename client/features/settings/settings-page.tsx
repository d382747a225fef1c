import { Container } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useAuth } from '../auth/use-auth';
import { FullPageLoader } from '../layout/full-page-loader';
import { usePageTitle } from '../../lib/use-page-title';
import { BusinessSettings } from './business-settings';
import { CustomerSettings } from './customer-settings';
import { PermissionError } from './permission-error';

const route = getRouteApi('/settings');

/**
 * /settings: not signed in → /login (guard); business → business settings; customer → customer
 * settings; any other role → 'Permission Error'. /dashboard/settings and
 * /dashboard/customer/settings redirect here.
 */
export function SettingsPage() {
  usePageTitle('Settings');
  const { user: fromGuard } = route.useRouteContext();
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
