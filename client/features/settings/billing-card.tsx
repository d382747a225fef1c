import { Button, Card, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import { errorInfo, trpc } from '../../lib/trpc';
import { CardHeading } from './card-heading';

/**
 * Billing: 'Manage Billing' opens the payment provider's portal, which returns to /settings. The
 * page shows this card only when the business has a billing account (settings.business
 * `showBilling`).
 */
export function BillingCard() {
  const portal = trpc.billing.portalSession.useMutation();

  async function openPortal() {
    try {
      const { url } = await portal.mutateAsync();
      window.location.assign(url);
    } catch (err) {
      const info = errorInfo(err);
      // A refusal the server explains (no billing account, billing not configured) keeps its text.
      const message = info.code === 'PRECONDITION_FAILED' ? info.message : MSG.billingPortalFailed;
      notifications.show({ color: 'red', title: 'Billing', message });
    }
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="billing-heading">
      <Stack gap="md">
        <CardHeading id="billing-heading" title="Billing">
          Update your payment method, download invoices or change your subscription.
        </CardHeading>
        <Group>
          <Button variant="default" onClick={() => void openPortal()} loading={portal.isPending}>
            Manage Billing
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
