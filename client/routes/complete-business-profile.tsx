import { createFileRoute } from '@tanstack/react-router';
import { requireProfileCompletion } from '../features/auth/guards';
import { CompleteBusinessProfilePage } from '../features/onboarding/complete-business-profile-page';

export const Route = createFileRoute('/complete-business-profile')({
  beforeLoad: ({ context }) => requireProfileCompletion(context.trpcUtils),
  component: CompleteBusinessProfilePage,
});
