/**
 * Discover's map, a view of the list (docs/decisions/0084): one pin per business among the results,
 * fitted to them, each a button named after its business. Loaded apart from the page
 * (`lazyMap`): it brings Leaflet.
 */
import type { LatLngBoundsLiteral, LatLngTuple, LeafletEventHandlerFnMap } from 'leaflet';
import { useEffect, useMemo } from 'react';
import { Marker, Tooltip, useMap } from 'react-leaflet';
import { pointsBounds, type LatLng } from '../../../shared/geo';
import { MSG } from '../../../shared/messages';
import { BaseMap } from '../map/base-map';
import type { MapFrameProps } from '../map/lazy-map';
import { pinIcon } from '../map/pin-icon';
import type { MapBusiness } from './map-businesses';

/** The business chosen on the map or in the list, and where it was chosen. */
export interface ChosenBusiness {
  businessId: string;
  from: 'map' | 'list';
}

export interface DiscoverMapProps extends MapFrameProps {
  /** The list's businesses (`businessesOf`), one pin each. */
  businesses: MapBusiness[];
  /** The centre searched: the view while there is no business to show. */
  centre: LatLng;
  /** The chosen business: its pin stands out; chosen in the list, the map pans to it. */
  chosen: ChosenBusiness | null;
  /** Called with a business's id when its pin is clicked or pressed (Enter, Space). */
  onChoose: (businessId: string) => void;
}

/** The zoom level around the centre while no business shows (about a town). */
const CENTRE_ZOOM = 12;
/** Fitting the businesses: room around them (px) and no closer than a few streets. */
const FIT = { padding: [40, 40] as [number, number], maxZoom: 15 };

/** `businesses`' bounds as 'south,west,north,east' (degrees), '' for none: a value effects can compare. */
function boundsKey(businesses: readonly MapBusiness[]): string {
  const box = pointsBounds(businesses);
  return box ? [box.minLatitude, box.minLongitude, box.maxLatitude, box.maxLongitude].join(',') : '';
}

/** The corners of a `boundsKey`. */
function boundsOfKey(key: string): LatLngBoundsLiteral {
  const [south, west, north, east] = key.split(',').map(Number) as [number, number, number, number];
  return [
    [south, west],
    [north, east],
  ];
}

/** The map of the Discover list `h` high (`DiscoverMapProps`). Tile failures are said on the map, never thrown. */
export function DiscoverMap({ h, businesses, centre, chosen, onChoose }: DiscoverMapProps) {
  const key = boundsKey(businesses);
  return (
    <BaseMap
      h={h}
      label="Map of the results"
      center={centre}
      zoom={CENTRE_ZOOM}
      bounds={key ? boundsOfKey(key) : undefined}
      imagesUnavailable={MSG.discoverMapImagesUnavailable}
    >
      <FitBusinesses boundsKey={key} />
      <PanToChosen businesses={businesses} chosen={chosen} />
      {businesses.map((b) => (
        <BusinessPin key={b.businessId} business={b} chosen={chosen?.businessId === b.businessId} onChoose={onChoose} />
      ))}
    </BaseMap>
  );
}

/** Fits the map to the businesses whenever their bounds change (a new search, a business coming or going). */
function FitBusinesses({ boundsKey: key }: { boundsKey: string }) {
  const map = useMap();
  useEffect(() => {
    if (key) map.fitBounds(boundsOfKey(key), FIT);
  }, [map, key]);
  return null;
}

/** Pans to a business chosen in the list (one chosen on the map is already in view). */
function PanToChosen({ businesses, chosen }: { businesses: readonly MapBusiness[]; chosen: ChosenBusiness | null }) {
  const map = useMap();
  const target = chosen?.from === 'list' ? businesses.find((b) => b.businessId === chosen.businessId) : undefined;
  const latitude = target?.latitude;
  const longitude = target?.longitude;
  useEffect(() => {
    if (latitude !== undefined && longitude !== undefined) map.panTo([latitude, longitude]);
    // `chosen` too: choosing the same business again pans back to it.
  }, [map, latitude, longitude, chosen]);
  return null;
}

/** A business's pin: a button named after it, with its name shown on hover and while it is chosen. */
function BusinessPin({
  business: b,
  chosen,
  onChoose,
}: {
  business: MapBusiness;
  chosen: boolean;
  onChoose: (businessId: string) => void;
}) {
  const pin = useMemo(() => pinIcon(b.businessName), [b.businessName]);
  useEffect(() => pin.setChosen(chosen), [pin, chosen]);
  const position = useMemo<LatLngTuple>(() => [b.latitude, b.longitude], [b.latitude, b.longitude]);
  const events = useMemo<LeafletEventHandlerFnMap>(() => ({ click: () => onChoose(b.businessId) }), [onChoose, b]);
  return (
    <Marker
      position={position}
      icon={pin.icon}
      keyboard={false}
      zIndexOffset={chosen ? 1000 : 0}
      eventHandlers={events}
    >
      {/* A tooltip's permanence is fixed when it is made: a new one when the choice changes. */}
      <Tooltip key={chosen ? 'chosen' : 'hover'} direction="top" permanent={chosen}>
        {b.businessName}
      </Tooltip>
    </Marker>
  );
}
