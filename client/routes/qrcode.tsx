import { createFileRoute, Navigate, redirect } from '@tanstack/react-router';
import { GuardPending } from '../features/auth/guard-pending';
import { requireAuthenticated } from '../features/auth/guards';
import { useAuth } from '../features/auth/use-auth';
import { QrAccessDenied, QrCodePage } from '../features/qr/qr-code-page';

/**
 * /qrcode: signed in; customers go to /dashboard; a business sees its QR code; any other role
 * 'Access Denied'. The QR library loads with this route's chunk only.
 */
export const Route = createFileRoute('/qrcode')({
  beforeLoad: async ({ context }) => {
    const { user } = await requireAuthenticated(context.trpcUtils);
    if (user.role === 'customer') throw redirect({ to: '/dashboard', replace: true });
    return { user };
  },
  pendingComponent: () => <GuardPending label="Loading your QR code..." />,
  component: QrCodeRoute,
});

function QrCodeRoute() {
  const { user: fromGuard } = Route.useRouteContext();
  const { user: live } = useAuth();
  const role: string = (live ?? fromGuard).role;
  if (role === 'customer') return <Navigate to="/dashboard" replace />;
  if (role !== 'business') return <QrAccessDenied />;
  return <QrCodePage />;
}
