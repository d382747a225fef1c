/**
 * What a business pays, as the product shows it (docs/decisions/0100). The Stripe Prices charged are
 * settings (STRIPE_PRICE_EARLY_ADOPTER, STRIPE_PRICE_LIST) and must match these amounts.
 */
import { MSG } from './messages';

export const PRICES = {
  /** Businesses that joined during the launch period, for life. */
  earlyAdopter: { pence: 995, label: '£9.95' },
  /** Everyone else. */
  list: { pence: 1995, label: '£19.95' },
} as const;

export type PriceName = keyof typeof PRICES;

/**
 * Why a business may not add slots, by its subscription view's state (docs/decisions/0100): the
 * server's refusal and the slot form say the same.
 */
export function slotGateMessage(state: string): string {
  if (state === 'expired') return MSG.slotsTrialEnded;
  if (state === 'canceled') return MSG.slotsSubscriptionEnded;
  if (state === 'past_due' || state === 'unpaid') return MSG.slotsPaymentOverdue;
  return MSG.slotsNotSubscribed;
}
