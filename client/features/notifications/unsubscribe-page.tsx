import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { MSG } from '../../../shared/messages';
import { errorInfo, trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { AuthCard } from '../auth/auth-card';

/**
 * /unsubscribe/$token: the page an email's 'Unsubscribe' link opens (docs/decisions/0054). It says
 * which emails the link turns off and for which address, and turns them off on a click; no login.
 * Mail apps' one-click unsubscribe POSTs to the same URL instead (server/plain-routes.ts).
 */
export function UnsubscribePage({ token }: { token: string }) {
  usePageTitle('Unsubscribe');
  const info = trpc.notifications.unsubscribeInfo.useQuery({ token }, { retry: false, refetchOnWindowFocus: false });
  const utils = trpc.useUtils();
  const confirm = trpc.notifications.unsubscribe.useMutation({
    onSuccess: (next) => utils.notifications.unsubscribeInfo.setData({ token }, next),
  });

  let body;
  if (info.isPending) body = <Loader />;
  else if (info.isError) {
    const notFound = errorInfo(info.error).code === 'NOT_FOUND' || errorInfo(info.error).code === 'BAD_REQUEST';
    body = (
      <Alert color="red" title="Link not valid">
        {notFound ? errorInfo(info.error).message : MSG.generic}
      </Alert>
    );
  } else if (info.data.unsubscribed) {
    body = (
      <Alert color="teal" title="You're unsubscribed">
        {info.data.email} will no longer receive '{info.data.label}' emails.
      </Alert>
    );
  } else {
    body = (
      <Stack gap="md">
        <Text>
          Stop sending '{info.data.label}' emails to {info.data.email}?
        </Text>
        {confirm.isError && <Alert color="red">{MSG.generic}</Alert>}
        <Button onClick={() => confirm.mutate({ token })} loading={confirm.isPending}>
          Unsubscribe
        </Button>
      </Stack>
    );
  }
  return (
    <AuthCard title="Email preferences" subtitle="Booking emails from LastSlot">
      <Stack gap="md">
        {body}
        <Text size="sm" c="dimmed">
          You can choose every kind of booking email in your{' '}
          <Anchor underline="always" renderRoot={(props) => <Link to="/settings" hash="notifications" {...props} />}>
            settings
          </Anchor>{' '}
          (after logging in).
        </Text>
      </Stack>
    </AuthCard>
  );
}
