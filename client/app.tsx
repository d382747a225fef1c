/**
 * The app's router and provider tree, one definition for the browser (main.tsx: rendered, or
 * hydrated over a server-rendered page) and for the server's render of the public page
 * (entry-server.tsx, docs/decisions/0075). Hydration needs both trees to be the same element for
 * element, so neither side builds its own.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createRouter, RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { ConsentCookieContext } from './features/consent/consent-store';
import { FullPageLoader } from './features/layout/full-page-loader';
import { NotFound } from './features/layout/not-found';
import { RouteError } from './features/layout/route-error';
import { Toasts } from './features/layout/toasts';
import { trpc, trpcClient, type TrpcUtils } from './lib/trpc';
import { cssVariablesResolver, theme } from './lib/theme';
import { routeTree } from './routeTree.gen';

/** How long (ms) a navigation waits before showing the pending screen, and the first render at most. */
export const PENDING_MS = 300;

/**
 * The app's router over `context` (the query cache and its tRPC helpers). `history`: the browser's
 * (default), or a memory history at the path the server renders. A server render has no scroll
 * restoration: the router would write it as an inline script, which the page's CSP blocks, and the
 * browser's router restores the scroll position itself. `hydrating`: the browser's router of a page
 * the server rendered, whose first render must leave the scroll position alone: the visitor has
 * already scrolled the page (the scroll that loaded the app, docs/decisions/0075), and restoring
 * would throw them back to the top. Later navigations restore it as usual.
 */
export function createAppRouter(
  context: { queryClient: QueryClient; trpcUtils: TrpcUtils },
  history?: RouterHistory,
  options: { hydrating?: boolean } = {},
) {
  let keepFirstScroll = options.hydrating === true;
  const restoreScroll = () => {
    if (!keepFirstScroll) return true;
    keepFirstScroll = false;
    return false;
  };
  return createRouter({
    routeTree,
    context,
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    // Loaders read React Query's cache; the router should not cache on top of it.
    defaultPreloadStaleTime: 0,
    defaultPendingMs: PENDING_MS,
    defaultPendingComponent: () => <FullPageLoader label="Loading..." />,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    scrollRestoration: history ? false : restoreScroll,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface HistoryState {
    /** The address /check-email resends to (set by /register and the login refusal). */
    email?: string;
  }
}

/**
 * The whole app: providers (tRPC, React Query, Mantine), the toast container and the router.
 * `consentCookie`: on the server only, the request's consent cookie (see `useConsent`).
 */
export function App({
  router,
  queryClient,
  consentCookie,
}: {
  router: AppRouter;
  queryClient: QueryClient;
  consentCookie?: string;
}) {
  return (
    <StrictMode>
      <ConsentCookieContext.Provider value={consentCookie}>
        <trpc.Provider client={trpcClient} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
              <Toasts />
              <RouterProvider router={router} />
            </MantineProvider>
          </QueryClientProvider>
        </trpc.Provider>
      </ConsentCookieContext.Provider>
    </StrictMode>
  );
}
