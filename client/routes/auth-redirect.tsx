import { notifications } from '@mantine/notifications';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '../../shared/messages';
import { refreshMe } from '../features/auth/guards';
import { FullPageLoader } from '../features/layout/full-page-loader';
import { confirmBanner } from '../lib/confirm-banner';
import { trpc } from '../lib/trpc';
import { usePageTitle } from '../lib/use-page-title';

export const Route = createFileRoute('/auth-redirect')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => ({
    token: typeof search.token === 'string' && search.token ? search.token : undefined,
  }),
  component: AuthRedirectPage,
});

const RELOAD_AFTER_MS = 30_000;

/** Landing of the email confirmation link (accounts spec §2 "/auth-redirect"). */
function AuthRedirectPage() {
  usePageTitle('Confirming your email');
  const { token } = Route.useSearch();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const confirm = trpc.auth.confirmEmail.useMutation();
  const [phase, setPhase] = useState<'confirming' | 'processing'>(token ? 'confirming' : 'processing');
  // StrictMode runs effects twice in development: the token is single-use, so call once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const reload = setTimeout(() => window.location.reload(), RELOAD_AFTER_MS);

    async function run() {
      if (token) {
        try {
          await confirm.mutateAsync({ token });
        } catch {
          await navigate({ to: '/login', search: { error: 'confirmation_failed' }, replace: true });
          return;
        }
        setPhase('processing');
        confirmBanner.reset();
        const me = await refreshMe(utils);
        if (me.authState === 'pending_email') {
          await navigate({ to: '/check-email', replace: true });
          return;
        }
        notifications.show({ color: 'green', title: MSG.welcomeTitle, message: MSG.welcome });
        await navigate({ to: '/dashboard', replace: true });
        return;
      }
      // No token: go where the current session belongs.
      const me = await utils.auth.me.fetch(undefined, { staleTime: 0 }).catch(() => null);
      if (!me || me.authState === 'unregistered') await navigate({ to: '/login', replace: true });
      else if (me.authState === 'pending_email') await navigate({ to: '/check-email', replace: true });
      else await navigate({ to: '/dashboard', replace: true });
    }

    void run().finally(() => clearTimeout(reload));
    // Runs once per visit by design (see `started`).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <FullPageLoader
      fullScreen
      label={
        phase === 'confirming' ? 'Confirming your email and setting up your account...' : 'Processing authentication...'
      }
    />
  );
}
