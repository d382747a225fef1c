import { createFileRoute } from '@tanstack/react-router';
import { CheckEmailPage } from '../features/auth/check-email-page';
import { requireAwaitingConfirmation } from '../features/auth/guards';

export const Route = createFileRoute('/check-email')({
  // The guard runs on the server too; the screen renders in the browser, since the address waiting
  // for its link is in the navigation's state or the tab's session storage.
  ssr: 'data-only',
  beforeLoad: ({ context }) => requireAwaitingConfirmation(context.trpcUtils),
  component: CheckEmailPage,
});
