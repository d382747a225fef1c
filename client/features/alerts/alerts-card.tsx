import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import { Anchor, Badge, Button, Card, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ALERT_EMAIL_INTERVAL_MINUTES, alertWhat, alertWhere } from '../../../shared/alerts';
import { MSG } from '../../../shared/messages';
import { errorInfo, trpc, type RouterOutputs } from '../../lib/trpc';
import { CardHeading } from '../settings/card-heading';

type Alert = RouterOutputs['alerts']['list'][number];

/**
 * Settings' Alerts card (customers; docs/decisions/0086), anchor /settings#alerts: each saved
 * Discover search with where, distance, window and category, paused or not, with Pause / Resume and
 * Delete (after a confirmation). Empty: how to save one on Discover.
 */
export function AlertsCard() {
  const utils = trpc.useUtils();
  const list = trpc.alerts.list.useQuery(undefined, { refetchOnWindowFocus: false });
  const setPaused = trpc.alerts.setPaused.useMutation();
  const remove = trpc.alerts.delete.useMutation();
  const [deleting, setDeleting] = useState<Alert | null>(null);

  async function togglePause(alert: Alert) {
    try {
      await setPaused.mutateAsync({ alertId: alert.id, paused: !alert.paused });
      notifications.show({
        color: 'teal',
        title: alert.paused ? MSG.alertResumed : MSG.alertPaused,
        message: alertWhere(alert),
      });
    } catch (err) {
      notifications.show({ color: 'red', message: errorInfo(err).message });
    } finally {
      await utils.alerts.list.invalidate();
    }
  }

  async function onDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ alertId: deleting.id });
      notifications.show({ color: 'teal', title: MSG.alertDeleted, message: alertWhere(deleting) });
    } catch (err) {
      notifications.show({ color: 'red', message: errorInfo(err).message });
    } finally {
      setDeleting(null);
      await utils.alerts.list.invalidate();
    }
  }

  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      id="alerts"
      aria-labelledby="alerts-heading"
      style={{ scrollMarginTop: 80 }}
    >
      <Stack gap="md">
        <CardHeading id="alerts-heading" title="Alerts">
          {`We email you when new slots match a search you saved on Discover, at most once every ${ALERT_EMAIL_INTERVAL_MINUTES} minutes per alert. To hear from one business, turn on '${MSG.favouriteAlertLabel}' on its page.`}
        </CardHeading>
        {list.isPending ? (
          <Loader size="sm" />
        ) : list.isError ? (
          <Text size="sm" c="red">
            {MSG.generic}
          </Text>
        ) : list.data.length === 0 ? (
          <Text size="sm">
            {MSG.alertsEmpty}{' '}
            <Anchor component={Link} to="/discover">
              Go to Discover
            </Anchor>
          </Text>
        ) : (
          <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {list.data.map((a) => (
              <Group
                key={a.id}
                component="li"
                justify="space-between"
                align="center"
                gap="sm"
                wrap="wrap"
                data-testid="alert-row"
                py={6}
                style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              >
                <div style={{ minWidth: 0, flex: '1 1 240px' }}>
                  <Group gap={8} wrap="wrap">
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }} c={a.paused ? 'dimmed' : undefined}>
                      {alertWhere(a)}
                    </Text>
                    {a.paused && (
                      <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
                        Paused
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {alertWhat(a)}
                  </Text>
                </div>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => void togglePause(a)}
                    loading={setPaused.isPending && setPaused.variables?.alertId === a.id}
                    aria-label={`${a.paused ? 'Resume' : 'Pause'} alert: ${alertWhere(a)}`}
                  >
                    {a.paused ? 'Resume' : 'Pause'}
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => setDeleting(a)}
                    aria-label={`Delete alert: ${alertWhere(a)}`}
                  >
                    Delete
                  </Button>
                </Group>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>

      <Modal
        opened={deleting !== null}
        onClose={() => !remove.isPending && setDeleting(null)}
        title="Delete this alert?"
      >
        {deleting && (
          <Stack gap="md">
            <div>
              <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                {alertWhere(deleting)}
              </Text>
              <Text size="sm">{alertWhat(deleting)}</Text>
            </div>
            <Text size="sm">You will no longer get emails about new slots for this search.</Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setDeleting(null)} disabled={remove.isPending}>
                Keep Alert
              </Button>
              <Button color="red" onClick={() => void onDelete()} loading={remove.isPending}>
                Delete Alert
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}
