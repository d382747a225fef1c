import { Alert, Anchor, Badge, Button, Card, Container, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { formatDate, formatTimeRange } from '../../../shared/format';
import type { CustomerBucket } from '../../../shared/booking-buckets';
import { errorInfo, trpc, type RouterOutputs } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { EmptyState } from '../dashboard/empty-state';
import { useAnnouncer, useBookingLiveUpdates } from '../dashboard/live';
import { StatCards } from '../dashboard/stat-cards';
import { FavouritesPanel } from '../favourites/favourites-panel';
import { FullPageLoader } from '../layout/full-page-loader';

type Booking = RouterOutputs['bookings']['mine'][number];

const TABS: { value: CustomerBucket; label: string; empty: string }[] = [
  { value: 'confirmed', label: 'Confirmed', empty: 'No confirmed appointments' },
  { value: 'pending', label: 'Pending', empty: 'No pending requests' },
  { value: 'declined', label: 'Declined', empty: 'No declined bookings' },
  { value: 'archive', label: 'Archive', empty: 'No past appointments' },
];

/** Badge of a customer's booking (dashboards spec §4 "Badges", "Customer buckets"). */
function bookingBadge(b: Booking): { label: string; color: string } {
  if (b.expired) return { label: 'Request Expired', color: 'gray' };
  if (b.status === 'confirmed' || b.status === 'completed') return { label: 'Booked', color: 'blue' };
  if (b.status === 'pending') return { label: 'Pending', color: 'orange' };
  if (b.status === 'cancelled' && b.declinedByBusiness) return { label: 'Declined', color: 'red' };
  if (b.status === 'cancelled') return { label: 'Cancelled', color: 'gray' };
  return { label: 'Unknown', color: 'gray' };
}

/** The customer dashboard (dashboards spec §2 "Customer dashboard"). */
export function CustomerDashboard({ name }: { name: string }) {
  const bookings = trpc.bookings.mine.useQuery();
  const { announce, region } = useAnnouncer();
  useBookingLiveUpdates();
  usePageTitle('Dashboard');

  // Announce decisions that arrive while the dashboard is open.
  const previous = useRef<Map<string, CustomerBucket | null> | null>(null);
  useEffect(() => {
    if (!bookings.data) return;
    const next = new Map(bookings.data.map((b) => [b.id, b.bucket]));
    if (previous.current) {
      for (const b of bookings.data) {
        const before = previous.current.get(b.id);
        if (before !== 'pending' || b.bucket === 'pending') continue;
        const business = b.businessName ?? 'The business';
        if (b.bucket === 'confirmed') {
          announce(`Booking confirmed by ${business}`);
          notifications.show({
            color: 'green',
            title: 'Booking confirmed',
            message: `${business} confirmed ${b.description ?? 'your appointment'}.`,
          });
        } else if (b.bucket === 'declined') {
          announce(`Booking declined by ${business}`);
          notifications.show({
            color: 'red',
            title: 'Booking declined',
            message: `${business} declined ${b.description ?? 'your request'}.`,
          });
        }
      }
    }
    previous.current = next;
  }, [bookings.data, announce]);

  if (bookings.isPending) return <FullPageLoader label="Loading dashboard..." />;

  const all = bookings.data ?? [];
  const byBucket: Record<CustomerBucket, Booking[]> = { confirmed: [], pending: [], declined: [], archive: [] };
  for (const b of all) if (b.bucket) byBucket[b.bucket].push(b);

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      {region}
      <Stack gap="lg">
        <div>
          <Text size="sm" c="dimmed">
            Your dashboard
          </Text>
          <Title order={1} fz={{ base: 24, sm: 30 }} style={{ overflowWrap: 'anywhere' }}>
            Hello, {name}
          </Title>
        </div>

        {bookings.isError && (
          <Alert color="red" title="Error" role="alert">
            Could not fetch your appointments. {errorInfo(bookings.error).message}
            <Button size="xs" variant="light" ml="sm" onClick={() => void bookings.refetch()}>
              Retry
            </Button>
          </Alert>
        )}

        <StatCards
          cols={{ base: 2, sm: 4 }}
          stats={[
            { label: 'Confirmed', value: byBucket.confirmed.length, color: 'blue.8' },
            { label: 'Pending', value: byBucket.pending.length, color: 'orange.8' },
            { label: 'Declined', value: byBucket.declined.length, color: 'red.8' },
            { label: 'Archive', value: byBucket.archive.length, color: 'gray.7' },
          ]}
        />

        <Card>
          <Group justify="space-between" mb="md" wrap="wrap" gap="xs">
            <Title order={2} fz="lg">
              Your Appointments
            </Title>
            <Text size="sm" c="dimmed">
              {all.length} {all.length === 1 ? 'appointment' : 'appointments'} in total
            </Text>
          </Group>
          <Tabs defaultValue="confirmed" keepMounted={false}>
            <Tabs.List mb="md" className="tabs-scroll">
              {TABS.map((t) => (
                <Tabs.Tab key={t.value} value={t.value}>
                  {t.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {TABS.map((t) => (
              <Tabs.Panel key={t.value} value={t.value}>
                {byBucket[t.value].length === 0 ? (
                  <EmptyState text={t.empty} />
                ) : (
                  <Stack gap="xs">
                    {byBucket[t.value].map((b) => (
                      <BookingRow key={b.id} booking={b} />
                    ))}
                  </Stack>
                )}
              </Tabs.Panel>
            ))}
          </Tabs>
        </Card>

        <FavouritesPanel />
      </Stack>
    </Container>
  );
}

function BookingRow({ booking: b }: { booking: Booking }) {
  const badge = bookingBadge(b);
  const confirmed = b.bucket === 'confirmed';
  return (
    <Paper withBorder p="md" radius="md" data-testid="appointment-row">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        {b.businessSlug ? (
          <Anchor renderRoot={(props) => <Link to="/$slug" params={{ slug: b.businessSlug! }} {...props} />} fw={700}>
            {b.businessName}
          </Anchor>
        ) : (
          <Text fw={700}>{b.businessName ?? 'Business'}</Text>
        )}
        <Badge color={badge.color} variant="light" style={{ flexShrink: 0 }}>
          {badge.label}
        </Badge>
      </Group>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" mt={2} style={{ overflowWrap: 'anywhere' }}>
          {b.description}
        </Text>
        <Text size="sm" c="dimmed">
          {formatDate(b.date)}, {formatTimeRange(b.startTime, b.endTime)}
        </Text>
        {b.businessAddress && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {b.businessAddress}
          </Text>
        )}
        {confirmed && (
          <Text size="xs" c="dimmed" mt={6}>
            Need to cancel? Please contact {b.businessName ?? 'the business'} directly.
          </Text>
        )}
      </div>
    </Paper>
  );
}
