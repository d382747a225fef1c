import { createFileRoute, redirect } from '@tanstack/react-router';
import { pageTitle } from '../../shared/format';
import { DEFAULT_TIMEZONE } from '../../shared/zoned-time';
import { DiscoverPage } from '../features/discover/discover-page';
import {
  canonicalDiscoverSearch,
  discoverSearch,
  searchInputFor,
  type DiscoverSearch,
} from '../features/discover/search-params';
import { errorInfo } from '../lib/trpc';

const TITLE = pageTitle('Discover');

/**
 * /discover: open slots near a place, for everyone (no login). The search is the address's
 * parameters (`discoverSearch`). On the server the page waits for the first page of results (the
 * customer's time zone is not known there: Europe/London, the browser searches again in its own
 * zone when it differs); in the browser the screen asks itself. The page is whole in its HTML: the
 * app loads at the first interaction (at once when the address opens the map). A parameter the
 * page cannot show is taken out of the address (`canonicalDiscoverSearch`).
 */
export const Route = createFileRoute('/discover')({
  // A shared link with the map open loads the app at once: the map is drawn in the browser.
  staticData: { appAtFirstInteraction: (search) => (search as DiscoverSearch).map === undefined },
  validateSearch: discoverSearch,
  // An address holding a parameter the page cannot show is replaced by the one the page shows.
  beforeLoad: ({ location }) => {
    const canonical = canonicalDiscoverSearch(location.search);
    if (canonical) throw redirect({ to: '/discover', search: canonical, replace: true });
  },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    if (!import.meta.env.SSR) return undefined;
    // A customer's saved alerts, so the page says at once whether this search is one of them.
    if (context.trpcUtils.auth.me.getData()?.user?.role === 'customer') {
      await context.trpcUtils.alerts.list.ensureData().catch(() => undefined);
    }
    const input = searchInputFor(deps, DEFAULT_TIMEZONE);
    if (!input) return undefined;
    try {
      await context.trpcUtils.discovery.search.fetchInfinite(input);
      return undefined;
    } catch (err) {
      // The screen shows it in words until the browser's own search answers.
      const { message, field } = errorInfo(err);
      return { loadError: { message, field } };
    }
  },
  head: () => ({ meta: [{ title: TITLE }, { property: 'og:title', content: TITLE }] }),
  component: function DiscoverScreen() {
    const data = Route.useLoaderData();
    return <DiscoverPage loadError={data?.loadError} />;
  },
});
