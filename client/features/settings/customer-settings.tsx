import { SimpleGrid, Stack } from '@mantine/core';
import { AlertsCard } from '../alerts/alerts-card';
import { ChangeEmailCard } from './change-email-card';
import { ChangePasswordCard } from './change-password-card';
import { DataPrivacyCard } from './data-privacy-card';
import { NotificationsCard } from './notifications-card';
import { PersonalInfoCard } from './personal-info-card';
import { SettingsPageHeader } from './settings-page-header';

/**
 * Customer settings: Personal Information ('Update Name'), Change Email Address, Change Password,
 * Alerts, Email Notifications and Data & Privacy.
 */
export function CustomerSettings({ email }: { email: string }) {
  return (
    <Stack gap="lg">
      <SettingsPageHeader subtitle="Your account and your data." />
      <PersonalInfoCard />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ChangeEmailCard currentEmail={email} />
        <ChangePasswordCard />
      </SimpleGrid>
      <AlertsCard />
      <NotificationsCard />
      <DataPrivacyCard role="customer" />
    </Stack>
  );
}
