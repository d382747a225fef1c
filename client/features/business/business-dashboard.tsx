import { Alert, Anchor, Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { errorInfo, trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { StatCards } from '../dashboard/stat-cards';
import { useAnnouncer, useBookingLiveUpdates } from '../dashboard/live';
import { FullPageLoader } from '../layout/full-page-loader';
import { AddSlotForm } from './add-slot-form';
import { AvailabilityCard, groupSlotsByTab } from './availability-card';
import { RequestsCard } from './requests-card';

/** The business dashboard (dashboards spec §2 "Business dashboard"). */
export function BusinessDashboard() {
  const business = trpc.businesses.mine.useQuery();
  const slots = trpc.slots.listMine.useQuery();
  const requests = trpc.bookings.requests.useQuery();
  const { announce, region } = useAnnouncer();
  useBookingLiveUpdates();
  usePageTitle('Dashboard');

  // Announce requests that arrive while the dashboard is open.
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!requests.data) return;
    const ids = new Set(requests.data.map((r) => r.id));
    if (seen.current) {
      const fresh = requests.data.filter((r) => !seen.current!.has(r.id));
      if (fresh.length > 0) {
        const first = fresh[0]!;
        announce(fresh.length === 1 ? 'New booking request' : `${fresh.length} new booking requests`);
        notifications.show({
          color: 'orange',
          title: 'New booking request',
          message: `${first.customer?.name ?? 'Customer'}: ${first.slot.description}, ${formatDate(first.slot.date)}, ${formatTimeRange(first.slot.startTime, first.slot.endTime)}`,
        });
      }
    }
    seen.current = ids;
  }, [requests.data, announce]);

  if (business.isPending) return <FullPageLoader label="Loading dashboard..." />;
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
  const all = slots.data ?? [];
  const byTab = groupSlotsByTab(all);
  const requestedCount = all.filter((s) => s.category === 'requested').length;

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

        {slots.isError && (
          <Alert color="red" title="Failed to load slots" role="alert">
            {errorInfo(slots.error).message}{' '}
            <Anchor component="button" type="button" onClick={() => void slots.refetch()} size="sm">
              Retry
            </Anchor>
          </Alert>
        )}

        <StatCards
          cols={{ base: 2, sm: 3, md: 5 }}
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
            <RequestsCard requests={requests.data ?? []} loading={requests.isPending} />
          </Grid.Col>
        </Grid>

        <AvailabilityCard slots={all} loading={slots.isPending} />
      </Stack>
    </Container>
  );
}
