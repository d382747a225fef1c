import { createFileRoute, redirect } from '@tanstack/react-router';

/**
 * /register/business-details: an address with no screen of its own. The business details step is
 * /complete-business-profile, so this address leads there (and that route's own guard decides who
 * may see it). docs/decisions/0010-accounts-client-choices.md.
 */
export const Route = createFileRoute('/register_/business-details')({
  beforeLoad: () => {
    throw redirect({ to: '/complete-business-profile', replace: true });
  },
});
