import { Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { GuardPending } from '../features/auth/guard-pending';
import { requireAuthenticated } from '../features/auth/guards';
import { useAuth } from '../features/auth/use-auth';
import { FullPageLoader } from '../features/layout/full-page-loader';
import { ChangeEmailCard } from '../features/settings/change-email-card';
import { ChangePasswordCard } from '../features/settings/change-password-card';
import { usePageTitle } from '../lib/use-page-title';

export const Route = createFileRoute('/settings')({
  beforeLoad: ({ context }) => requireAuthenticated(context.trpcUtils),
  pendingComponent: () => <GuardPending label="Loading settings..." />,
  component: SettingsPage,
});

/**
 * /settings (dashboards spec §2 "/settings"): for now the account cards both roles share (change
 * email, change password). The business and customer profile cards come with the dashboards work.
 */
function SettingsPage() {
  usePageTitle('Settings');
  const { user: fromGuard } = Route.useRouteContext();
  const { user: live } = useAuth();
  const user = live ?? fromGuard;
  if (!user) return <FullPageLoader label="Loading settings..." />;
  return (
    <Container size="lg" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <div>
          <Title order={1} fz={{ base: 26, sm: 30 }}>
            Settings
          </Title>
          <Text c="dimmed" size="sm">
            Account Settings
          </Text>
        </div>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <ChangeEmailCard currentEmail={user.email} />
          <ChangePasswordCard />
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
