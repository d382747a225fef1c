/**
 * The server's render of the public page (docs/decisions/0075), built by `npm run build:client`
 * into dist/client/.ssr/entry-server.js and imported by the server at start-up. It renders the
 * app itself (client/app.tsx) at /{slug} from the data the HTML also carries, as a visitor without
 * a session sees it, so the browser can hydrate that markup without a change.
 */
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { renderToString } from 'react-dom/server';
import type { PublicPagePreload, PublicPageRenderer } from '../shared/public-page-preload';
import { App, createAppRouter } from './app';
import { CONSENT_KEY, consentChosen } from './features/consent/consent-store';
import { seedPageData } from './lib/page-preload';
import { trpcClient } from './lib/trpc';

/**
 * The markup of `#root` for `preload.slug`'s page (see PublicPageRenderer). Each render has its own
 * query cache and router; nothing is fetched (the queries it shows are seeded, the rest stay
 * pending, as they are in the browser's first render). Rejects when the render throws.
 */
async function renderPublicPage(preload: PublicPagePreload, consentCookie: string | undefined): Promise<string> {
  // No retries and no refetching: a server render never asks the API.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  seedPageData(queryClient, preload, true);
  const trpcUtils = createTRPCQueryUtils({ queryClient, client: trpcClient });
  const router = createAppRouter(
    { queryClient, trpcUtils },
    createMemoryHistory({ initialEntries: [`/${preload.slug}`] }),
  );
  await router.load();
  try {
    return renderToString(<App router={router} queryClient={queryClient} consentCookie={consentCookie} />);
  } finally {
    queryClient.clear();
  }
}

export const renderer: PublicPageRenderer = { renderPublicPage, consentChosen, consentCookieName: CONSENT_KEY };
