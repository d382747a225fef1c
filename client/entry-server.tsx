/**
 * The server's entry: renders the page for one request with the app's own router (client/router.tsx)
 * through TanStack Router's SSR request handler. Loaders call the API through the tRPC client the
 * server passes in (in-process, with the request's session); the router sends its state and the
 * query cache with the page, for the browser to hydrate.
 */
import { QueryClient } from '@tanstack/react-query';
import type { AnyRoute } from '@tanstack/react-router';
import { createRequestHandler, renderRouterToString, RouterServer } from '@tanstack/react-router/ssr/server';
import type { TRPCClient } from '@trpc/client';
import type { AppRouter as ApiRouter } from '../server/trpc/router';
import { APP_AT_FIRST_INTERACTION_HEADER } from '../shared/boot-script';
import type { MapTiles } from '../shared/map-tiles';
import { ROUTE_FILES_HEADER } from '../shared/route-files';
import { CONSENT_KEY } from './features/consent/consent-store';
import { createAppRouter } from './router';

/**
 * Each route's file by its route, relative to client/ as the client build's manifest names it
 * (e.g. 'routes/register.tsx'). The same modules the route tree imports: the browser's build splits
 * their screens into chunks of their own, this one does not.
 */
const ROUTE_FILES = new Map(
  Object.entries(
    import.meta.glob<{ Route: AnyRoute }>(['./routes/**/*.tsx', '!./routes/**/*.test.tsx'], { eager: true }),
  ).map(([file, module]) => [module.Route, file.slice('./'.length)]),
);

export interface RenderPageOptions {
  /** The page request (GET or HEAD; its URL, headers and abort signal). */
  request: Request;
  /** The API as the request's caller sees it: an in-process tRPC client with the request's session. */
  trpcClient: TRPCClient<ApiRouter>;
  /** The app's own origin, e.g. 'https://lastslot.example'. */
  origin: string;
  /** The maps' tiles (MAP_TILE_URL, MAP_TILE_ATTRIBUTION), sent with the page for the browser's maps. */
  mapTiles: MapTiles;
  /** The request's cookies by name. */
  cookies: Record<string, string | undefined>;
  /**
   * The server could not read the request's session in time (server/http/pages.ts): the answer is
   * the shell (the root route with the page's loading screen, no auth.me answer) and the browser
   * renders the page's routes.
   */
  sessionUnknown?: boolean;
}

/**
 * The HTML answer for `request`: 200 with the page, 404 with the not-found screen for a path no
 * route (or no business) has, or the redirect a route asked for. Each render has its own router
 * and query cache.
 */
export async function renderPage({
  request,
  trpcClient,
  origin,
  mapTiles,
  cookies,
  sessionUnknown = false,
}: RenderPageOptions): Promise<Response> {
  const handler = createRequestHandler({
    request,
    createRouter: () =>
      createAppRouter({
        // A server render asks each thing once: no retries, nothing refetched while it renders.
        queryClient: new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } }),
        trpcClient,
        origin,
        mapTiles,
        consentCookie: cookies[CONSENT_KEY],
        sessionUnknown,
      }),
  });
  return handler(async ({ router, responseHeaders }) => {
    const response = await renderRouterToString({
      router,
      responseHeaders,
      children: <RouterServer router={router} />,
    });
    // The server writes the page's script tags: the boot script instead of the app's where a
    // matched route asks for the app at the first interaction, unless the page is a shell, whose
    // routes the app renders.
    const atFirstInteraction = ({ staticData, search }: (typeof router.state.matches)[number]) =>
      typeof staticData.appAtFirstInteraction === 'function'
        ? staticData.appAtFirstInteraction(search)
        : staticData.appAtFirstInteraction === true;
    if (!sessionUnknown && router.state.matches.some(atFirstInteraction))
      response.headers.set(APP_AT_FIRST_INTERACTION_HEADER, '1');
    // And the style sheets of the matched routes' chunks, so the page is styled before the app runs.
    const files = router.state.matches.flatMap(({ routeId }) => ROUTE_FILES.get(router.routesById[routeId]) ?? []);
    if (files.length > 0) response.headers.set(ROUTE_FILES_HEADER, files.join(','));
    return response;
  });
}
