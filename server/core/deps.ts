/**
 * What every service needs besides its input. Core imports no feature, trpc or realtime code at
 * run time; it names, type-only, the ports the bag carries (docs/decisions/0038).
 */
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Throttle } from '../features/auth/throttle';
import type { BillingPortal } from '../features/billing/portal';
import type { PublicPageCache } from '../features/businesses/public-page-cache';
import type {
  BookingChange,
  BookingEvent,
  BookingEventHub,
  BusinessChange,
  ChangeObserver,
  Resync,
  SlotChange,
} from '../realtime/booking-events';

/**
 * A booking, slot or business profile change as services publish it on `ServiceDeps.hub`, its
 * `change` names, and what the hub's observers hear.
 */
export type { BookingChange, BookingEvent, BusinessChange, ChangeObserver, Resync, SlotChange };

export interface ServiceDeps {
  db: Db;
  /** Injectable clock (tests move time). */
  now: () => Date;
  /** Absolute origin for links in emails, e.g. 'http://localhost:3000'. */
  appOrigin: string;
  hub: Pick<BookingEventHub, 'publish'>;
  /** This process's public page cache (server/features/businesses/public-page-cache.ts). */
  publicPages: Pick<PublicPageCache, 'get'>;
  /** Called after a transaction wrote to the outbox, to deliver without waiting for the timer. */
  kickMailer: () => void;
  logger: Logger;
  /** Login and email throttling (server/features/auth/throttle.ts, docs/decisions/0008). */
  throttle: Throttle;
  /** Billing portal (Stripe when STRIPE_SECRET_KEY is set); absent or null: billing unavailable. */
  billingPortal?: BillingPortal | null;
}
