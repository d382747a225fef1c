import { ActionIcon, Anchor, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import { businessTypeLabel } from '../../../shared/categories';
import { trpc } from '../../lib/trpc';
import { EmptyState } from '../dashboard/empty-state';
import { FavouriteAlertToggle } from './favourite-alert-toggle';

/**
 * The customer dashboard's 'Favourites' panel: each row opens /{slug} in a new tab, can be
 * removed ('Removed from favourites') and has "Email me when this business adds a slot".
 */
export function FavouritesPanel() {
  const utils = trpc.useUtils();
  const favourites = trpc.favourites.mine.useQuery();
  const remove = trpc.favourites.set.useMutation();

  async function onRemove(businessId: string, name: string) {
    try {
      await remove.mutateAsync({ businessId, favourited: false });
      notifications.show({ color: 'green', title: MSG.removedFromFavourites, message: name });
      void utils.favourites.mine.invalidate();
      void utils.favourites.status.invalidate({ businessId });
    } catch {
      notifications.show({ color: 'red', message: MSG.favouriteRemoveFailed });
    }
  }

  return (
    <Card>
      <Title order={2} fz="lg" mb="md">
        Favourites
      </Title>
      {favourites.isPending ? (
        <Loader size="sm" />
      ) : !favourites.data?.length ? (
        <EmptyState text="No favourite businesses yet" />
      ) : (
        <Stack gap="xs">
          {favourites.data.map((f) => (
            <Group key={f.businessId} justify="space-between" wrap="nowrap" gap="xs" data-testid="favourite-row">
              <div style={{ minWidth: 0 }}>
                <Anchor
                  href={`/${f.slug}`}
                  target="_blank"
                  rel="noopener"
                  fw={600}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {f.businessName}
                </Anchor>
                {businessTypeLabel(f.businessType) && (
                  <Text size="xs" c="dimmed">
                    {businessTypeLabel(f.businessType)}
                  </Text>
                )}
                <FavouriteAlertToggle businessId={f.businessId} on={f.notifyNewSlots} />
              </div>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove ${f.businessName} from favourites`}
                onClick={() => void onRemove(f.businessId, f.businessName)}
                loading={remove.isPending && remove.variables?.businessId === f.businessId}
              >
                <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
                  <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.8 3.6 4.5 7 4.5c2 0 3.5 1.1 5 3 1.5-1.9 3-3 5-3 3.4 0 5.5 3.3 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4z" />
                </svg>
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
