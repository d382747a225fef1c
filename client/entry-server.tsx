/**
 * The server's render of the public page (docs/decisions/0075) and the landing page
 * (docs/decisions/0076), built by `npm run build:client` into dist/client/.ssr/entry-server.js and
 * imported by the server at start-up. It renders the app itself (client/app.tsx) at /{slug} from
 * the data the HTML also carries, or at /, as a visitor without a session sees it, so the browser
 * can hydrate that markup without a change.
 */
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { createTRPCClient, TRPCClientError } from '@trpc/client';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { observable } from '@trpc/server/observable';
import { renderToString } from 'react-dom/server';
import type { PublicPagePreload, PublicPageRenderer } from '../shared/public-page-preload';
import { App, createAppRouter } from './app';
import { CONSENT_KEY, consentChosen } from './features/consent/consent-store';
import { seedPageData } from './lib/page-preload';
import type { AppRouter } from '../server/trpc/router';

/**
 * A client for the render's router and queries that never reaches the API: each call fails at
 * once, so a guard that asks (the landing page's signed-in check) goes on as without an answer,
 * and the page shows only what was seeded.
 */
const offlineClient = createTRPCClient<AppRouter>({
  links: [() => () => observable((observer) => observer.error(new TRPCClientError('No API calls in a server render')))],
});

/**
 * The markup of `#root` for the page at `path`, with `preload` seeded into its query cache (auth.me
 * without a session always). Each render has its own query cache and router; nothing is fetched
 * (the queries it shows are seeded, the rest stay pending, as they are in the browser's first
 * render). Rejects when the render throws.
 */
async function render(path: string, preload: PublicPagePreload | null, consentCookie: string | undefined) {
  // No retries and no refetching: a server render never asks the API.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  seedPageData(queryClient, preload, true);
  const trpcUtils = createTRPCQueryUtils({ queryClient, client: offlineClient });
  const router = createAppRouter({ queryClient, trpcUtils }, createMemoryHistory({ initialEntries: [path] }));
  await router.load();
  try {
    return renderToString(<App router={router} queryClient={queryClient} consentCookie={consentCookie} />);
  } finally {
    queryClient.clear();
  }
}

export const renderer: PublicPageRenderer = {
  renderPublicPage: (preload, consentCookie) => render(`/${preload.slug}`, preload, consentCookie),
  renderLandingPage: (consentCookie) => render('/', null, consentCookie),
  consentChosen,
  consentCookieName: CONSENT_KEY,
};
