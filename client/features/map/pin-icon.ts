/**
 * A map pin that is a real button (lazily loaded maps only: it imports Leaflet): reached with Tab,
 * named for screen readers, pressed with Enter or Space as well as clicked.
 */
import { DivIcon } from 'leaflet';

/** The pin's drawing: a teardrop with a white dot (decorative; the button carries the name). */
const PIN_SVG =
  '<svg viewBox="-1.5 -1.5 33 43" width="30" height="40" aria-hidden="true" focusable="false">' +
  '<path d="M15 0C6.7 0 0 6.7 0 15c0 11.2 15 25 15 25s15-13.8 15-25C30 6.7 23.3 0 15 0z" fill="currentColor" stroke="#fff" stroke-width="2"/>' +
  '<circle cx="15" cy="15" r="5.5" fill="#fff"/></svg>';

/** A pin's Leaflet icon and the switch that shows it as the chosen one. */
export interface PinIcon {
  /** For a marker with `keyboard: false` (the button, not Leaflet's wrapper, takes the focus). */
  icon: DivIcon;
  /** Shows the pin as chosen (larger, another colour; `aria-pressed`) or not, without replacing it (focus stays). */
  setChosen: (chosen: boolean) => void;
}

/**
 * A 30 x 40 px pin, anchored at its tip, whose element is a button named `label`. A click, Enter or
 * Space on it is a click on its marker (the marker's 'click' event). `toggle: false` (a pin that is
 * not chosen, e.g. one dragged into place) leaves out its pressed state; `describedBy` is the id
 * of the text that says how to use it.
 */
export function pinIcon(label: string, options: { toggle?: boolean; describedBy?: string } = {}): PinIcon {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'map-pin';
  button.setAttribute('aria-label', label);
  if (options.toggle !== false) button.setAttribute('aria-pressed', 'false');
  if (options.describedBy) button.setAttribute('aria-describedby', options.describedBy);
  button.innerHTML = PIN_SVG;
  const icon = new DivIcon({
    html: button,
    className: 'map-pin-icon',
    iconSize: [30, 40],
    iconAnchor: [15, 40],
    tooltipAnchor: [0, -38],
  });
  return { icon, setChosen: (chosen) => button.setAttribute('aria-pressed', String(chosen)) };
}
