import { createFileRoute } from '@tanstack/react-router';
import { GuardPending } from '../features/auth/guard-pending';
import { requireAuthenticated } from '../features/auth/guards';
import { ContactPage } from '../features/contact/contact-page';

/** /contact, 'Get in Touch': any signed-in user. */
export const Route = createFileRoute('/contact')({
  beforeLoad: ({ context }) => requireAuthenticated(context.trpcUtils),
  pendingComponent: () => <GuardPending label="Loading..." />,
  component: ContactPage,
});
