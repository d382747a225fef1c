import { trpc } from '../../lib/trpc';

/** The signed-in user and auth state (accounts spec §3, §4), from auth.me. */
export function useAuth() {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 30_000 });
  return {
    isLoading: me.isPending,
    user: me.data?.user ?? null,
    authState: me.data?.authState ?? 'unregistered',
    query: me,
  };
}
