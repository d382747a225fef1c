/**
 * Forgetting the browser's state of a session: user, profile, session and confirmation banner
 * (docs/decisions/0010). Used by the logout button, by a logout made in another tab and by a
 * session that ended on its own.
 */
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { confirmBanner } from './confirm-banner';
import { clearPendingRegistration, forgetCheckEmail } from './pending-registration';

/**
 * Clears this tab's session storage of the accounts flows (the pending registration, which holds a
 * password, the /check-email address and the banner), closes every toast, and drops the mutation
 * cache (a login's variables hold its password) and every cached answer nobody is showing. Queries
 * still on screen are left to the caller (reset or refetch them once the page has moved on).
 */
export function clearClientState(queryClient: QueryClient): void {
  clearPendingRegistration();
  forgetCheckEmail();
  confirmBanner.reset();
  notifications.clean();
  queryClient.getMutationCache().clear();
  queryClient.removeQueries({ predicate: (q) => q.getObserversCount() === 0 });
}
