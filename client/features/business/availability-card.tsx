import { Alert, Badge, Card, Group, Paper, SimpleGrid, Tabs, Text, Title } from '@mantine/core';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { businessTabOf, type BusinessTab } from '../../../shared/slot-categories';
import type { RouterOutputs } from '../../lib/trpc';
import { EmptyState } from '../dashboard/empty-state';

export type BusinessSlot = RouterOutputs['slots']['listMine'][number];

/** Badge of a slot in the business view (dashboards spec §4 "Badges"). */
export function slotBadge(slot: BusinessSlot): { label: string; color: string } {
  switch (slot.category) {
    case 'available':
      return { label: 'Available', color: 'green' };
    case 'booked':
      return { label: 'Booked', color: 'blue' };
    case 'requested':
      return { label: 'Pending', color: 'orange' };
    case 'declined':
      return { label: 'Declined', color: 'red' };
    case 'unbooked':
      return slot.unconfirmed ? { label: 'Unconfirmed', color: 'yellow' } : { label: 'Unbooked', color: 'gray' };
    default:
      return { label: 'Unknown', color: 'gray' };
  }
}

export function groupSlotsByTab(slots: BusinessSlot[]): Record<BusinessTab, BusinessSlot[]> {
  const out: Record<BusinessTab, BusinessSlot[]> = { available: [], booked: [], notBooked: [] };
  for (const s of slots) {
    const tab = businessTabOf(s.category);
    if (tab) out[tab].push(s);
  }
  return out;
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** 'Your Availability Slots' with the Available, Booked and Not Booked tabs (oldest first). */
export function AvailabilityCard({ slots, loading }: { slots: BusinessSlot[]; loading: boolean }) {
  const byTab = groupSlotsByTab(slots);
  return (
    <Card>
      <Title order={2} fz="lg" mb="md">
        Your Availability Slots
      </Title>
      <Tabs defaultValue="available" keepMounted={false}>
        <Tabs.List mb="md" className="tabs-scroll">
          <Tabs.Tab value="available">Available</Tabs.Tab>
          <Tabs.Tab value="booked">Booked</Tabs.Tab>
          <Tabs.Tab value="notBooked">Not Booked</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="available">
          <CountLine text={plural(byTab.available.length, 'available slot', 'available slots')} />
          <SlotList
            slots={byTab.available}
            loading={loading}
            empty="No available slots"
            emptyHint="Add a slot above and it appears on your booking page."
          />
        </Tabs.Panel>
        <Tabs.Panel value="booked">
          <CountLine text={plural(byTab.booked.length, 'booked slot', 'booked slots')} />
          <Alert color="blue" variant="light" mb="sm">
            Remember to add these bookings to your main calendar or booking system.
          </Alert>
          <SlotList slots={byTab.booked} loading={loading} empty="No booked slots" />
        </Tabs.Panel>
        <Tabs.Panel value="notBooked">
          <CountLine text={plural(byTab.notBooked.length, 'slot not booked', 'slots not booked')} />
          <SlotList slots={byTab.notBooked} loading={loading} empty="No unbooked slots" />
        </Tabs.Panel>
      </Tabs>
    </Card>
  );
}

function CountLine({ text }: { text: string }) {
  return (
    <Text size="sm" c="dimmed" mb="sm">
      {text}
    </Text>
  );
}

function SlotList({
  slots,
  loading,
  empty,
  emptyHint,
}: {
  slots: BusinessSlot[];
  loading: boolean;
  empty: string;
  emptyHint?: string;
}) {
  if (loading) {
    return (
      <Text size="sm" c="dimmed">
        Loading slots...
      </Text>
    );
  }
  if (slots.length === 0) return <EmptyState text={empty} hint={emptyHint} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {slots.map((s) => {
        const badge = slotBadge(s);
        return (
          <Paper key={s.id} withBorder p="sm" radius="md" data-testid="slot-row">
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm">
                  {formatDate(s.date)}
                </Text>
                <Text size="sm" c="dimmed">
                  {formatTimeRange(s.startTime, s.endTime)}
                </Text>
                <Text size="sm" mt={2} style={{ overflowWrap: 'anywhere' }}>
                  {s.description}
                </Text>
                {s.category === 'booked' && s.customerName && (
                  <Text size="xs" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
                    {s.customerName}
                    {s.customerEmail ? ` · ${s.customerEmail}` : ''}
                  </Text>
                )}
              </div>
              <Badge color={badge.color} variant="light" style={{ flexShrink: 0 }}>
                {badge.label}
              </Badge>
            </Group>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
