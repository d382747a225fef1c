/**
 * The subscription on the business's screens (docs/decisions/0100): the dashboard banner, the slot
 * form's explanation when slots cannot be added, and 'Subscribe', which opens Stripe Checkout at the
 * price the server decides.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from '@tanstack/react-router';
import { MSG } from '../../../shared/messages';
import { PRICES, slotGateMessage } from '../../../shared/pricing';
import { errorInfo, trpc, type RouterOutputs } from '../../lib/trpc';

export type Subscription = RouterOutputs['billing']['subscription'];

/** e.g. '31 December 2026'. */
export const day = (at: Date | null) => (at ? at.toLocaleDateString('en-GB', { dateStyle: 'long' }) : '');

/** The signed-in business's subscription view, re-read when a webhook changes it (live.tsx). */
export function useSubscription() {
  return trpc.billing.subscription.useQuery(undefined, { staleTime: 30_000 });
}

/**
 * Opens a payment provider's page: `open` answers { url } (Checkout or the portal) and the browser goes
 * there. A refusal the server explains (a code in `explained`) keeps its text; anything else is `failed`.
 */
export async function goToProviderPage(
  open: () => Promise<{ url: string }>,
  texts: { title: string; failed: string; explained: readonly string[] },
): Promise<void> {
  try {
    const { url } = await open();
    window.location.assign(url);
  } catch (err) {
    const info = errorInfo(err);
    const message = info.code && texts.explained.includes(info.code) ? info.message : texts.failed;
    notifications.show({ color: 'red', title: texts.title, message });
  }
}

/** 'Subscribe': starts Checkout and leaves for Stripe's page; a refusal or failure is toasted. */
export function SubscribeButton({ size = 'sm' }: { size?: 'xs' | 'sm' }) {
  const checkout = trpc.billing.checkout.useMutation();
  const subscribe = () =>
    goToProviderPage(() => checkout.mutateAsync(), {
      title: 'Subscribe',
      failed: MSG.checkoutFailed,
      explained: ['PRECONDITION_FAILED', 'CONFLICT'],
    });
  return (
    <Button size={size} onClick={() => void subscribe()} loading={checkout.isPending}>
      Subscribe
    </Button>
  );
}

/** A link to Settings, where 'Manage Billing' opens the portal. */
export function ManageBillingLink({ size = 'sm' }: { size?: 'xs' | 'sm' }) {
  return (
    <Button size={size} variant="default" renderRoot={(props) => <Link to="/settings" {...props} />}>
      Manage Billing
    </Button>
  );
}

interface Summary {
  color: 'blue' | 'yellow' | 'red';
  title: string;
  text: string;
  action: 'subscribe' | 'manage' | null;
}

const subscribeAgain = (price: string) =>
  `Subscribe for ${price} to add slots. Your public page, your open slots and every booking keep working.`;

/** What the business is told about `view`, or null when there is nothing to say (launch, active). */
export function subscriptionSummary(view: Subscription): Summary | null {
  const price = `${PRICES[view.price].label} a month${view.isEarlyAdopter ? ' for life' : ''}`;
  switch (view.state) {
    case 'trialing':
      if (!view.canSubscribe) return null;
      return {
        color: 'blue',
        title: `Free period: ${view.daysLeftInTrial} ${view.daysLeftInTrial === 1 ? 'day' : 'days'} left`,
        text: `Subscribe for ${PRICES[view.price].label} a month to keep adding slots after ${day(view.trialEndsAt)}.${view.isEarlyAdopter ? ' As you joined at launch, that price is yours for life.' : ''}`,
        action: 'subscribe',
      };
    case 'expired':
      return { color: 'red', title: 'Your free trial has ended', text: subscribeAgain(price), action: 'subscribe' };
    case 'canceled':
    case 'incomplete':
      return {
        color: 'red',
        title: 'Your subscription is not active',
        text: subscribeAgain(price),
        action: 'subscribe',
      };
    case 'canceling':
      return {
        color: 'yellow',
        title: 'Your subscription is canceling',
        text: `It ends on ${day(view.subscriptionEndsAt)}; until then you can add slots as usual. Manage Billing renews it.`,
        action: 'manage',
      };
    case 'past_due':
      return view.isActive
        ? {
            color: 'yellow',
            title: 'Payment overdue',
            text: `Your last payment did not go through. Update your payment details in Manage Billing by ${day(view.graceEndsAt)} to keep adding slots.`,
            action: 'manage',
          }
        : { color: 'red', title: 'Payment overdue', text: slotGateMessage(view.state), action: 'manage' };
    case 'unpaid':
      return { color: 'red', title: 'Payment overdue', text: slotGateMessage(view.state), action: 'manage' };
    default:
      return null;
  }
}

/** The dashboard's banner while the subscription needs the business's attention. */
export function SubscriptionBanner() {
  const { data } = useSubscription();
  const summary = data ? subscriptionSummary(data) : null;
  if (!summary) return null;
  return (
    <Alert color={summary.color} title={summary.title} data-testid="subscription-banner">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{summary.text}</Text>
        {summary.action === 'subscribe' ? <SubscribeButton size="xs" /> : <ManageBillingLink size="xs" />}
      </Stack>
    </Alert>
  );
}

/** In place of the slot form when the subscription does not allow adding slots: why, and what to do. */
export function SubscriptionNeeded({ view }: { view: Subscription }) {
  return (
    <Alert color="yellow" variant="light" title={MSG.subscriptionNeededTitle} data-testid="subscription-needed">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{slotGateMessage(view.state)}</Text>
        <Group gap="xs">{view.canSubscribe ? <SubscribeButton size="xs" /> : <ManageBillingLink size="xs" />}</Group>
      </Stack>
    </Alert>
  );
}
