import { createFileRoute, notFound, redirect } from '@tanstack/react-router';
import { metaDescription } from '../../shared/display-text';
import { hasBusinessIdentity, pageTitle } from '../../shared/format';
import { classifySlugPath } from '../../shared/reserved-slugs';
import { NotFound } from '../features/layout/not-found';
import { BusinessNotFound, PublicBusinessScreen } from '../features/public-page/public-business-page';
import { errorInfo } from '../lib/trpc';
import { MSG } from '../../shared/messages';

/** What the route's not-found carries when the address could be a slug but no business has it. */
const NO_BUSINESS = { noBusiness: true } as const;

/**
 * /{slug}: the public business page, rendered on the server (a QR code's visitor sees it whole
 * before any script runs; the app loads at the first interaction). A single path segment that a
 * slug could be (3-50 lowercase letters, digits, hyphens) or a reserved word shows the page, which
 * says 'Business Not Found' (status 404) when no business has it; a slug typed with capitals is
 * moved for good to its lower-case address; anything else is the 404 page (ADR 0020). The
 * product's own routes are static and matched before this one.
 */
export const Route = createFileRoute('/$slug')({
  staticData: { appAtFirstInteraction: true },
  beforeLoad: ({ params, location }) => {
    // The router also lands here for a longer path that starts with a possible slug ('/a/b').
    if (location.pathname.split('/').length !== 2) throw notFound();
    const path = classifySlugPath(params.slug);
    if (path.kind === 'not-found') throw notFound();
    if (path.kind === 'redirect')
      throw redirect({ to: '/$slug', params: { slug: path.to }, search: true, replace: true, statusCode: 301 });
  },
  // On the server the page waits for its data (the per-worker public page cache); in the browser
  // the screen asks itself, with its own loading, time-out and error states.
  loader: async ({ context, params }) => {
    if (!import.meta.env.SSR) return undefined;
    try {
      const data = await context.trpcUtils.businesses.bySlug.ensureData({ slug: params.slug });
      const business = data.business;
      // The favourite button's count is part of the page too; without it the button shows no count.
      await context.trpcUtils.favourites.status.ensureData({ businessId: business.id }).catch(() => undefined);
      if (!hasBusinessIdentity(business)) return undefined;
      return {
        title: pageTitle(business.businessName.trim()),
        // Flattened to one line, as search results and link previews show it (ADR 0077).
        description: metaDescription(business.description ?? '') || undefined,
        url: `${context.origin}/${business.slug}`,
      };
    } catch (err) {
      if (errorInfo(err).code === 'NOT_FOUND') throw notFound({ data: NO_BUSINESS });
      // Any other failure: the screen shows 'Error Loading Business' with Try Again.
      return undefined;
    }
  },
  head: ({ loaderData, match }) => {
    if (match.status === 'notFound' && isNoBusiness((match.error as { data?: unknown } | undefined)?.data))
      return { meta: [{ title: pageTitle(MSG.pageBusinessNotFound) }] };
    if (!loaderData) return {};
    const { title, description, url } = loaderData;
    return {
      meta: [
        { title },
        { property: 'og:title', content: title },
        ...(description
          ? [
              { name: 'description', content: description },
              { property: 'og:description', content: description },
            ]
          : []),
        { property: 'og:url', content: url },
      ],
      links: [{ rel: 'canonical', href: url }],
    };
  },
  component: PublicBusinessScreen,
  notFoundComponent: function SlugNotFound({ data }) {
    const { slug } = Route.useParams();
    return isNoBusiness(data) ? <BusinessNotFound slug={slug} /> : <NotFound />;
  },
});

function isNoBusiness(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'noBusiness' in data;
}
