import { createFileRoute, redirect } from '@tanstack/react-router';

/** /dashboard/customer/settings: the same screen as /settings. */
export const Route = createFileRoute('/dashboard/customer/settings')({
  beforeLoad: () => {
    throw redirect({ to: '/settings', replace: true });
  },
});
