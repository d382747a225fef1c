import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { memo } from 'react';
import { businessTypeLabel } from '../../../shared/categories';
import { FavouriteButton } from '../favourites/favourite-button';
import type { PublicData } from './use-business-by-slug';

/**
 * The page's heading: business name, type badge, the favourite button when `showFavourite`, and the
 * description. `onFavouriteSignIn` is called when a viewer who is not a customer presses the
 * favourite button; undefined for a customer, who saves the favourite. Memoised like `SlotList`.
 */
export const BusinessHeader = memo(function BusinessHeader({
  business,
  showFavourite,
  onFavouriteSignIn,
}: {
  business: PublicData['business'];
  showFavourite: boolean;
  onFavouriteSignIn: (() => void) | undefined;
}) {
  const typeLabel = businessTypeLabel(business.businessType);
  return (
    <Stack gap={6} mb="lg">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <div style={{ minWidth: 0 }}>
          <Title order={1} fz={{ base: 28, sm: 36 }} style={{ overflowWrap: 'anywhere' }}>
            {business.businessName}
          </Title>
          {typeLabel && (
            <Badge variant="light" size="lg" mt={6} data-testid="business-type">
              {typeLabel}
            </Badge>
          )}
        </div>
        {showFavourite && <FavouriteButton businessId={business.id} onSignInNeeded={onFavouriteSignIn} />}
      </Group>
      <Text c="dimmed" maw={720} mt={4} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
        {business.description?.trim() ? business.description : 'No description available.'}
      </Text>
    </Stack>
  );
});
