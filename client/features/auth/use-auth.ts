import { useWaitLimit } from '../../lib/requests';
import { trpc } from '../../lib/trpc';

/** The session consistency check runs every 30 s, at most once per 5 s. */
const CHECK_EVERY_MS = 30_000;
const CHECK_AT_MOST_EVERY_MS = 5_000;
/** The initial loading state is forced off after 15 s. */
const LOADING_FORCED_OFF_MS = 15_000;

/**
 * The signed-in user and auth state, from auth.me. Re-asked every 30 s and on window focus (not
 * more often than every 5 s).
 */
export function useAuth() {
  const me = trpc.auth.me.useQuery(undefined, {
    staleTime: CHECK_AT_MOST_EVERY_MS,
    refetchInterval: CHECK_EVERY_MS,
  });
  const gaveUp = useWaitLimit(me.isPending, LOADING_FORCED_OFF_MS);
  return {
    isLoading: me.isPending && !gaveUp,
    user: me.data?.user ?? null,
    authState: me.data?.authState ?? 'unregistered',
    query: me,
  };
}
