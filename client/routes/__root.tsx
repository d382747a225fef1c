import { MantineProvider } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, HeadContent, Outlet, Scripts } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { pageTitle } from '../../shared/format';
import { CookieConsent } from '../features/consent/cookie-consent';
import { AppLayout } from '../features/layout/app-layout';
import { NotFound } from '../features/layout/not-found';
import { Toasts } from '../features/layout/toasts';
import { useReplayTapBeforeStart } from '../lib/tap-before-start';
import { cssVariablesResolver, theme } from '../lib/theme';
import type { TrpcUtils } from '../lib/trpc';

export interface RouterContext {
  queryClient: QueryClient;
  trpcUtils: TrpcUtils;
  /** The app's own origin (e.g. 'https://lastslot.example'), for the addresses pages name in their head. */
  origin: string;
}

const DESCRIPTION = 'LastSlot: book last-minute and cancelled appointment slots from local businesses.';

export const Route = createRootRouteWithContext<RouterContext>()({
  // The document itself is always rendered on the server; each page says whether it is too.
  ssr: true,
  head: () => ({
    meta: [
      { charSet: 'UTF-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1.0' },
      { name: 'description', content: DESCRIPTION },
      { property: 'og:site_name', content: 'LastSlot' },
      { property: 'og:type', content: 'website' },
      { property: 'og:title', content: 'LastSlot' },
      { property: 'og:description', content: DESCRIPTION },
      { name: 'theme-color', content: '#0ca678' },
      { title: pageTitle(null) },
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
      </head>
      <body>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
          <Toasts />
          {children}
        </MantineProvider>
        <Scripts />
      </body>
    </html>
  );
}

function RootComponent() {
  useReplayTapBeforeStart();
  return (
    <>
      <AppLayout>
        <Outlet />
      </AppLayout>
      <CookieConsent />
    </>
  );
}
