/**
 * The business's four answers to a pending request (ADR 0012): Confirm Booking / Decline from the
 * dialog, Approve / Reject inline on the slot card, each with its toast, and the lists refreshed
 * afterwards.
 */
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import { useActionKeys } from '../../lib/action-keys';
import { IDEMPOTENT_WRITE_RETRIES, noticeFor, TIME_LIMITS_MS, useTimedMutation } from '../../lib/requests';
import { errorInfo, trpc, trpcClient } from '../../lib/trpc';

export type Answer = 'confirm' | 'approve' | 'decline' | 'reject';

const SUCCESS: Record<Answer, { title: string; message: string; color: string }> = {
  confirm: { title: MSG.bookingConfirmedTitle, message: MSG.bookingConfirmed, color: 'green' },
  approve: { title: MSG.bookingApproved, message: MSG.bookingConfirmed, color: 'green' },
  decline: { title: MSG.bookingDeclinedTitle, message: MSG.bookingDeclined, color: 'blue' },
  reject: {
    title: MSG.bookingDeclinedTitle,
    message: 'The customer has been notified and the slot is available again.',
    color: 'blue',
  },
};

/**
 * The failure toast: a time-out or a refusal with its own title (e.g. a past slot's) as it is,
 * anything else as 'Approval failed' / 'Failed to approve booking: {reason}' (or the decline's).
 */
function failure(answer: Answer, err: unknown): { title?: string; message: string } {
  const accepting = answer === 'confirm' || answer === 'approve';
  const title = accepting ? MSG.approvalFailedTitle : MSG.declineFailedTitle;
  const notice = noticeFor(err, { title });
  if (notice.kind === 'timeout' || errorInfo(err).title) return { title: notice.title, message: notice.message };
  const message = accepting
    ? `Failed to approve booking: ${notice.message}`
    : `Failed to decline booking: ${notice.message}`;
  return { title, message };
}

/** `answer(kind, bookingId)` sends the answer and shows its toast; true when it was accepted. */
export function useAnswerRequest() {
  const utils = trpc.useUtils();
  const mutations = {
    confirm: useTimedMutation(trpcClient.bookings.confirm, TIME_LIMITS_MS.write, IDEMPOTENT_WRITE_RETRIES),
    approve: useTimedMutation(trpcClient.bookings.approve, TIME_LIMITS_MS.write, IDEMPOTENT_WRITE_RETRIES),
    decline: useTimedMutation(trpcClient.bookings.decline, TIME_LIMITS_MS.write, IDEMPOTENT_WRITE_RETRIES),
    reject: useTimedMutation(trpcClient.bookings.reject, TIME_LIMITS_MS.write, IDEMPOTENT_WRITE_RETRIES),
  };
  const busy = Object.values(mutations).some((m) => m.isPending);

  const keys = useActionKeys();

  /**
   * Answering one booking one way is one action: its idempotency key is made when the answer is
   * first sent and reused if the user sends it again after a timeout or a lost answer (ADR 0034).
   */
  async function answer(kind: Answer, bookingId: string): Promise<boolean> {
    const action = `${kind}:${bookingId}`;
    try {
      await mutations[kind].mutateAsync({ bookingId, idempotencyKey: keys.keyFor(action) });
      keys.settle(action);
      const { title, message, color } = SUCCESS[kind];
      notifications.show({ color, title, message });
      return true;
    } catch (err) {
      keys.settle(action, err);
      notifications.show({ color: 'red', ...failure(kind, err) });
      return false;
    } finally {
      await Promise.all([utils.bookings.requests.invalidate(), utils.slots.listMine.invalidate()]);
    }
  }

  return { answer, busy };
}
