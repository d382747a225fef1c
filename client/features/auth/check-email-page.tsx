import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useRouterState } from '@tanstack/react-router';
import { MSG } from '../../../shared/messages';
import { AuthCard } from './auth-card';
import { MailIcon } from './mail-icon';
import { useAuth } from './use-auth';
import { recalledCheckEmail } from './pending-registration';
import { errorInfo, trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

/** How often /check-email asks whether the sign-up email had a delivery problem. */
const STATUS_EVERY_MS = 15_000;

const DELIVERY_NOTICE = {
  limit: { title: MSG.emailLimitTitle, message: MSG.emailLimit },
  service: { title: MSG.emailServiceTitle, message: MSG.emailService },
  delivery: { title: MSG.emailDeliveryTitle, message: MSG.emailDelivery },
  other: { title: MSG.emailIssueTitle, message: MSG.emailIssue },
} as const;

export function CheckEmailPage() {
  usePageTitle('Check your email');
  const stateEmail = useRouterState({ select: (s) => s.location.state.email });
  const { user } = useAuth();
  // From navigation state, else the signed-in user, else what this tab registered last.
  const email = stateEmail ?? user?.email ?? recalledCheckEmail();
  const resend = trpc.auth.resendConfirmation.useMutation();
  // Tell the user when their email could not be delivered.
  const status = trpc.auth.signUpEmailStatus.useQuery(
    { email: email ?? '' },
    { enabled: Boolean(email), refetchInterval: STATUS_EVERY_MS, retry: false },
  );
  const issue = status.data?.issue ? DELIVERY_NOTICE[status.data.issue] : null;

  async function onResend() {
    if (!email) {
      notifications.show({ color: 'red', title: MSG.resendFailedTitle, message: MSG.resendNoEmail });
      return;
    }
    try {
      await resend.mutateAsync({ email });
      notifications.show({ color: 'green', title: MSG.resendSentTitle, message: MSG.resendSent });
    } catch (err) {
      const info = errorInfo(err);
      // The limit and a refused address keep their own texts; anything else is the generic one.
      const answered = info.httpStatus === 429 || info.code === 'BAD_REQUEST';
      notifications.show({
        color: 'red',
        title: answered ? (info.title ?? MSG.resendFailedTitle) : MSG.resendFailedTitle,
        message: answered ? info.message : MSG.resendFailed,
      });
    }
  }

  return (
    <AuthCard title="Check your email">
      <Stack gap="md">
        <MailIcon />
        {issue && (
          <Alert color="yellow" variant="light" title={issue.title} role="status">
            {issue.message}
          </Alert>
        )}
        {email ? (
          <Text>
            We sent a confirmation link to{' '}
            <Text span fw={700} style={{ overflowWrap: 'anywhere' }}>
              {email}
            </Text>
            .
          </Text>
        ) : (
          <Text>We sent a confirmation link to your email address.</Text>
        )}
        <Text size="sm" c="dimmed">
          Click the link in the email to confirm your account and you will be signed in. The link is valid for 24 hours.
          If you cannot see it, check your spam folder.
        </Text>
        <Button variant="light" onClick={() => void onResend()} loading={resend.isPending}>
          Resend
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          Already confirmed?{' '}
          <Anchor component={Link} to="/login" fw={600}>
            Log in
          </Anchor>
        </Text>
        {import.meta.env.LASTSLOT_DEV_MAILBOX === true && (import.meta.env.DEV || showDevHint()) ? (
          <Text size="xs" ta="center" c="dimmed">
            Running locally?{' '}
            <Anchor component={Link} to="/dev/mailbox" size="xs">
              Open the mailbox
            </Anchor>
          </Text>
        ) : null}
      </Stack>
    </AuthCard>
  );
}

/** The production build is also run locally (npm start): show the hint on local hosts. */
function showDevHint(): boolean {
  const host = window.location.hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
}
