import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Switch.css';
import { Loader, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import type { NotificationKind } from '../../../shared/notifications';
import { trpc } from '../../lib/trpc';
import { AnchoredCard, CardHeading } from './card-heading';

/**
 * Email Notifications (docs/decisions/0054): one switch per notification kind of the user's role
 * (booking emails; a customer's alerts of new slots, docs/decisions/0086). Account emails (confirmation, password, email change) always go and are not listed.
 */
export function NotificationsCard() {
  const utils = trpc.useUtils();
  const prefs = trpc.notifications.preferences.useQuery(undefined, { refetchOnWindowFocus: false });
  const set = trpc.notifications.setPreference.useMutation({
    onSuccess: (next) => utils.notifications.preferences.setData(undefined, next),
    onError: () => notifications.show({ color: 'red', title: 'Email Notifications', message: MSG.generic }),
  });

  return (
    <AnchoredCard id="notifications" headingId="notifications-heading">
      <Stack gap="md">
        <CardHeading id="notifications-heading" title="Email Notifications">
          Choose which of these emails you receive. Emails about your account itself are always sent.
        </CardHeading>
        {prefs.isPending ? (
          <Loader size="sm" />
        ) : prefs.isError ? (
          <Text size="sm" c="red">
            {MSG.generic}
          </Text>
        ) : (
          prefs.data.map((p) => (
            <Switch
              key={p.kind}
              checked={p.enabled}
              label={p.label}
              description={p.description}
              disabled={set.isPending && set.variables?.kind === p.kind}
              onChange={(e) => set.mutate({ kind: p.kind as NotificationKind, enabled: e.currentTarget.checked })}
            />
          ))
        )}
      </Stack>
    </AnchoredCard>
  );
}
