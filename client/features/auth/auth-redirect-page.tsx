import { notifications } from '@mantine/notifications';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { refreshMe } from './guards';
import { FullPageLoader } from '../layout/full-page-loader';
import { confirmBanner } from './confirm-banner';
import { broadcastSessionChange, markLocalSessionChange } from './session-sync';
import { errorInfo, trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { readEmailLink } from './search-params';

const route = getRouteApi('/auth-redirect');

const RELOAD_AFTER_MS = 30_000;

/**
 * Landing of the email confirmation and email-change links:
 * - an error in the link: /login?error={description};
 * - a confirmation token: confirm, sign in, 'Welcome!' toast, /dashboard. Failures go to /login
 *   with an error code (docs/decisions/0010): confirmation_failed (token refused), timeout (no
 *   answer), session_error (the server failed), session_setup_failed (auth.me failed afterwards),
 *   no_user (auth.me says nobody), auth_context_failed (anything else thrown afterwards);
 * - an email-change token: change the address, 'Email updated!' toast, then where the session
 *   belongs;
 * - no token: /login, /check-email or /dashboard by the current session.
 * The token leaves the address bar as soon as it is read, so the reload after 30 s (or any reload)
 * checks the session instead of spending a used token.
 */
export function AuthRedirectPage() {
  usePageTitle('Confirming your email');
  const search = route.useSearch();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const confirm = trpc.auth.confirmEmail.useMutation();
  const [link] = useState(() => readEmailLink(search));
  const [phase, setPhase] = useState<'confirming' | 'processing'>(link.token ? 'confirming' : 'processing');
  // StrictMode runs effects twice in development: the token is single-use, so call once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const reload = setTimeout(() => window.location.reload(), RELOAD_AFTER_MS);
    // Single use: take the token out of the address (and the history entry) once read.
    if (link.token || window.location.hash) {
      void navigate({ to: '/auth-redirect', search: {}, hash: '', replace: true });
    }
    const toLogin = (error: string) => navigate({ to: '/login', search: { error }, replace: true });

    async function goWhereSessionBelongs() {
      const me = await utils.auth.me.fetch(undefined, { staleTime: 0 }).catch(() => null);
      if (!me || me.authState === 'unregistered') await navigate({ to: '/login', replace: true });
      else if (me.authState === 'pending_email') await navigate({ to: '/check-email', replace: true });
      else await navigate({ to: '/dashboard', replace: true });
    }

    async function run() {
      if (link.error) {
        await toLogin(link.error_description ?? link.error);
        return;
      }
      if (!link.token) {
        await goWhereSessionBelongs();
        return;
      }
      let result;
      try {
        result = await confirm.mutateAsync({ token: link.token });
      } catch (err) {
        const info = errorInfo(err);
        if (info.code === 'CONFLICT') {
          notifications.show({ color: 'red', title: MSG.emailUpdateFailedTitle, message: info.message });
          await goWhereSessionBelongs();
          return;
        }
        if (info.message === MSG.connection) await toLogin('timeout');
        else if (info.httpStatus !== undefined && info.httpStatus >= 500) await toLogin('session_error');
        else await toLogin('confirmation_failed');
        return;
      }
      setPhase('processing');
      if (result.kind === 'email_change') {
        broadcastSessionChange();
        notifications.show({ color: 'green', title: MSG.emailChangedTitle, message: MSG.emailChanged });
        await refreshMe(utils).catch(() => null);
        await goWhereSessionBelongs();
        return;
      }
      confirmBanner.reset();
      markLocalSessionChange();
      broadcastSessionChange('login');
      let me;
      try {
        me = await refreshMe(utils);
      } catch {
        await toLogin('session_setup_failed');
        return;
      }
      if (me.authState === 'unregistered') {
        await toLogin('no_user');
        return;
      }
      if (me.authState === 'pending_email') {
        await navigate({ to: '/check-email', replace: true });
        return;
      }
      notifications.show({ color: 'green', title: MSG.welcomeTitle, message: MSG.welcome });
      await navigate({ to: '/dashboard', replace: true });
    }

    void run()
      .catch(() => toLogin('auth_context_failed'))
      .finally(() => clearTimeout(reload));
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
