/**
 * The public page's markup rendered on the server for visitors without a session
 * (docs/decisions/0075): the client build's own render (client/entry-server.tsx, built into
 * `<clientDir>/.ssr/entry-server.js`), kept per page. A QR code's visitor then sees the whole page
 * from the HTML, before any script has run.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicPagePreload, PublicPageRenderer } from '../shared/public-page-preload';
import { deferredAppShell } from './client-pages';
import type { PublicPage } from './features/businesses/businesses.service';

/** Where a client build keeps its server render, relative to the client's folder. */
export const SERVER_RENDER_ENTRY = path.join('.ssr', 'entry-server.js');

/** The build's manifest (Vite's `build.manifest`), where the boot script's address is found. */
const MANIFEST = path.join('.vite', 'manifest.json');
/** The boot script's key in the manifest (client/boot.ts, relative to the client's root). */
export const BOOT_MANIFEST_KEY = 'boot.ts';

/** The server render of a client build, and the shell its pages go in. */
export interface ServerRender {
  renderer: PublicPageRenderer;
  /** index.html with the boot script instead of the app's (`deferredAppShell`). */
  shell: string;
}

/**
 * The render of the client built in `clientDir` (whose index.html is `template`), or null when the
 * build has none (a client built without it: pages are then the app shell alone, as for visitors
 * with a session). Throws when the module or the boot script is missing from a build that has a
 * render, or the module cannot be loaded: a broken build must not start.
 */
export async function loadServerRender(
  clientDir: string,
  template: string,
  logger: FastifyBaseLogger,
): Promise<ServerRender | null> {
  const file = path.join(clientDir, SERVER_RENDER_ENTRY);
  if (!existsSync(file)) {
    logger.warn({ file }, 'the client build has no server render: public pages are sent as the app shell');
    return null;
  }
  const manifest = JSON.parse(readFileSync(path.join(clientDir, MANIFEST), 'utf8')) as Record<string, { file: string }>;
  const boot = manifest[BOOT_MANIFEST_KEY]?.file;
  if (!boot) throw new Error(`the client build's manifest has no ${BOOT_MANIFEST_KEY}`);
  const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { renderer: PublicPageRenderer };
  return { renderer: module.renderer, shell: deferredAppShell(template, `/${boot}`) };
}

/**
 * Rendered markup per page. A business page's is kept as long as its answer object lives: the
 * public page cache hands out one object per page until the page changes or a slot starts (so a
 * render never shows what the answer no longer holds), and a new object means a new render. Per
 * object, one render for each favourite count and each banner state (consent chosen or not). The
 * landing page's (docs/decisions/0076) is kept for the process, one per banner state: it shows no
 * data. Both are rendered again in a new year (the footer shows it).
 */
export class RenderedPublicPages {
  private readonly renders = new WeakMap<PublicPage, Map<string, Promise<string>>>();
  private readonly landingRenders = new Map<string, Promise<string>>();

  constructor(private readonly renderer: PublicPageRenderer) {}

  /** The consent cookie's value in `cookies` (a request's parsed cookies). */
  consentCookie(cookies: Record<string, string | undefined>): string | undefined {
    return cookies[this.renderer.consentCookieName];
  }

  /**
   * The markup of `page` (`preload` is its answer as the HTML carries it, with the favourite count)
   * with or without the banner for `consentCookie`. Rejects when the render fails; a failed render
   * is not kept.
   */
  markup(page: PublicPage, preload: PublicPagePreload, consentCookie: string | undefined): Promise<string> {
    let perPage = this.renders.get(page);
    if (!perPage) {
      perPage = new Map();
      this.renders.set(page, perPage);
    }
    const key = `${preload.favourites?.count ?? ''}|${this.variant(consentCookie)}`;
    return kept(perPage, key, () => this.renderer.renderPublicPage(preload, consentCookie));
  }

  /** The landing page's markup with or without the banner for `consentCookie`; rejects as `markup`. */
  landing(consentCookie: string | undefined): Promise<string> {
    return kept(this.landingRenders, this.variant(consentCookie), () => this.renderer.renderLandingPage(consentCookie));
  }

  /**
   * What every render shows besides its page: the banner state, and the year (the footer's
   * copyright line, which the browser renders as it hydrates), so a render is not served into a
   * new year.
   */
  private variant(consentCookie: string | undefined): string {
    return `${new Date().getFullYear()}|${this.renderer.consentChosen(consentCookie) ? 'chosen' : 'banner'}`;
  }
}

/** `renders`' entry for `key`, rendered by `render` when absent; a rejected render is dropped. */
function kept(renders: Map<string, Promise<string>>, key: string, render: () => Promise<string>): Promise<string> {
  const found = renders.get(key);
  if (found) return found;
  const rendering = render();
  renders.set(key, rendering);
  rendering.catch(() => renders.delete(key));
  return rendering;
}
