/**
 * What every service needs besides its input. Core imports no feature, trpc or realtime code at
 * run time; it names, type-only, the ports the bag carries (docs/decisions/0038).
 */
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Throttle } from '../features/auth/throttle';
import type { BillingPortal } from '../features/billing/portal';
import type { BookingChange, BookingEvent, BookingEventHub, SlotChange } from '../realtime/booking-events';

/** A booking or slot change as services publish it on `ServiceDeps.hub`, and its `change` names. */
export type { BookingChange, BookingEvent, SlotChange };

export interface ServiceDeps {
  db: Db;
  /** Injectable clock (tests move time). */
  now: () => Date;
  /** Absolute origin for links in emails, e.g. 'http://localhost:3000'. */
  appOrigin: string;
  hub: Pick<BookingEventHub, 'publish'>;
  /** Called after a transaction wrote to the outbox, to deliver without waiting for the timer. */
  kickMailer: () => void;
  logger: Logger;
  /** Login and email throttling (server/features/auth/throttle.ts, docs/decisions/0008). */
  throttle: Throttle;
  /** Billing portal (Stripe when STRIPE_SECRET_KEY is set); absent or null: billing unavailable. */
  billingPortal?: BillingPortal | null;
}
