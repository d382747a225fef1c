import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { memo } from 'react';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { DEFAULT_TIMEZONE } from '../../../shared/zoned-time';
import type { RouterOutputs } from '../../lib/trpc';
import { RequestButton } from '../public-page/request-button';
import { formatMiles } from './search-params';

/** One Discover result: a slot, its business and how far it is. */
export type DiscoverResult = RouterOutputs['discovery']['search']['results'][number];

/**
 * A result: the business (linked to its page), its category, the distance, the slot's date and
 * times in the business's own time zone (named when it is not the UK's) and its description, with
 * the business page's request button: 'Request' for a customer who may request, 'Login or Sign Up
 * to Request' otherwise; none when `showRequest` is false (business users). With the map open,
 * `onShowOnMap` gives it a 'Show on map' button and `highlighted` marks the chosen business's slots.
 */
export const ResultCard = memo(function ResultCard({
  result: r,
  showRequest,
  canRequest,
  onRequest,
  onSignIn,
  onShowOnMap,
  highlighted = false,
}: {
  result: DiscoverResult;
  showRequest: boolean;
  canRequest: boolean;
  onRequest: () => void;
  onSignIn: () => void;
  onShowOnMap?: () => void;
  highlighted?: boolean;
}) {
  const when = `${formatDate(r.date)}, ${formatTimeRange(r.startTime, r.endTime)}`;
  return (
    <Paper
      withBorder
      p="sm"
      px="md"
      radius="md"
      data-testid="discover-result"
      data-highlighted={highlighted || undefined}
      component="article"
      style={
        highlighted
          ? { borderColor: 'var(--mantine-color-orange-6)', boxShadow: '0 0 0 1px var(--mantine-color-orange-6)' }
          : undefined
      }
    >
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Group gap="xs" wrap="wrap">
            <Anchor renderRoot={(props) => <Link to="/$slug" params={{ slug: r.slug }} {...props} />} fw={700} fz="lg">
              {r.businessName}
            </Anchor>
            {r.category && (
              <Badge variant="light" color="gray" tt="none" fw={500}>
                {r.category}
              </Badge>
            )}
          </Group>
          <Text fw={600}>
            {when}
            {r.timezone !== DEFAULT_TIMEZONE && (
              <Text span size="sm" c="dimmed">
                {` (${r.timezone} time)`}
              </Text>
            )}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {r.description}
          </Text>
          <Group gap="xs" wrap="wrap">
            <Text size="sm" c="brand.9" fw={600}>
              {formatMiles(r.distanceMiles)}
            </Text>
            {onShowOnMap && (
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={onShowOnMap}
                aria-label={`Show on map: ${r.businessName}`}
              >
                Show on map
              </Button>
            )}
          </Group>
        </Stack>
        {showRequest && (
          <RequestButton
            canRequest={canRequest}
            requestLabel={`Request ${r.description} at ${r.businessName}, ${when}`}
            onRequest={onRequest}
            onSignIn={onSignIn}
          />
        )}
      </Group>
    </Paper>
  );
});
