/**
 * Edit and delete dialogs for an available slot ('Slot updated successfully', 'Slot deleted
 * successfully'; ADR 0012).
 */
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import type { OpeningHours } from '../../../shared/opening-hours';
import { noticeFor, useTimedMutation, type Notice } from '../../lib/requests';
import { trpc, trpcClient } from '../../lib/trpc';
import type { BusinessSlot } from './slot-card';
import { SlotFields, useSlotForm } from './slot-form';

/** Shows the failure of a slot write: the server's title and text, or `title` with its message. */
export function notifyFailed(title: string, err: unknown): Notice {
  const notice = noticeFor(err, { title });
  notifications.show({ color: 'red', title: notice.title, message: notice.message });
  return notice;
}

/** 'Edit slot' dialog for `slot`, with the slot form's rules; closes on success. */
export function EditSlotModal({
  slot,
  openingHours,
  timezone,
  onClose,
}: {
  slot: BusinessSlot;
  openingHours: OpeningHours;
  timezone: string;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const update = useTimedMutation(trpcClient.slots.update);
  const form = useSlotForm(openingHours, timezone, {
    date: slot.date,
    startTime: slot.startTime,
    endTime: slot.endTime,
    description: slot.description,
  });

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    const input = form.validate();
    if (!input) return;
    try {
      await update.mutateAsync({ slotId: slot.id, ...input });
      notifications.show({
        color: 'green',
        title: MSG.slotUpdated,
        message: `${formatDate(input.date)}, ${formatTimeRange(input.startTime, input.endTime)}`,
      });
      onClose();
    } catch (err) {
      const notice = notifyFailed('Failed to update slot', err);
      if (notice.kind !== 'timeout') form.showServerError(notice);
    } finally {
      await utils.slots.listMine.invalidate();
    }
  }

  return (
    <Modal opened onClose={() => !update.isPending && onClose()} title="Edit slot">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {form.dates.length === 0 ? <Text size="sm">{MSG.noDates}</Text> : <SlotFields form={form} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending} disabled={form.dates.length === 0}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** 'Delete this slot?' dialog for `slot`; closes after the answer. */
export function DeleteSlotModal({ slot, onClose }: { slot: BusinessSlot; onClose: () => void }) {
  const utils = trpc.useUtils();
  const remove = useTimedMutation(trpcClient.slots.delete);

  async function onDelete() {
    try {
      await remove.mutateAsync({ slotId: slot.id });
      notifications.show({ color: 'green', title: MSG.slotDeleted, message: slot.description });
    } catch (err) {
      notifyFailed('Failed to delete slot', err);
    } finally {
      onClose();
      await Promise.all([utils.slots.listMine.invalidate(), utils.bookings.requests.invalidate()]);
    }
  }

  return (
    <Modal opened onClose={() => !remove.isPending && onClose()} title="Delete this slot?">
      <Stack gap="md">
        <div>
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {slot.description}
          </Text>
          <Text size="sm">
            {formatDate(slot.date)}, {formatTimeRange(slot.startTime, slot.endTime)}
          </Text>
        </div>
        <Text size="sm">It disappears from your booking page straight away.</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void onDelete()} loading={remove.isPending}>
            Delete slot
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
