import { createFileRoute } from '@tanstack/react-router';
import { GuardPending } from '../features/auth/guard-pending';
import { requireAuthenticated } from '../features/auth/guards';
import { SettingsPage } from '../features/settings/settings-page';

export const Route = createFileRoute('/settings')({
  beforeLoad: ({ context }) => requireAuthenticated(context.trpcUtils),
  pendingComponent: () => <GuardPending label="Loading settings..." />,
  component: SettingsPage,
});
