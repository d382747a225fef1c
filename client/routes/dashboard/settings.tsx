import { createFileRoute, redirect } from '@tanstack/react-router';

/** /dashboard/settings: the same screen as /settings. */
export const Route = createFileRoute('/dashboard/settings')({
  beforeLoad: () => {
    throw redirect({ to: '/settings', replace: true });
  },
});
