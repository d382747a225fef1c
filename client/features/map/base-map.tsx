/**
 * The maps' base (docs/decisions/0084): Leaflet through react-leaflet, raster tiles from the
 * configured template with their credit, and a notice instead of an error when the images do not
 * load. Only a module loaded through `lazyMap` (./lazy-map.tsx) may import this one: it brings
 * Leaflet, which reads `window` when imported, and Leaflet's style sheet into the map's own chunk.
 */
import 'leaflet/dist/leaflet.css';
import './map.css';

import { Text } from '@mantine/core';
import { Icon, Marker as LeafletMarker, type LatLngBoundsExpression } from 'leaflet';
import markerIconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import markerIconUrl from 'leaflet/dist/images/marker-icon.png';
import markerShadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { MapContainer, TileLayer, useMap } from 'react-leaflet';
import type { LatLng } from '../../../shared/geo';
import { MSG } from '../../../shared/messages';
import { MapFrame, useMapTiles, type MapFrameProps } from './lazy-map';

// Leaflet finds its default marker's images from its style sheet's address, which a bundler
// rewrites; every marker without an icon of its own gets them from the bundled files instead.
LeafletMarker.mergeOptions({
  icon: new Icon({
    iconUrl: markerIconUrl,
    iconRetinaUrl: markerIconRetinaUrl,
    shadowUrl: markerShadowUrl,
    iconSize: [25, 41],
    iconAnchor: [12, 41],
    popupAnchor: [1, -34],
    tooltipAnchor: [16, -28],
    shadowSize: [41, 41],
  }),
});

export interface BaseMapProps extends MapFrameProps {
  /** The map's accessible name, e.g. 'Map of the results'. */
  label: string;
  /** The first view: `bounds` when given (south-west, north-east corners in degrees), else `center` at `zoom`. */
  center: LatLng;
  zoom: number;
  bounds?: LatLngBoundsExpression;
  /** What the map says when its images do not load; default MSG.mapImagesUnavailable. */
  imagesUnavailable?: string;
  /** Layers and behaviours (react-leaflet components: markers, hooks through `useMap`). */
  children?: ReactNode;
}

/**
 * A map `h` high: the configured tiles (`useMapTiles`) and their credit, zoom buttons, dragging and
 * keyboard panning (the wheel scrolls the page, not the map). When a tile fails to load it shows
 * `imagesUnavailable` over the map, without throwing, until an image loads again.
 */
export function BaseMap({
  h,
  label,
  center,
  zoom,
  bounds,
  imagesUnavailable = MSG.mapImagesUnavailable,
  children,
}: BaseMapProps) {
  const tiles = useMapTiles();
  const [unavailable, setUnavailable] = useState(false);
  const tileEvents = useMemo(
    () => ({ tileerror: () => setUnavailable(true), tileload: () => setUnavailable(false) }),
    [],
  );
  return (
    <MapFrame h={h}>
      <div role="region" aria-label={label} style={{ height: '100%' }}>
        <MapContainer
          center={[center.latitude, center.longitude]}
          zoom={zoom}
          bounds={bounds}
          scrollWheelZoom={false}
          style={{ height: '100%', width: '100%' }}
        >
          <TileLayer url={tiles.url} attribution={tiles.attribution} eventHandlers={tileEvents} />
          <FollowContainerSize />
          {children}
        </MapContainer>
      </div>
      <div role="status" className="map-notice-region">
        {unavailable && (
          <Text size="sm" className="map-notice" data-testid="map-images-unavailable">
            {imagesUnavailable}
          </Text>
        )}
      </div>
    </MapFrame>
  );
}

/** Tells Leaflet when its container changes size (a layout change, not only the window's), so no grey band is left. */
function FollowContainerSize() {
  const map = useMap();
  useEffect(() => {
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}
