import { createFileRoute } from '@tanstack/react-router';
import { GuardPending } from '../features/auth/guard-pending';
import { requireQrCodeViewer } from '../features/auth/guards';
import { QrCodeScreen } from '../features/qr/qr-code-page';

/** /qrcode: the business's QR code. The QR library loads with this route's chunk only. */
export const Route = createFileRoute('/qrcode')({
  beforeLoad: ({ context }) => requireQrCodeViewer(context.trpcUtils),
  pendingComponent: () => <GuardPending label="Loading your QR code..." />,
  component: QrCodeScreen,
});
