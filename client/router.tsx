/**
 * The app's router, one definition for the browser (entry-client.tsx hydrates what the server
 * rendered) and for the server (entry-server.tsx renders each page). Loaders read and fill the
 * router's React Query cache through tRPC; the router's SSR query integration sends that cache
 * with the page and puts it back in the browser, so the browser's first render is the server's.
 */
import './mantine-styles';
import './styles.css';
// The theme's CSS variables, made when the app is built (vite.config.ts); last, as a <style> in the page was.
import 'virtual:theme-variables.css';

import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query';
import type { TRPCClient } from '@trpc/client';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { StrictMode, type ReactNode } from 'react';
import type { AppRouter as ApiRouter } from '../server/trpc/router';
import { DEFAULT_MAP_TILES, type MapTiles } from '../shared/map-tiles';
import { ConsentCookieContext } from './features/consent/consent-store';
import { FullPageLoader } from './features/layout/full-page-loader';
import { NotFound } from './features/layout/not-found';
import { RouteError } from './features/layout/route-error';
import { trpc } from './lib/trpc';
import { routeTree } from './routeTree.gen';

/** How long (ms) a navigation waits before showing the pending screen. */
export const PENDING_MS = 300;

export interface AppRouterOptions {
  /** The router's query cache: the browser's one cache, or a new one per server render. */
  queryClient: QueryClient;
  /** The tRPC client loaders and hooks call: HTTP in the browser, in-process on the server. */
  trpcClient: TRPCClient<ApiRouter>;
  /** On the server only: the request's consent cookie, so the render shows the banner as the browser will. */
  consentCookie?: string;
  /** The app's own origin, for the addresses pages name in their head. */
  origin: string;
  /**
   * On the server only: the maps' tiles (MAP_TILE_URL, MAP_TILE_ATTRIBUTION). They go with the page
   * into the router's context in the browser, which has no other way to know them.
   */
  mapTiles?: MapTiles;
  /**
   * On the server only: the request's session could not be read in time. The router renders the
   * shell: the root route without asking auth.me, and in place of the page the first route's
   * pending screen; the browser runs the page's routes, guards included.
   */
  sessionUnknown?: boolean;
}

/**
 * The app's router. Every route renders on the server (the session is the request's cookie, so
 * guards redirect before any HTML is sent) unless it says `ssr: false` because it needs the
 * browser's storage to decide.
 */
export function createAppRouter({
  queryClient,
  trpcClient,
  origin,
  mapTiles = DEFAULT_MAP_TILES,
  consentCookie,
  sessionUnknown = false,
}: AppRouterOptions) {
  const trpcUtils = createTRPCQueryUtils<ApiRouter>({ queryClient, client: trpcClient });
  // The browser's first render hydrates a page the visitor may already have scrolled (a scroll is
  // what loads the app on the pages that load it at the first interaction): restoring the scroll
  // position then would throw them back to the top. Later navigations restore it as usual.
  let hydrating = !import.meta.env.SSR;
  const router = createRouter({
    routeTree,
    context: { queryClient, trpcUtils, origin, mapTiles, sessionUnknown },
    isShell: sessionUnknown,
    // The server's configuration the browser's context needs, sent with the page's router state
    // (the query cache's integration below adds its own).
    dehydrate: () => ({ mapTiles }),
    hydrate: (dehydrated: { mapTiles: MapTiles }) => {
      router.update({ context: { ...router.options.context, mapTiles: dehydrated.mapTiles } });
    },
    defaultPreload: 'intent',
    // Loaders read React Query's cache; the router should not cache on top of it.
    defaultPreloadStaleTime: 0,
    defaultPendingMs: PENDING_MS,
    defaultPendingComponent: () => <FullPageLoader label="Loading..." />,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    scrollRestoration: () => {
      if (!hydrating) return true;
      hydrating = false;
      return false;
    },
    Wrap: ({ children }: { children: ReactNode }) => (
      <StrictMode>
        <ConsentCookieContext.Provider value={consentCookie}>
          <trpc.Provider client={trpcClient} queryClient={queryClient}>
            {children}
          </trpc.Provider>
        </ConsentCookieContext.Provider>
      </StrictMode>
    ),
  });
  // Also wraps the app in the QueryClientProvider.
  setupRouterSsrQueryIntegration({ router, queryClient });
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface StaticDataRouteOption {
    /**
     * The page's app loads at the visitor's first interaction (client/boot.ts), not at once: the
     * pages people arrive on from outside, whole in their server-rendered HTML. A function decides
     * from the page's search parameters.
     */
    appAtFirstInteraction?: boolean | ((search: object) => boolean);
  }
  interface HistoryState {
    /** The address /check-email resends to (set by /register and the login refusal). */
    email?: string;
  }
}
