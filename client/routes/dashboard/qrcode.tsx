import { createFileRoute, redirect } from '@tanstack/react-router';

/** /dashboard/qrcode: the same screen as /qrcode, which applies the guards. */
export const Route = createFileRoute('/dashboard/qrcode')({
  beforeLoad: () => {
    throw redirect({ to: '/qrcode', replace: true });
  },
});
