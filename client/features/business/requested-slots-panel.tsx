import '@mantine/core/styles/Divider.css';
import { Anchor, Button, Card, Divider, Stack, Text, Title } from '@mantine/core';
import { EmptyState } from '../dashboard/empty-state';
import { CustomerLine, SlotCard, type BusinessSlot } from './slot-card';
import { useAnswerRequest } from './use-answer-request';

/**
 * The side panel beside the slot tabs (ADR 0011): the requested slots as slot cards with the inline
 * Approve (booking completed, 'Booking approved!') and Reject (the slot is offered again), and how
 * many booked slots still need copying to the business's own calendar.
 */
export function RequestedSlotsPanel({
  slots,
  loading,
  onShowBooked,
}: {
  slots: BusinessSlot[];
  loading: boolean;
  onShowBooked: () => void;
}) {
  const { answer, busy } = useAnswerRequest();
  const requested = slots.filter((s) => s.category === 'requested' && s.request);
  const toCopy = slots.filter((s) => s.category === 'booked' && !s.addedToSystem).length;

  return (
    <Card h="100%">
      <Title order={2} fz="lg" mb={4}>
        Requested slots
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Approve or reject straight from the slot.
      </Text>
      {loading ? (
        <Text size="sm" c="dimmed">
          Loading slots...
        </Text>
      ) : requested.length === 0 ? (
        <EmptyState text="No slots waiting for an answer" />
      ) : (
        <Stack gap="xs" data-testid="requested-slots">
          {requested.map((s) => (
            <SlotCard
              key={s.id}
              slot={s}
              details={<CustomerLine name={s.request!.customerName} email={s.request!.customerEmail} />}
              actions={
                <>
                  <Button size="xs" disabled={busy} onClick={() => void answer('approve', s.request!.bookingId)}>
                    Approve
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    disabled={busy}
                    onClick={() => void answer('reject', s.request!.bookingId)}
                  >
                    Reject
                  </Button>
                </>
              }
            />
          ))}
        </Stack>
      )}
      <Divider my="md" />
      <Text size="sm" fw={600}>
        {toCopy === 0
          ? 'All booked slots are in your own calendar.'
          : `${toCopy} booked ${toCopy === 1 ? 'slot' : 'slots'} to add to your own calendar`}
      </Text>
      {toCopy > 0 && (
        <Anchor component="button" type="button" size="sm" fw={600} mt={4} onClick={onShowBooked}>
          Show booked slots
        </Anchor>
      )}
    </Card>
  );
}
