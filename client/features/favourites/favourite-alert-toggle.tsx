import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import { errorInfo, trpc } from '../../lib/trpc';
import { BellIcon } from '../alerts/bell-icon';

/**
 * "Email me when this business adds a slot" for one of the customer's favourites
 * (docs/decisions/0086): a toggle button (`on`: the current state) that sets it with
 * favourites.setAlert, says what changed, and refreshes the business's favourite status and the
 * Favourites panel.
 */
export function FavouriteAlertToggle({ businessId, on }: { businessId: string; on: boolean }) {
  const utils = trpc.useUtils();
  const set = trpc.favourites.setAlert.useMutation({
    onSuccess: (next) => {
      utils.favourites.status.setData({ businessId }, next);
      void utils.favourites.mine.invalidate();
    },
  });

  async function toggle() {
    try {
      await set.mutateAsync({ businessId, notify: !on });
      notifications.show({ color: 'teal', message: on ? MSG.favouriteAlertOff : MSG.favouriteAlertOn });
    } catch (err) {
      notifications.show({ color: 'red', message: errorInfo(err).message });
    }
  }

  return (
    <Button
      size="xs"
      variant={on ? 'light' : 'subtle'}
      color={on ? 'teal' : 'gray'}
      aria-pressed={on}
      leftSection={<BellIcon size={14} filled={on} />}
      loading={set.isPending}
      onClick={() => void toggle()}
      px={6}
      styles={{ label: { whiteSpace: 'normal', textWrap: 'balance', textAlign: 'left', lineHeight: 1.35 } }}
      h="auto"
      mih={28}
      py={4}
    >
      {MSG.favouriteAlertLabel}
    </Button>
  );
}
