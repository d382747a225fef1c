import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { confirmBanner } from '../../lib/confirm-banner';
import { broadcastSessionChange, markLocalSessionChange } from '../../lib/session-sync';
import { errorInfo, trpc } from '../../lib/trpc';

/** Logout: end the session, leave the signed-in area, then forget every cached answer. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = trpc.auth.logout.useMutation();
  const [pending, setPending] = useState(false);

  async function logout() {
    setPending(true);
    try {
      await mutation.mutateAsync();
    } catch (err) {
      // Accounts spec §4: a 403 at sign-out is expected and ignored (the session is gone already).
      if (errorInfo(err).httpStatus !== 403) {
        notifications.show({ color: 'red', title: 'Logout failed', message: errorInfo(err).message });
        setPending(false);
        return;
      }
    }
    confirmBanner.reset();
    markLocalSessionChange();
    broadcastSessionChange('logout');
    await navigate({ to: '/' });
    // Forget every answer of the old session: drop unused queries, reset (and refetch) the ones
    // still on screen, such as the header's auth.me, which now answers 'unregistered'.
    queryClient.removeQueries({ predicate: (q) => q.getObserversCount() === 0 });
    await queryClient.resetQueries();
    setPending(false);
  }

  return { logout, pending };
}
