/** What every service needs besides its input: the database, the clock and link building. */
import type { Logger } from 'pino';
import type { Throttle } from '../auth/throttle';
import type { BillingPortal } from '../billing/portal';
import type { Db } from '../db/client';
import type { BookingEventHub } from '../realtime/booking-events';

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
  /** Login and email throttling (server/auth/throttle.ts, docs/decisions/0008). */
  throttle: Throttle;
  /** Billing portal (Stripe when STRIPE_SECRET_KEY is set); absent or null: billing unavailable. */
  billingPortal?: BillingPortal | null;
}
