import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import { noticeFor, useTimedMutation } from '../../lib/requests';
import { trpc, trpcClient } from '../../lib/trpc';
import type { CustomerBooking } from './booking-row';

/** Refusals whose server text says what happened (confirmed meanwhile, already handled, gone). */
const EXPLAINED = new Set(['CONFLICT', 'PRECONDITION_FAILED', 'NOT_FOUND']);

/**
 * Confirmation dialog for withdrawing a pending request (bookings.cancel). Success: 'Request
 * cancelled'. Failure: 'Error cancelling request' with 'Could not cancel your request. Please try
 * again.', or the server's reason when the request can no longer be cancelled
 * (docs/decisions/0017). The list is refetched either way.
 */
export function CancelRequestDialog({
  booking,
  onWithdrawing,
  onClose,
}: {
  booking: CustomerBooking | null;
  /** Called with the booking's id before the withdrawal is sent. */
  onWithdrawing?: (bookingId: string) => void;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const cancel = useTimedMutation(trpcClient.bookings.cancel);

  async function onConfirm() {
    if (!booking) return;
    onWithdrawing?.(booking.id);
    try {
      await cancel.mutateAsync({ bookingId: booking.id });
      notifications.show({
        color: 'green',
        title: MSG.requestCancelled,
        message: `Your request for ${booking.description ?? 'this appointment'} at ${booking.businessName ?? 'the business'} has been withdrawn.`,
      });
      onClose();
    } catch (err) {
      const notice = noticeFor(err);
      const explained = notice.code !== undefined && EXPLAINED.has(notice.code);
      notifications.show({
        color: 'red',
        title: MSG.cancelRequestFailedTitle,
        message: explained ? notice.message : MSG.cancelRequestFailed,
      });
      if (explained) onClose();
    } finally {
      await utils.bookings.mine.invalidate();
    }
  }

  return (
    <Modal
      opened={booking !== null}
      onClose={() => !cancel.isPending && onClose()}
      title="Cancel this request?"
      centered
    >
      {booking && (
        <Stack gap="md">
          <div>
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              {booking.description}
            </Text>
            <Text size="sm">
              {formatDate(booking.date)}, {formatTimeRange(booking.startTime, booking.endTime)}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {booking.businessName}
            </Text>
          </div>
          <Text size="sm">
            Your request will be withdrawn and the slot offered to other customers. You can request it again while it is
            still free.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={cancel.isPending} w={{ base: '100%', xs: 'auto' }}>
              Keep Request
            </Button>
            <Button
              color="red"
              onClick={() => void onConfirm()}
              loading={cancel.isPending}
              w={{ base: '100%', xs: 'auto' }}
            >
              Yes, cancel request
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
