import './mantine-styles';
import './styles.css';

import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { FullPageLoader } from './features/layout/full-page-loader';
import { Toasts } from './features/layout/toasts';
import { RouteError } from './features/layout/route-error';
import { NotFound } from './features/layout/not-found';
import { renderAfterFirstLoad } from './lib/first-render';
import { queryClient, trpc, trpcClient, trpcUtils } from './lib/trpc';
import { cssVariablesResolver, theme } from './lib/theme';
import { routeTree } from './routeTree.gen';

/** How long (ms) a navigation waits before showing the pending screen, and the first render at most. */
const PENDING_MS = 300;

const router = createRouter({
  routeTree,
  context: { queryClient, trpcUtils },
  defaultPreload: 'intent',
  // Loaders read React Query's cache; the router should not cache on top of it.
  defaultPreloadStaleTime: 0,
  defaultPendingMs: PENDING_MS,
  defaultPendingComponent: () => <FullPageLoader label="Loading..." />,
  defaultErrorComponent: RouteError,
  defaultNotFoundComponent: NotFound,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface HistoryState {
    /** The address /check-email resends to (set by /register and the login refusal). */
    email?: string;
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// The router loads the location first and the page then renders as one transition, which React
// splits into short tasks (docs/decisions/0062-first-render-after-first-load.md). Mounted after a
// finished load, the router's Transitioner does not load it again.
const reactRoot = createRoot(root);
renderAfterFirstLoad(router.load(), PENDING_MS, () =>
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <trpc.Provider client={trpcClient} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
              <Toasts />
              <RouterProvider router={router} />
            </MantineProvider>
          </QueryClientProvider>
        </trpc.Provider>
      </StrictMode>,
    ),
  ),
);
