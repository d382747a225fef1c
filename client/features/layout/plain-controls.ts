/**
 * Class names of the plain controls drawn like Mantine's Button and ActionIcon (./plain-controls.css), for
 * what every page renders for each visitor: header links, footer links, cookie banner, a slot's
 * request button (ADR 0115). Mantine's documented `mantine-focus-auto` and `mantine-active` classes
 * give them its focus ring and pressed offset. Variants by `data-variant` and `data-color`.
 */
import './plain-controls.css';

/** Mantine's Button, size sm; its label goes in a <span>. */
export const PLAIN_BUTTON = 'plain-button mantine-focus-auto mantine-active';

/** Mantine's ActionIcon, size lg. */
export const PLAIN_ICON_BUTTON = 'plain-icon-button mantine-focus-auto mantine-active';
