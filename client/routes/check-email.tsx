import { createFileRoute } from '@tanstack/react-router';
import { CheckEmailPage } from '../features/auth/check-email-page';
import { requireAwaitingConfirmation } from '../features/auth/guards';

export const Route = createFileRoute('/check-email')({
  beforeLoad: ({ context }) => requireAwaitingConfirmation(context.trpcUtils),
  component: CheckEmailPage,
});
