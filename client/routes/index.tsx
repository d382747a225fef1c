import { createFileRoute } from '@tanstack/react-router';
import { redirectSignedInFromLanding } from '../features/auth/guards';
import { LandingPage } from '../features/landing/landing-page';

export const Route = createFileRoute('/')({
  // Signed-in users go to their dashboard (docs/decisions/0010).
  beforeLoad: ({ context }) => redirectSignedInFromLanding(context.trpcUtils),
  component: LandingPage,
});
