import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { slotBadge } from '../../../shared/slot-categories';
import type { RouterOutputs } from '../../lib/trpc';

export type BusinessSlot = RouterOutputs['slots']['listMine'][number];

/**
 * One slot in the business view: date, time range, description and badge; `details` (the
 * customer, the 'added to system' state) below, `actions` (buttons) at the bottom.
 */
export function SlotCard({ slot, details, actions }: { slot: BusinessSlot; details?: ReactNode; actions?: ReactNode }) {
  const badge = slotBadge(slot);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="slot-row" data-category={slot.category}>
      <Stack gap={6} h="100%" justify="space-between">
        <div>
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
            <div style={{ minWidth: 0 }}>
              <Text fw={600} size="sm">
                {formatDate(slot.date)}
              </Text>
              <Text size="sm" c="dimmed">
                {formatTimeRange(slot.startTime, slot.endTime)}
              </Text>
            </div>
            <Badge color={badge.color} variant="light" style={{ flexShrink: 0 }}>
              {badge.label}
            </Badge>
          </Group>
          <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
            {slot.description}
          </Text>
          {details}
        </div>
        {actions && (
          <Group gap="xs" mt={4}>
            {actions}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The customer of a booked or requested slot: name, then email (and phone). With neither name nor
 * email the customer has deleted their account (their personal data goes with it, ADR 0014): the
 * booking stays, shown as 'Deleted customer'.
 */
export function CustomerLine({
  name,
  email,
  phone,
}: {
  name: string | null;
  email: string | null;
  phone?: string | null;
}) {
  if (!name && !email) {
    return (
      <Text size="xs" c="dimmed" fs="italic" mt={4} data-testid="customer-line">
        Deleted customer
      </Text>
    );
  }
  return (
    <Text size="xs" c="dimmed" mt={4} style={{ overflowWrap: 'anywhere' }} data-testid="customer-line">
      <Text span fw={600} c="dark" size="xs">
        {name ?? 'Customer'}
      </Text>
      {email ? ` · ${email}` : ''}
      {phone ? ` · ${phone}` : ''}
    </Text>
  );
}
