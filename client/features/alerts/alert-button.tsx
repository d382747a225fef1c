import { Anchor, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from '@tanstack/react-router';
import { MSG } from '../../../shared/messages';
import type { DiscoverySearchForm } from '../../../shared/schemas/discovery';
import { errorInfo, trpc, type RouterOutputs } from '../../lib/trpc';
import { useAuth } from '../auth/use-auth';
import { BellIcon } from './bell-icon';

type SavedAlert = RouterOutputs['alerts']['list'][number];

/** The same place typed, ignoring case and spaces at the ends. */
const samePlace = (a: string | null, b: string | undefined) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/** Whether `alert` was saved from `search` (same place or rounded position, distance, window and category). */
function savedFrom(alert: SavedAlert, search: DiscoverySearchForm): boolean {
  const where = search.place
    ? samePlace(alert.place, search.place)
    : alert.place === null && alert.latitude === search.latitude && alert.longitude === search.longitude;
  return (
    where &&
    alert.miles === search.miles &&
    alert.window === search.window &&
    (alert.category ?? null) === (search.category ?? null)
  );
}

/**
 * Discover's "Tell me when something opens near me" (docs/decisions/0086): saves `search` (the
 * search being looked at, null while there is none: nothing is shown) as an alert of the signed-in
 * customer, then says so, with a link to Settings' Alerts card. A visitor's press calls
 * `onSignInNeeded` (the page's sign-in dialog); business users do not see it. A search already
 * saved (same place or rounded position, distance, window and category) shows as saved.
 */
export function AlertButton({
  search,
  onSignInNeeded,
}: {
  search: DiscoverySearchForm | null;
  onSignInNeeded: () => void;
}) {
  const { user } = useAuth();
  const isCustomer = user?.role === 'customer';
  const utils = trpc.useUtils();
  const list = trpc.alerts.list.useQuery(undefined, { enabled: isCustomer, refetchOnWindowFocus: false });
  const create = trpc.alerts.create.useMutation({
    onSuccess: () => void utils.alerts.list.invalidate(),
  });
  if (!search || user?.role === 'business') return null;
  const saved = isCustomer && (list.data ?? []).some((a) => savedFrom(a, search));

  if (saved || (create.isSuccess && create.variables === search)) {
    return (
      <Group gap="xs" data-testid="alert-saved">
        <Text size="sm" c="teal.8" fw={600}>
          ✓ {MSG.alertSavedTitle}
        </Text>
        <Anchor component={Link} to="/settings" hash="alerts" size="sm">
          Manage alerts
        </Anchor>
      </Group>
    );
  }

  async function save(where: DiscoverySearchForm) {
    if (!isCustomer) {
      onSignInNeeded();
      return;
    }
    try {
      await create.mutateAsync(where);
      notifications.show({ color: 'teal', title: MSG.alertSavedTitle, message: MSG.alertSaved });
    } catch (err) {
      const info = errorInfo(err);
      const known = info.code === 'CONFLICT' || info.code === 'PRECONDITION_FAILED';
      notifications.show({ color: known ? 'yellow' : 'red', message: info.message });
    }
  }

  return (
    <Group>
      <Button
        variant="light"
        leftSection={<BellIcon />}
        loading={create.isPending}
        onClick={() => void save(search)}
        // On a narrow phone the label takes two even lines rather than being cut off.
        h="auto"
        mih={36}
        py={6}
        styles={{ label: { whiteSpace: 'normal', textWrap: 'balance', textAlign: 'left', lineHeight: 1.3 } }}
      >
        {MSG.alertButton}
      </Button>
    </Group>
  );
}
