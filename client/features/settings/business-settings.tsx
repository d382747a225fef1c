import { SimpleGrid, Stack } from '@mantine/core';
import { MSG } from '../../../shared/messages';
import { trpc } from '../../lib/trpc';
import { FullPageLoader } from '../layout/full-page-loader';
import { BillingCard } from './billing-card';
import { BusinessHoursCard } from './business-hours-card';
import { BusinessInfoCard } from './business-info-card';
import { CalendarFeedCard } from './calendar-feed-card';
import { CardHeading } from './card-heading';
import { ChangeEmailCard } from './change-email-card';
import { ChangePasswordCard } from './change-password-card';
import { DataPrivacyCard } from './data-privacy-card';
import { LocationCard } from './location-card';
import { NotificationsCard } from './notifications-card';
import { SettingsPageHeader } from './settings-page-header';
import { SettingsLoadFailed, useSettingsLoad } from './settings-load';

/**
 * Business settings: Business Information, Business Hours, Location, Account Settings (email, password),
 * Calendar Feed, Email Notifications, Billing (when the business has a billing account) and Data & Privacy.
 */
export function BusinessSettings({ email }: { email: string }) {
  const settings = trpc.settings.business.useQuery(undefined, { refetchOnWindowFocus: false });
  const load = useSettingsLoad(settings, MSG.businessProfileLoadFailed);

  if (load.loading) return <FullPageLoader label="Loading settings..." />;
  const data = settings.data;
  return (
    <Stack gap="lg">
      <SettingsPageHeader subtitle="Your business profile, opening hours, location and account." />
      {data ? (
        <>
          {/* The information form keeps what it saved (a refetch must not wipe an edit begun since);
              the hours form is keyed by the saved schedule, so it starts again from the server's. */}
          <BusinessInfoCard settings={data} />
          <BusinessHoursCard key={`hours-${JSON.stringify(data.schedule)}`} initial={data.schedule} />
        </>
      ) : (
        <SettingsLoadFailed text={MSG.businessProfileLoadFailed} onRetry={load.retry} />
      )}
      <LocationCard />
      <Stack component="section" aria-labelledby="account-settings-title" gap="sm">
        <CardHeading id="account-settings-title" title="Account Settings">
          Your login email and password.
        </CardHeading>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <ChangeEmailCard currentEmail={email} headingOrder={3} />
          <ChangePasswordCard headingOrder={3} />
        </SimpleGrid>
      </Stack>
      <CalendarFeedCard />
      <NotificationsCard />
      {data && <BillingCard showManage={data.showBilling} />}
      <DataPrivacyCard role="business" />
    </Stack>
  );
}
