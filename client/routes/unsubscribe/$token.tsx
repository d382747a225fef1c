import { createFileRoute } from '@tanstack/react-router';
import { UnsubscribePage } from '../../features/notifications/unsubscribe-page';

/** /unsubscribe/$token: open to anyone holding an emailed unsubscribe link (docs/decisions/0054). */
export const Route = createFileRoute('/unsubscribe/$token')({
  component: function Unsubscribe() {
    const { token } = Route.useParams();
    return <UnsubscribePage token={token} />;
  },
});
