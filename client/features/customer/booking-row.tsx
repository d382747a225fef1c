import { Anchor, Badge, Button, Group, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { formatDate, formatTimeRange, shortAddress } from '../../../shared/format';
import type { RouterOutputs } from '../../lib/trpc';
import { useAddToCalendar } from './add-to-calendar';

export type CustomerBooking = RouterOutputs['bookings']['mine'][number];

/** Badge of a customer's booking: 'Request Expired', 'Booked', 'Pending', ... */
export function bookingBadge(b: CustomerBooking): { label: string; color: string } {
  if (b.expired) return { label: 'Request Expired', color: 'gray' };
  if (b.status === 'confirmed' || b.status === 'completed') return { label: 'Booked', color: 'blue' };
  if (b.status === 'pending') return { label: 'Pending', color: 'orange' };
  if (b.status === 'cancelled' && b.declinedByBusiness) return { label: 'Declined', color: 'red' };
  if (b.status === 'cancelled') return { label: 'Cancelled', color: 'gray' };
  return { label: 'Unknown', color: 'gray' };
}

/**
 * One appointment in 'Your Appointments': business (linked to its page), badge, description, date
 * and time, short address. A pending request has 'Cancel Request' (`onCancel`); a confirmed
 * appointment cannot be cancelled in the app, so it tells the customer to contact the business, and
 * has 'Add to calendar' (the booking's .ics).
 */
export function BookingRow({ booking: b, onCancel }: { booking: CustomerBooking; onCancel?: () => void }) {
  const badge = bookingBadge(b);
  const calendar = useAddToCalendar();
  const business = b.businessName ?? 'the business';
  return (
    <Paper withBorder p="md" radius="md" data-testid="appointment-row">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        {b.businessSlug ? (
          <Anchor
            renderRoot={(props) => <Link to="/$slug" params={{ slug: b.businessSlug! }} {...props} />}
            fw={700}
            style={{ overflowWrap: 'anywhere' }}
          >
            {b.businessName}
          </Anchor>
        ) : (
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {b.businessName ?? 'Business'}
          </Text>
        )}
        <Badge color={badge.color} variant="light" style={{ flexShrink: 0 }}>
          {badge.label}
        </Badge>
      </Group>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Text size="sm" mt={2} style={{ overflowWrap: 'anywhere' }}>
            {b.description}
          </Text>
          <Text size="sm" c="dimmed">
            {formatDate(b.date)}, {formatTimeRange(b.startTime, b.endTime)}
          </Text>
          {b.businessAddress && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {shortAddress(b.businessAddress)}
            </Text>
          )}
          {b.bucket === 'confirmed' && (
            <Text size="xs" c="dimmed" mt={6} data-testid="contact-business">
              Need to cancel? Please contact {business} directly.
            </Text>
          )}
        </div>
        {b.bucket === 'confirmed' && (
          <Button
            size="xs"
            variant="light"
            onClick={() => void calendar.add(b.id)}
            loading={calendar.pending === b.id}
            aria-label={`Add to calendar: ${b.description ?? 'appointment'}, ${formatDate(b.date)}`}
            w={{ base: '100%', xs: 'auto' }}
          >
            Add to calendar
          </Button>
        )}
        {onCancel && (
          <Button
            size="xs"
            variant="default"
            color="red"
            onClick={onCancel}
            aria-label={`Cancel request: ${b.description ?? 'appointment'}, ${formatDate(b.date)}`}
            w={{ base: '100%', xs: 'auto' }}
          >
            Cancel Request
          </Button>
        )}
      </Group>
    </Paper>
  );
}
