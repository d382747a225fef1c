import { createFileRoute } from '@tanstack/react-router';
import { requireProfileCompletion } from '../features/auth/guards';
import { CompleteBusinessProfilePage } from '../features/onboarding/complete-business-profile-page';

export const Route = createFileRoute('/complete-business-profile')({
  // The guard runs on the server too (the session's part of it); the screen renders in the browser,
  // since the registration waiting to be completed is in the tab's session storage.
  ssr: 'data-only',
  beforeLoad: ({ context }) => requireProfileCompletion(context.trpcUtils),
  component: CompleteBusinessProfilePage,
});
