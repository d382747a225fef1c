import { Alert, Anchor, Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import type { BusinessTab } from '../../../shared/slot-categories';
import { TIME_LIMITS_MS, useWaitLimit } from '../../lib/requests';
import { errorInfo, trpc, type RouterOutputs } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { StatCards } from '../dashboard/stat-cards';
import { useAnnouncer, useBookingLiveUpdates, useShowWhenListed } from '../dashboard/live';
import { FullPageLoader } from '../layout/full-page-loader';
import { SubscriptionBanner } from '../billing/subscription';
import { LocationStep } from '../onboarding/location-step';
import { AddSlotForm } from './add-slot-form';
import { AvailabilityCard, groupSlotsByTab } from './availability-card';
import { RequestedSlotsPanel } from './requested-slots-panel';
import { RequestsCard } from './requests-card';

/**
 * How often an open dashboard re-reads its slots and requests, so a slot whose start has passed
 * leaves Available (and a past request leaves Current Requests) without a reload: the server
 * works out "past" in the business's zone at each read.
 */
const CLOCK_REFRESH_MS = 60_000;

/**
 * The business's slot list and its load errors: the first load is limited to 10 s ('Loading slots
 * timed out…'), a failed first load shows the 'Failed to load slots' box with Retry and the number
 * of retries, and a failed refresh of a shown list toasts 'Error: Failed to refresh slots. Please
 * try again.'.
 */
function useSlotList() {
  const utils = trpc.useUtils();
  const slots = trpc.slots.listMine.useQuery(undefined, { refetchInterval: CLOCK_REFRESH_MS });
  const [retries, setRetries] = useState(0);
  const firstLoad = slots.isPending && slots.isFetching;
  const timedOut = useWaitLimit(firstLoad, TIME_LIMITS_MS.slotList, retries, () => void utils.slots.listMine.cancel());

  useEffect(() => {
    if (slots.isRefetchError) {
      notifications.show({ color: 'red', title: MSG.errorTitle, message: MSG.refreshSlotsFailed });
    }
  }, [slots.isRefetchError, slots.errorUpdatedAt]);

  const failed = !slots.data && !firstLoad && (slots.isError || timedOut);
  return {
    slots: slots.data ?? [],
    loading: slots.isPending && !failed,
    failed: failed ? (timedOut && !slots.isError ? MSG.slotsLoadTimeout : MSG.slotsLoadFailed) : null,
    retries,
    retry() {
      setRetries((n) => n + 1);
      void slots.refetch();
    },
  };
}

/** The business dashboard: stat cards, Add New Slot, the slot tabs, requests and the side panel. */
export function BusinessDashboard() {
  const business = trpc.businesses.mine.useQuery();
  const list = useSlotList();
  const requests = trpc.bookings.requests.useQuery(undefined, { refetchInterval: CLOCK_REFRESH_MS });
  const [tab, setTab] = useState<BusinessTab>('available');
  const { announce, region } = useAnnouncer();
  const expectRequest = useRequestsNotices(requests, announce);
  useBookingLiveUpdates('business', (event) => {
    if (event.change === 'requested') expectRequest(event);
  });
  usePageTitle('Dashboard');

  if (business.isPending) return <FullPageLoader label={MSG.loadingDashboard} />;
  if (business.isError) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title="Failed to load your business" role="alert">
          {errorInfo(business.error).message}
        </Alert>
        <Button mt="md" onClick={() => void business.refetch()}>
          Retry
        </Button>
      </Container>
    );
  }

  const b = business.data;
  const all = list.slots;
  const byTab = groupSlotsByTab(all);
  const requestedCount = all.filter((s) => s.category === 'requested').length;
  const counting = list.loading || list.failed !== null;

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      {region}
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Text size="sm" c="dimmed">
              Business dashboard
            </Text>
            <Title order={1} fz={{ base: 24, sm: 30 }} style={{ overflowWrap: 'anywhere' }}>
              {b.businessName}
            </Title>
          </div>
          <Anchor renderRoot={(props) => <Link to="/$slug" params={{ slug: b.slug }} {...props} />} size="sm" fw={600}>
            View your booking page →
          </Anchor>
        </Group>

        <SubscriptionBanner />

        <LocationStep />

        {list.failed && (
          <Alert color="red" title={MSG.slotsLoadFailedTitle} role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{list.failed}</Text>
              <Text size="xs" c="dimmed" data-testid="retry-attempts">
                Retry attempts: {list.retries}
              </Text>
              <Button size="xs" color="red" variant="light" onClick={list.retry}>
                Retry
              </Button>
            </Stack>
          </Alert>
        )}

        <StatCards
          cols={{ base: 2, sm: 3, md: 5 }}
          loading={counting}
          stats={[
            { label: 'Total Slots', value: all.length },
            { label: 'Available', value: byTab.available.length, color: 'green.8' },
            { label: 'Requests', value: requestedCount, color: 'orange.8' },
            { label: 'Booked', value: byTab.booked.length, color: 'blue.8' },
            { label: 'Not Booked', value: byTab.notBooked.length, color: 'gray.7' },
          ]}
        />

        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <AddSlotForm openingHours={b.openingHours} timezone={b.timezone} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <RequestsCard requests={requests.data ?? []} loading={requests.isPending && !requests.isError} />
          </Grid.Col>
        </Grid>

        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <AvailabilityCard slots={all} loading={list.loading} business={b} tab={tab} onTabChange={setTab} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <RequestedSlotsPanel slots={all} loading={list.loading} onShowBooked={() => setTab('booked')} />
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}

/**
 * Toasts for the requests list: 'Error: Could not fetch booking requests. {detail}' when it fails,
 * and a 'New booking request' toast (announced to screen readers) when one arrives live. Returns
 * the function to call with each live 'requested' event: its toast shows once the list holds it.
 */
function useRequestsNotices(
  requests: {
    data?: RouterOutputs['bookings']['requests'];
    isError: boolean;
    error: unknown;
    errorUpdatedAt: number;
  },
  announce: (text: string) => void,
) {
  useEffect(() => {
    if (!requests.isError) return;
    const detail = errorInfo(requests.error).message;
    notifications.show({
      color: 'red',
      title: MSG.errorTitle,
      message: detail ? `${MSG.fetchRequestsFailed} ${detail}` : MSG.fetchRequestsUnexpected,
    });
  }, [requests.isError, requests.error, requests.errorUpdatedAt]);

  return useShowWhenListed(
    requests.data,
    () => true,
    (fresh) => {
      const first = fresh[0]!.row;
      announce(fresh.length === 1 ? 'New booking request' : `${fresh.length} new booking requests`);
      notifications.show({
        color: 'orange',
        title: 'New booking request',
        message: `${first.customer?.name ?? 'Customer'}: ${first.slot.description}, ${formatDate(first.slot.date)}, ${formatTimeRange(first.slot.startTime, first.slot.endTime)}`,
      });
    },
  );
}
