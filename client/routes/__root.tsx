import { MantineProvider } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, HeadContent, Outlet, ScriptOnce, Scripts } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { pageTitle } from '../../shared/format';
import type { MapTiles } from '../../shared/map-tiles';
import { CookieConsent } from '../features/consent/cookie-consent';
import { AppLayout } from '../features/layout/app-layout';
import { NotFound, NOT_FOUND_TITLE } from '../features/layout/not-found';
import { Toasts } from '../features/layout/toasts';
import { HOLD_BEFORE_START_SCRIPT } from '../lib/hold-before-start';
import { useReplayTapBeforeStart } from '../lib/tap-before-start';
import { theme } from '../lib/theme';
import type { TrpcUtils } from '../lib/trpc';

export interface RouterContext {
  queryClient: QueryClient;
  trpcUtils: TrpcUtils;
  /** The app's own origin (e.g. 'https://lastslot.example'), for the addresses pages name in their head. */
  origin: string;
  /** The maps' tiles, as the server is configured (MAP_TILE_URL, MAP_TILE_ATTRIBUTION). */
  mapTiles: MapTiles;
  /**
   * On the server only: the render could not read the session in time, so it renders the shell
   * and asks nothing (client/router.tsx).
   */
  sessionUnknown?: boolean;
}

const DESCRIPTION = 'LastSlot: book last-minute and cancelled appointment slots from local businesses.';

export const Route = createRootRouteWithContext<RouterContext>()({
  // Who is signed in, asked once per server render: the header and every screen read it, so the
  // server's markup and the browser's first render agree. When the server could not read the
  // session in time it renders the shell and asks nothing: the page comes without an answer and
  // the browser asks itself, through the guards and gates that also serve its own navigations.
  beforeLoad: async ({ context }) => {
    if (import.meta.env.SSR && !context.sessionUnknown) {
      await context.trpcUtils.auth.me.ensureData().catch(() => undefined);
    }
  },
  head: ({ matches }) => ({
    meta: [
      { charSet: 'UTF-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1.0' },
      { name: 'description', content: DESCRIPTION },
      { property: 'og:site_name', content: 'LastSlot' },
      { property: 'og:type', content: 'website' },
      { property: 'og:title', content: 'LastSlot' },
      { property: 'og:description', content: DESCRIPTION },
      { name: 'theme-color', content: '#0ca678' },
      // A page a route has names itself in its own head; the 404 page is named here.
      { title: pageTitle(matches.some((match) => match.status === 'notFound') ? NOT_FOUND_TITLE : null) },
    ],
    links: [{ rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }],
  }),
  shellComponent: RootDocument,
  component: RootComponent,
  notFoundComponent: NotFound,
});

/** The HTML document around every page: the head the matched routes ask for, and the router's scripts. */
function RootDocument({ children }: { children: ReactNode }) {
  return (
    <html lang="en-GB" data-mantine-color-scheme="light">
      <head>
        <HeadContent />
        {/* Before the page's forms: a form sent or a list tapped before the app runs is held for it (server only). */}
        {import.meta.env.SSR && <ScriptOnce>{HOLD_BEFORE_START_SCRIPT}</ScriptOnce>}
      </head>
      <body>
        {/* The theme's CSS variables are in the app's style sheet, made once when it is built
            (virtual:theme-variables.css), not a <style> computed on every render. */}
        <MantineProvider theme={theme} withCssVariables={false} defaultColorScheme="light">
          <Toasts />
          {children}
        </MantineProvider>
        <Scripts />
      </body>
    </html>
  );
}

/** Set on the document once the app has hydrated it (what tests and tools wait for). */
export const APP_RUNNING_ATTRIBUTE = 'data-app-running';

function RootComponent() {
  useReplayTapBeforeStart();
  useEffect(() => document.documentElement.setAttribute(APP_RUNNING_ATTRIBUTE, ''), []);
  return (
    <>
      <AppLayout>
        <Outlet />
      </AppLayout>
      <CookieConsent />
    </>
  );
}
