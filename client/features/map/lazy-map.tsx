/**
 * The maps' base, the part a page loads with it: the tiles from the router's context, the frame a
 * map and its placeholder share, and `lazyMap`, which loads a map's own module (built on
 * ./base-map.tsx: Leaflet, react-leaflet and their styles, in a chunk of its own) only once the
 * map is shown in the browser (docs/decisions/0084). Leaflet reads `window` when it is imported:
 * a page must reach it only through `lazyMap`, never by a static import.
 */
import { Box, Loader, Stack, Text, type BoxProps } from '@mantine/core';
import { useRouteContext } from '@tanstack/react-router';
import type { ComponentType, ReactNode } from 'react';
import type { MapTiles } from '../../../shared/map-tiles';
import { MSG } from '../../../shared/messages';
import { lazyDialog, type LazyDialog } from '../../lib/lazy-dialog';

/** The maps' tiles (URL template and credit) as the server is configured, the same on the server and in the browser. */
export function useMapTiles(): MapTiles {
  return useRouteContext({ from: '__root__', select: (context) => context.mapTiles });
}

/** What every map takes from its page: its height (a CSS length, or one per breakpoint: `{ base: 260, md: 480 }`). */
export interface MapFrameProps {
  h: BoxProps['h'];
}

/** The box a map (or its placeholder) fills: `h` high, full width, rounded and bordered. */
export function MapFrame({ h, children }: MapFrameProps & { children: ReactNode }) {
  return (
    <Box
      h={h}
      pos="relative"
      bg="gray.1"
      style={{
        // Leaflet's panes and controls (z-index up to 1000) stay below the page's fixed header and dialogs.
        isolation: 'isolate',
        overflow: 'hidden',
        borderRadius: 'var(--mantine-radius-md)',
        border: '1px solid var(--mantine-color-gray-3)',
      }}
    >
      {children}
    </Box>
  );
}

/**
 * A map component whose module `load` resolves to, loaded the first time it renders in the browser
 * (never on the server). Until then its frame says it is loading; if the module cannot be loaded,
 * it says so (MSG.mapNotLoaded) and tries again the next time the map is shown. Nothing is thrown.
 */
export function lazyMap<P extends MapFrameProps>(load: () => Promise<ComponentType<P>>): LazyDialog<P> {
  return lazyDialog(
    load,
    () => true,
    (props, failed) => (
      <MapFrame h={props.h}>
        <Stack h="100%" align="center" justify="center" gap="xs" p="md" role="status">
          {failed ? (
            <Text size="sm" ta="center">
              {MSG.mapNotLoaded}
            </Text>
          ) : (
            <>
              <Loader size="sm" aria-hidden />
              <Text size="sm" c="dimmed">
                Loading map...
              </Text>
            </>
          )}
        </Stack>
      </MapFrame>
    ),
  );
}
