import { Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import { errorInfo, trpc } from '../../lib/trpc';
import { FavouriteAlertToggle } from './favourite-alert-toggle';

/**
 * The favourite button of the public page /{slug}: shows the like count; a customer toggles it,
 * anyone else is asked to sign in. Hidden for businesses (the caller does not render it for them).
 * Once favourited, "Email me when this business adds a slot" shows under it (docs/decisions/0086).
 */
export function FavouriteButton({ businessId, onSignInNeeded }: { businessId: string; onSignInNeeded?: () => void }) {
  const utils = trpc.useUtils();
  const status = trpc.favourites.status.useQuery({ businessId });
  const set = trpc.favourites.set.useMutation({
    onSuccess: (next) => {
      utils.favourites.status.setData({ businessId }, next);
      void utils.favourites.mine.invalidate();
    },
  });
  const favourited = status.data?.favourited ?? false;
  const count = status.data?.count ?? 0;

  async function toggle() {
    if (onSignInNeeded) {
      onSignInNeeded();
      return;
    }
    if (!status.data) return;
    try {
      await set.mutateAsync({ businessId, favourited: !favourited });
      if (favourited) notifications.show({ color: 'green', message: MSG.removedFromFavourites });
    } catch (err) {
      notifications.show({ color: 'red', message: favourited ? MSG.favouriteRemoveFailed : MSG.favouriteAddFailed });
      console.warn('favourite failed', errorInfo(err).message);
    }
  }

  const button = (
    <Button
      variant={favourited ? 'light' : 'default'}
      color={favourited ? 'red' : 'gray'}
      onClick={() => void toggle()}
      loading={set.isPending || status.isPending}
      aria-pressed={favourited}
      leftSection={
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill={favourited ? 'currentColor' : 'none'}>
          <path
            d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.8 3.6 4.5 7 4.5c2 0 3.5 1.1 5 3 1.5-1.9 3-3 5-3 3.4 0 5.5 3.3 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4z"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinejoin="round"
          />
        </svg>
      }
    >
      {favourited ? 'Favourited' : 'Favourite'} · {count}
    </Button>
  );
  if (!favourited || onSignInNeeded) return button;
  return (
    <Stack gap={4} align="stretch">
      {button}
      <FavouriteAlertToggle businessId={businessId} on={status.data?.notifyNewSlots ?? false} />
    </Stack>
  );
}
