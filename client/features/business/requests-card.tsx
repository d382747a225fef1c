import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import { Anchor, Badge, Button, Card, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatDate, formatTimeRange } from '../../../shared/format';
import type { RouterOutputs } from '../../lib/trpc';
import { EmptyState } from '../dashboard/empty-state';
import { useAnswerRequest } from './use-answer-request';

type Request = RouterOutputs['bookings']['requests'][number];
type Decision = 'confirm' | 'decline';

/**
 * 'Current Requests': pending requests, newest first, each with the slot's description, date and
 * time range and the customer's name and email; 'Confirm Booking' and 'Decline' open a
 * confirm/decline dialog.
 */
export function RequestsCard({ requests, loading }: { requests: Request[]; loading: boolean }) {
  const { answer, busy } = useAnswerRequest();
  const [pending, setPending] = useState<{ decision: Decision; request: Request } | null>(null);

  async function decide() {
    if (!pending) return;
    await answer(pending.decision, pending.request.id);
    setPending(null);
  }

  return (
    <Card h="100%">
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Title order={2} fz="lg">
          Current Requests
        </Title>
        {requests.length > 0 && (
          <Badge color="orange" variant="light">
            {requests.length} pending
          </Badge>
        )}
      </Group>
      {loading ? (
        <Text c="dimmed" size="sm">
          Loading requests...
        </Text>
      ) : requests.length === 0 ? (
        <EmptyState text="No pending requests" hint="New requests from your booking page appear here straight away." />
      ) : (
        <Stack gap="sm">
          {requests.map((r) => {
            const customerName = r.customer?.name ?? 'Customer';
            return (
              <Paper key={r.id} withBorder p="md" radius="md" data-testid="booking-request">
                <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
                  <div style={{ minWidth: 0 }}>
                    <Text fw={700}>{r.slot.description}</Text>
                    <Text size="sm">{formatDate(r.slot.date)}</Text>
                    <Text size="sm" c="dimmed">
                      {formatTimeRange(r.slot.startTime, r.slot.endTime)}
                    </Text>
                  </div>
                  <Badge color="orange" variant="light">
                    Pending
                  </Badge>
                </Group>
                <Text size="sm" mt="xs">
                  <Text span fw={600}>
                    {customerName}
                  </Text>
                  {r.customer?.email && (
                    <>
                      {' · '}
                      <Anchor href={`mailto:${r.customer?.email}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {r.customer?.email}
                      </Anchor>
                    </>
                  )}
                </Text>
                {r.notes && (
                  <Text size="sm" c="dimmed" mt={4} fs="italic" style={{ overflowWrap: 'anywhere' }}>
                    “{r.notes}”
                  </Text>
                )}
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="sm">
                  <Button size="sm" onClick={() => setPending({ decision: 'confirm', request: r })}>
                    Confirm Booking
                  </Button>
                  <Button
                    size="sm"
                    variant="default"
                    color="red"
                    onClick={() => setPending({ decision: 'decline', request: r })}
                  >
                    Decline
                  </Button>
                </SimpleGrid>
              </Paper>
            );
          })}
        </Stack>
      )}

      <Modal
        opened={pending !== null}
        onClose={() => !busy && setPending(null)}
        title={pending?.decision === 'decline' ? 'Decline this request?' : 'Confirm this booking?'}
      >
        {pending && (
          <Stack gap="md">
            <div>
              <Text fw={700}>{pending.request.slot.description}</Text>
              <Text size="sm">
                {formatDate(pending.request.slot.date)},{' '}
                {formatTimeRange(pending.request.slot.startTime, pending.request.slot.endTime)}
              </Text>
              <Text size="sm" c="dimmed">
                {pending.request.customer?.name ?? 'Customer'}
                {pending.request.customer?.email ? ` (${pending.request.customer?.email})` : ''}
              </Text>
            </div>
            <Text size="sm">
              {pending.decision === 'confirm'
                ? 'The customer will get a confirmation email. Remember to add the booking to your main calendar or booking system.'
                : 'The customer will be told that you declined the request.'}
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setPending(null)} disabled={busy}>
                Cancel
              </Button>
              <Button
                color={pending.decision === 'decline' ? 'red' : undefined}
                onClick={() => void decide()}
                loading={busy}
              >
                {pending.decision === 'confirm' ? 'Yes, confirm' : 'Yes, decline'}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}
