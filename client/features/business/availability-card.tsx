import '@mantine/core/styles/Tabs.css';
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import type { OpeningHours } from '../../../shared/opening-hours';
import { businessTabOf, type BusinessTab } from '../../../shared/slot-categories';
import { useTimedMutation } from '../../lib/requests';
import { trpc, trpcClient } from '../../lib/trpc';
import { EmptyState } from '../dashboard/empty-state';
import { CustomerLine, SlotCard, type BusinessSlot } from './slot-card';
import { DeleteSlotModal, EditSlotModal, notifyFailed } from './slot-dialogs';

export type { BusinessSlot } from './slot-card';

/** The slots of each business tab, in the server's oldest-first order. */
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

interface Business {
  openingHours: OpeningHours;
  timezone: string;
}

/**
 * 'Your Availability Slots': the Available (default), Booked and Not Booked tabs, each with a count
 * line, sorted oldest first. Available slots can be edited and deleted; booked ones marked as added
 * to the business's own system; the Booked tab reminds the business to copy its bookings to its
 * main calendar.
 */
export function AvailabilityCard({
  slots,
  loading,
  business,
  tab,
  onTabChange,
}: {
  slots: BusinessSlot[];
  loading: boolean;
  business: Business;
  tab: BusinessTab;
  onTabChange: (tab: BusinessTab) => void;
}) {
  const byTab = groupSlotsByTab(slots);
  const [editing, setEditing] = useState<BusinessSlot | null>(null);
  const [deleting, setDeleting] = useState<BusinessSlot | null>(null);
  const list = (items: BusinessSlot[], empty: string, hint?: string) =>
    loading ? (
      <Text size="sm" c="dimmed">
        Loading slots...
      </Text>
    ) : items.length === 0 ? (
      <EmptyState text={empty} hint={hint} />
    ) : (
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {items.map((s) => (
          <SlotCard
            key={s.id}
            slot={s}
            details={<SlotDetails slot={s} />}
            actions={
              s.category === 'available' ? (
                <>
                  <Button size="xs" variant="light" onClick={() => setEditing(s)}>
                    Edit
                  </Button>
                  <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(s)}>
                    Delete
                  </Button>
                </>
              ) : s.category === 'booked' && !s.addedToSystem ? (
                <MarkAddedButton slot={s} />
              ) : undefined
            }
          />
        ))}
      </SimpleGrid>
    );

  return (
    <Card>
      <Title order={2} fz="lg" mb="md">
        Your Availability Slots
      </Title>
      <Tabs value={tab} onChange={(v) => v && onTabChange(v as BusinessTab)} keepMounted={false}>
        <Tabs.List mb="md" className="tabs-scroll">
          <Tabs.Tab value="available">Available</Tabs.Tab>
          <Tabs.Tab value="booked">Booked</Tabs.Tab>
          <Tabs.Tab value="notBooked">Not Booked</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="available">
          <CountLine text={plural(byTab.available.length, 'available slot', 'available slots')} />
          {list(byTab.available, 'No available slots', 'Add a slot and it appears on your booking page.')}
        </Tabs.Panel>
        <Tabs.Panel value="booked">
          <CountLine text={plural(byTab.booked.length, 'booked slot', 'booked slots')} />
          <Alert color="blue" variant="light" mb="sm">
            Remember to add these bookings to your main calendar or booking system, then mark them as added here.{' '}
            <Anchor
              inherit
              c="inherit"
              underline="always"
              fw={700}
              renderRoot={(props) => <Link to="/settings" hash="calendar-feed" {...props} />}
            >
              Subscribe to your calendar feed
            </Anchor>{' '}
            and confirmed bookings appear there by themselves.
          </Alert>
          {list(byTab.booked, 'No booked slots')}
        </Tabs.Panel>
        <Tabs.Panel value="notBooked">
          <CountLine text={plural(byTab.notBooked.length, 'slot not booked', 'slots not booked')} />
          {list(byTab.notBooked, 'No unbooked slots', 'Past slots nobody booked, and slots you declined, show here.')}
        </Tabs.Panel>
      </Tabs>
      {editing && (
        <EditSlotModal
          slot={editing}
          openingHours={business.openingHours}
          timezone={business.timezone}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && <DeleteSlotModal slot={deleting} onClose={() => setDeleting(null)} />}
    </Card>
  );
}

function CountLine({ text }: { text: string }) {
  return (
    <Text size="sm" c="dimmed" mb="sm" data-testid="count-line">
      {text}
    </Text>
  );
}

/** The customer of a booked slot and whether it is in the business's own system. */
function SlotDetails({ slot }: { slot: BusinessSlot }) {
  if (slot.category !== 'booked') return null;
  return (
    <>
      <CustomerLine name={slot.customerName} email={slot.customerEmail} phone={slot.customerPhone} />
      {slot.addedToSystem && (
        <Group gap={6} mt={6} wrap="nowrap">
          <ThemeIcon size={18} radius="xl" color="green" variant="light" aria-hidden>
            <Text fz={11} fw={800} lh={1}>
              ✓
            </Text>
          </ThemeIcon>
          <Text size="xs" c="green.8" fw={600}>
            {MSG.addedToSystem}
          </Text>
        </Group>
      )}
    </>
  );
}

/** 'Mark as added to system' on a booked slot; toast 'Booking confirmed in system'. */
function MarkAddedButton({ slot }: { slot: BusinessSlot }) {
  const utils = trpc.useUtils();
  const mark = useTimedMutation(trpcClient.slots.markAddedToSystem);
  async function onClick() {
    try {
      await mark.mutateAsync({ slotId: slot.id });
      notifications.show({
        color: 'green',
        title: MSG.addedToSystem,
        message: `${slot.description} is marked as added to your main calendar.`,
      });
    } catch (err) {
      notifyFailed('Failed to update slot', err);
    } finally {
      await utils.slots.listMine.invalidate();
    }
  }
  return (
    <Button size="xs" variant="light" color="green" loading={mark.isPending} onClick={() => void onClick()}>
      Mark as added to system
    </Button>
  );
}
