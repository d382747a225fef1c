import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { MSG } from '../../../shared/messages';
import { trpc } from '../../lib/trpc';
import { day, goToProviderPage, SubscribeButton, subscriptionSummary, useSubscription } from '../billing/subscription';
import { CardHeading } from './card-heading';

/**
 * Billing: once billing has started, the subscription's state and 'Subscribe' while there is none to
 * manage (docs/decisions/0100); 'Manage Billing' (when `showManage`, settings.business `showBilling`)
 * opens the payment provider's portal, which returns to /settings. Nothing during the launch period
 * without a billing account.
 */
export function BillingCard({ showManage }: { showManage: boolean }) {
  const portal = trpc.billing.portalSession.useMutation();
  const { data: view } = useSubscription();
  const billingOn = view !== undefined && view.state !== 'launch';
  if (!showManage && !billingOn) return null;
  const summary = view ? subscriptionSummary(view) : null;

  // A refusal the server explains (no billing account, billing not configured) keeps its text.
  const openPortal = () =>
    goToProviderPage(() => portal.mutateAsync(), {
      title: 'Billing',
      failed: MSG.billingPortalFailed,
      explained: ['PRECONDITION_FAILED'],
    });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="billing-heading">
      <Stack gap="md">
        <CardHeading id="billing-heading" title="Billing">
          Update your payment method, download invoices or change your subscription.
        </CardHeading>
        {billingOn && (
          <Text size="sm" data-testid="subscription-state">
            {summary
              ? `${summary.title}. ${summary.text}`
              : view.isTrial
                ? `Your subscription is active; the first payment is on ${day(view.trialEndsAt)}.`
                : 'Your subscription is active.'}
          </Text>
        )}
        <Group>
          {view?.canSubscribe && <SubscribeButton />}
          {showManage && (
            <Button variant="default" onClick={() => void openPortal()} loading={portal.isPending}>
              Manage Billing
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
