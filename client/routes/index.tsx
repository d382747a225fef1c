import { createFileRoute } from '@tanstack/react-router';
import { LANDING_PAGE_NAME, pageTitle } from '../../shared/format';
import { redirectSignedInFromLanding } from '../features/auth/guards';
import { LandingPage } from '../features/landing/landing-page';

export const Route = createFileRoute('/')({
  // The page people arrive on: its app loads at the first interaction.
  staticData: { appAtFirstInteraction: true },
  // Signed-in users go to their dashboard (docs/decisions/0010).
  beforeLoad: ({ context }) => redirectSignedInFromLanding(context.trpcUtils),
  head: () => ({
    meta: [{ title: pageTitle(LANDING_PAGE_NAME) }, { property: 'og:title', content: pageTitle(LANDING_PAGE_NAME) }],
  }),
  // The pricing section's state, in the page's HTML (docs/decisions/0100).
  loader: ({ context }) => context.trpcUtils.billing.offer.ensureData(),
  component: LandingPage,
});
