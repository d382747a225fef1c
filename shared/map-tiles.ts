/**
 * Where the maps' images come from (MAP_TILE_URL, MAP_TILE_ATTRIBUTION): read by the server from
 * its environment, allowed in the pages' Content-Security-Policy and handed to the browser's maps
 * through the router's context (docs/decisions/0084).
 */

/** A map's raster tiles: where each image is and whom the map credits. */
export interface MapTiles {
  /**
   * Leaflet's tile URL template: `{z}`, `{x}` and `{y}` (or `{-y}`) are filled in for each image,
   * `{s}` (a subdomain, the host's first label only) and `{r}` ('@2x' on a high-density screen)
   * when present. An http(s) URL, or a path on this server ('/tiles/{z}/{x}/{y}.png').
   */
  url: string;
  /** The credit shown in the map's corner, as HTML (links allowed). */
  attribution: string;
}

/** OpenStreetMap's standard raster tiles and the credit their usage policy asks for. */
export const DEFAULT_MAP_TILES: MapTiles = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
};

/** A host a tile template may name: DNS labels, `{s}` as the first one only, and a port. */
const TILE_HOST = /^(?:\{s\}\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/i;

/**
 * Where the browser may load `url`'s images from, as a Content-Security-Policy source: its scheme
 * and host ('https://tile.openstreetmap.org'; a `{s}` subdomain becomes '*':
 * 'https://*.tile.example.com'); '' for a path on this server ('self' covers it); null when `url`
 * is no tile template this app can allow (no `{z}`, `{x}` and `{y}`, another scheme, `{s}` other
 * than as the host's first label).
 */
export function mapTileSource(url: string): string | null {
  if (!url.includes('{z}') || !url.includes('{x}') || !(url.includes('{y}') || url.includes('{-y}'))) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return '';
  const match = /^(https?):\/\/([^/?#]+)(?:[/?#]|$)/i.exec(url);
  if (!match || !TILE_HOST.test(match[2]!)) return null;
  return `${match[1]!.toLowerCase()}://${match[2]!.toLowerCase().replace(/^\{s\}\./, '*.')}`;
}
