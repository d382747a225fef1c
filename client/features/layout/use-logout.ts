import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { clearClientState } from '../auth/client-state';
import { broadcastSessionChange, sessionEndAbandoned, sessionEndStarting } from '../auth/session-sync';
import { errorInfo, trpc } from '../../lib/trpc';

/**
 * Logout: end the session, forget everything this tab kept of it (session storage, toasts, cached
 * answers: `clearClientState`), tell the other tabs, and go home.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = trpc.auth.logout.useMutation();
  const [pending, setPending] = useState(false);

  async function logout() {
    setPending(true);
    sessionEndStarting();
    try {
      await mutation.mutateAsync();
    } catch (err) {
      // A 403 at sign-out is expected and ignored (the session is gone already).
      if (errorInfo(err).httpStatus !== 403) {
        sessionEndAbandoned();
        notifications.show({ color: 'red', title: 'Logout failed', message: errorInfo(err).message });
        setPending(false);
        return;
      }
    }
    // An answer asked before the session ended (auth.me's periodic check, a list) must not land
    // after it: the landing page's guard would read a stale 'authenticated' and bounce to /dashboard.
    await queryClient.cancelQueries();
    clearClientState(queryClient);
    broadcastSessionChange('logout');
    await navigate({ to: '/' });
    // Reset (and refetch) the answers still on screen, such as the header's auth.me, which now
    // answers 'unregistered'.
    await queryClient.resetQueries();
    setPending(false);
  }

  return { logout, pending };
}
