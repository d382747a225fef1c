import '@mantine/core/styles/Tabs.css';
import { Alert, Button, Card, Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import type { CustomerBucket } from '../../../shared/booking-buckets';
import { MSG } from '../../../shared/messages';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { EmptyState } from '../dashboard/empty-state';
import { useAnnouncer, useBookingLiveUpdates, useShowWhenListed } from '../dashboard/live';
import { StatCards } from '../dashboard/stat-cards';
import { FavouritesPanel } from '../favourites/favourites-panel';
import { FullPageLoader } from '../layout/full-page-loader';
import { BookingRow, type CustomerBooking as Booking } from './booking-row';
import { CancelRequestDialog } from './cancel-request-dialog';

const TABS: { value: CustomerBucket; label: string; empty: string }[] = [
  { value: 'confirmed', label: 'Confirmed', empty: 'No confirmed appointments' },
  { value: 'pending', label: 'Pending', empty: 'No pending requests' },
  { value: 'declined', label: 'Declined', empty: 'No declined bookings' },
  { value: 'archive', label: 'Archive', empty: 'No past appointments' },
];

/**
 * The customer dashboard: count cards, 'Your Appointments' in four tabs (pending requests can be
 * cancelled), Favourites; live updates.
 */
export function CustomerDashboard({ name }: { name: string }) {
  const bookings = trpc.bookings.mine.useQuery();
  const { announce, region } = useAnnouncer();
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  usePageTitle('Dashboard');

  // 'Error: Could not fetch your appointments.' (title: description).
  useEffect(() => {
    if (bookings.isError) {
      notifications.show({ color: 'red', title: MSG.errorTitle, message: MSG.fetchAppointmentsFailed });
    }
  }, [bookings.isError, bookings.errorUpdatedAt]);

  // Toast the decisions that arrive while the dashboard is open (not the withdrawals made here,
  // which the cancel dialog announces itself), once the list shows the booking's new state.
  const withdrawnHere = useRef(new Set<string>());
  const expectOutcome = useShowWhenListed(
    bookings.data,
    (b) => b.status !== 'pending',
    (arrived) => {
      for (const { event, row: b } of arrived) {
        const business = b.businessName ?? 'The business';
        if (event.change === 'confirmed' || event.change === 'approved') {
          announce(`Booking confirmed by ${business}`);
          notifications.show({
            color: 'green',
            title: 'Booking confirmed',
            message: `${business} confirmed ${b.description ?? 'your appointment'}.`,
          });
        } else if (event.change === 'declined') {
          announce(`Booking declined by ${business}`);
          notifications.show({
            color: 'red',
            title: 'Booking declined',
            message: `${business} declined ${b.description ?? 'your request'}.`,
          });
        } else {
          // Rejected on the business's slot card, or withdrawn in another tab: now in Archive.
          announce(`Request cancelled: ${b.description ?? 'your request'} at ${business}`);
          notifications.show({
            color: 'gray',
            title: MSG.requestCancelled,
            message: `Your request for ${b.description ?? 'this appointment'} at ${business} was cancelled. It is now in Archive.`,
          });
        }
      }
    },
  );
  useBookingLiveUpdates('customer', (event) => {
    if (event.change === 'requested') return;
    if (event.change === 'cancelled' && withdrawnHere.current.has(event.bookingId)) return;
    expectOutcome(event);
  });

  if (bookings.isPending) return <FullPageLoader label="Loading dashboard..." />;

  const all = bookings.data ?? [];
  const byBucket: Record<CustomerBucket, Booking[]> = { confirmed: [], pending: [], declined: [], archive: [] };
  for (const b of all) byBucket[b.bucket].push(b);

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
          <Alert color="red" title={MSG.errorTitle} role="alert">
            {MSG.fetchAppointmentsFailed}
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
                      <BookingRow
                        key={b.id}
                        booking={b}
                        onCancel={b.bucket === 'pending' ? () => setCancelling(b) : undefined}
                      />
                    ))}
                  </Stack>
                )}
              </Tabs.Panel>
            ))}
          </Tabs>
        </Card>

        <FavouritesPanel />
      </Stack>
      <CancelRequestDialog
        booking={cancelling}
        onWithdrawing={(id) => withdrawnHere.current.add(id)}
        onClose={() => setCancelling(null)}
      />
    </Container>
  );
}
