/**
 * The Location card's small map (loaded through `lazyMap`, never on the server): the business's
 * pin on the shared base map, dragged with a mouse or finger, or moved with the arrow keys once
 * focused (pin-step.ts). A drop saves at once; arrow keys save once they have paused.
 */
import type { DragEndEvent, Marker as LeafletMarker } from 'leaflet';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Marker, useMap } from 'react-leaflet';
import type { LatLng } from '../../../shared/geo';
import { BaseMap } from '../map/base-map';
import type { MapFrameProps } from '../map/lazy-map';
import { pinIcon } from '../map/pin-icon';
import { pinStep } from './pin-step';

/** How long after the last arrow key the pin's new place is saved (ms): a run of presses saves once. */
const KEY_SAVE_DELAY_MS = 700;
const PIN_LABEL = "Your business's pin";

export interface LocationMapProps extends MapFrameProps {
  /** Where the map opens: the saved location, or a wide view when there is none. */
  centre: LatLng;
  /** The view's zoom level (Web Mercator, 0 = the world). */
  zoom: number;
  /** The saved location, or null: the pin then starts at `centre`, to be dragged into place. */
  pin: LatLng | null;
  /** Saves the pin's new place; resolves false when it was not saved (the pin goes back). */
  onMove: (at: LatLng) => Promise<boolean>;
  /** The id of the text beside the map that says how to move the pin. */
  hintId: string;
}

/** The small map with the business's draggable, keyboard-movable pin. */
export function LocationMap({ h, centre, zoom, pin, onMove, hintId }: LocationMapProps) {
  return (
    <BaseMap h={h} label="Map of your business's location" center={centre} zoom={zoom}>
      <FollowSavedPin pin={pin} zoom={zoom} />
      <MovablePin saved={pin ?? centre} onMove={onMove} hintId={hintId} />
    </BaseMap>
  );
}

/**
 * Brings a newly saved location into view: the map moves when the pin lands outside it (a
 * device's position far from the old one) or when the location became more precise (a closer
 * zoom), and otherwise stays where the owner left it.
 */
function FollowSavedPin({ pin, zoom }: { pin: LatLng | null; zoom: number }) {
  const map = useMap();
  const lastZoom = useRef(zoom);
  useEffect(() => {
    if (!pin) return;
    const closer = zoom > lastZoom.current;
    lastZoom.current = zoom;
    const at: [number, number] = [pin.latitude, pin.longitude];
    if (closer) map.setView(at, zoom);
    else if (!map.getBounds().contains(at)) map.panTo(at);
  }, [map, pin?.latitude, pin?.longitude, zoom]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

/** The pin: a button named PIN_LABEL that drags, and moves with the arrow keys (Shift for longer steps). */
function MovablePin({ saved, onMove, hintId }: Pick<LocationMapProps, 'onMove' | 'hintId'> & { saved: LatLng }) {
  const map = useMap();
  const marker = useRef<LeafletMarker>(null);
  const { icon } = useMemo(() => pinIcon(PIN_LABEL, { toggle: false, describedBy: hintId }), [hintId]);
  const [position, setPosition] = useState(saved);
  // The latest of each, for the listeners below (attached once).
  const latest = useRef({ position, saved, onMove });
  latest.current = { position, saved, onMove };

  useEffect(() => setPosition(saved), [saved.latitude, saved.longitude]); // eslint-disable-line react-hooks/exhaustive-deps

  const save = (at: LatLng) => {
    void latest.current.onMove(at).then((ok) => {
      if (!ok) setPosition(latest.current.saved);
    });
  };

  const events = useMemo(
    () => ({
      dragend: (e: DragEndEvent) => {
        const { lat, lng } = (e.target as LeafletMarker).getLatLng();
        const at = { latitude: lat, longitude: lng };
        setPosition(at);
        save(at);
      },
    }),
    // The handlers read the latest props through `latest`.
    [],
  );

  useEffect(() => {
    const button = marker.current?.getElement()?.querySelector('button');
    if (!button) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onKeyDown = (e: KeyboardEvent) => {
      const next = pinStep(latest.current.position, e.key, map.getZoom(), e.shiftKey);
      if (!next) return;
      // The arrow moves the pin, not the map or the page.
      e.preventDefault();
      e.stopPropagation();
      latest.current.position = next;
      setPosition(next);
      const at: [number, number] = [next.latitude, next.longitude];
      if (!map.getBounds().pad(-0.1).contains(at)) map.panTo(at);
      clearTimeout(timer);
      timer = setTimeout(() => save(next), KEY_SAVE_DELAY_MS);
    };
    button.addEventListener('keydown', onKeyDown);
    return () => {
      clearTimeout(timer);
      button.removeEventListener('keydown', onKeyDown);
    };
    // Attached once to the pin's button; the handler reads the latest props through `latest`.
  }, [map]);

  return (
    <Marker
      ref={marker}
      position={[position.latitude, position.longitude]}
      icon={icon}
      draggable
      keyboard={false}
      autoPan
      eventHandlers={events}
    />
  );
}
