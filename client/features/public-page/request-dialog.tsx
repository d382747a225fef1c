import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Modal.css';
import { Button, Group, Modal, Paper, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { bookingFailureNotice, formatDate, formatTimeRange } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import { NOTES_MAX } from '../../../shared/schemas/limits';
import { useActionKeys } from '../../lib/action-keys';
import { errorInfo, IDEMPOTENT_WRITE_RETRIES, trpc } from '../../lib/trpc';
import type { Slot } from './use-business-by-slug';

/** What the dialog shows and requests of a slot (the business page's slot, or a Discover result's). */
export type RequestableSlot = Pick<Slot, 'id' | 'description' | 'date' | 'startTime' | 'endTime'>;

/**
 * The 'Request this appointment' dialog: the slot, optional notes, Send Request. A refused or lost
 * request is toasted; UNAUTHORIZED asks the visitor to sign in, CONFLICT and NOT_FOUND close it.
 */
export function RequestDialog({
  slot,
  slug,
  businessName,
  onClose,
  onSignInNeeded,
}: {
  slot: RequestableSlot | null;
  slug: string;
  businessName: string;
  onClose: () => void;
  onSignInNeeded: () => void;
}) {
  const utils = trpc.useUtils();
  // Sent with an idempotency key: a 503 is retried with the same key.
  const request = trpc.bookings.request.useMutation(IDEMPOTENT_WRITE_RETRIES);
  const [notes, setNotes] = useState('');
  const keys = useActionKeys();

  /**
   * One request (this slot, these notes) is one action: its idempotency key is reused when the
   * customer sends it again after a lost answer, so the business gets one request (ADR 0034).
   */
  async function submit() {
    if (!slot) return;
    const trimmed = notes.trim() || undefined;
    const action = `${slot.id}\n${trimmed ?? ''}`;
    try {
      await request.mutateAsync({ slotId: slot.id, notes: trimmed, idempotencyKey: keys.keyFor(action) });
      keys.settle(action);
      notifications.show({
        color: 'green',
        title: MSG.bookingRequested,
        message: `${businessName} will confirm or decline it; we will email you either way.`,
      });
      setNotes('');
      onClose();
    } catch (err) {
      keys.settle(action, err);
      const info = errorInfo(err);
      notifications.show({ color: 'red', ...bookingFailureNotice(info) });
      if (info.code === 'UNAUTHORIZED') onSignInNeeded();
      else if (info.code === 'CONFLICT' || info.code === 'NOT_FOUND') onClose();
    } finally {
      await Promise.all([
        utils.businesses.bySlug.invalidate({ slug }),
        utils.bookings.mine.invalidate(),
        utils.discovery.search.invalidate(),
      ]);
    }
  }

  return (
    <Modal opened={slot !== null} onClose={() => !request.isPending && onClose()} title="Request this appointment">
      {slot && (
        <Stack gap="md">
          <Paper withBorder p="sm" radius="md" bg="gray.0">
            <Text fw={700}>{slot.description}</Text>
            <Text size="sm">{formatDate(slot.date)}</Text>
            <Text size="sm" c="dimmed">
              {formatTimeRange(slot.startTime, slot.endTime)} · {businessName}
            </Text>
          </Paper>
          <Textarea
            label="Notes (optional)"
            placeholder="Anything the business should know"
            autosize
            minRows={2}
            maxRows={5}
            maxLength={NOTES_MAX}
            value={notes}
            onChange={(e) => setNotes(e.currentTarget.value)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={request.isPending}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} loading={request.isPending}>
              Send Request
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
