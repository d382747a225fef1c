import { notifications } from '@mantine/notifications';
import { hashKey, useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { MSG } from '../../../shared/messages';
import { consumeLocalSessionChange, onSessionChangeElsewhere } from './session-sync';
import { trpc } from '../../lib/trpc';
import { clearClientState } from './client-state';
import { useAuth } from './use-auth';

/**
 * Follows the session:
 * - another tab logged in or out: ask the server again and re-run the route guards;
 * - another tab logged out: forget this tab's state too (`clearClientState`);
 * - the user changed: forget every cached answer of the previous user (slot lists included);
 * - the session ended without this browser asking (expired, revoked by a password change
 *   elsewhere): 'Session Expired' / 'Please log in again to continue.', then home.
 */
export function SessionWatcher() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { user, query } = useAuth();
  const previous = useRef<string | null | undefined>(undefined);
  const quiet = useRef(false);

  useEffect(
    () =>
      onSessionChangeElsewhere((kind) => {
        if (kind === 'ending' || kind === 'kept') {
          // Another tab is signing out (or failed to): the end that may reach us first is deliberate.
          quiet.current = kind === 'ending';
          return;
        }
        if (kind === 'logout') {
          quiet.current = true;
          // Signed out in another tab: this tab forgets its part of the session too.
          clearClientState(queryClient);
        }
        void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.auth.me) });
      }),
    [queryClient],
  );

  const userId = query.isSuccess ? (user?.id ?? null) : undefined;
  useEffect(() => {
    if (userId === undefined) return;
    const before = previous.current;
    previous.current = userId;
    if (before === undefined || before === userId) return;
    const deliberate = consumeLocalSessionChange() || quiet.current;
    quiet.current = false;
    // A different user (or none): nothing cached for the previous one may be shown again.
    const meKey = hashKey(getQueryKey(trpc.auth.me, undefined, 'query'));
    queryClient.removeQueries({ predicate: (q) => q.queryHash !== meKey });
    if (before !== null && userId === null) {
      // A deliberate sign-out (this tab's or another's) cleared the state already; a session that
      // ended on its own is cleared here, before its toast.
      if (!deliberate) {
        clearClientState(queryClient);
        notifications.show({ color: 'red', title: MSG.sessionExpiredTitle, message: MSG.sessionExpired });
        void router.navigate({ to: '/' });
        return;
      }
    }
    void router.invalidate();
  }, [userId, queryClient, router]);

  return null;
}
