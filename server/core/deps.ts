/** What every service needs besides its input; core imports other layers type-only (docs/decisions/0038). */
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Throttle } from '../features/auth/throttle';
import type { Billing } from '../features/billing/billing-config';
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

/** The changes services publish on `ServiceDeps.hub`. */
export type { BookingChange, BookingEvent, BusinessChange, ChangeObserver, Resync, SlotChange };

export interface ServiceDeps {
  db: Db;
  /** Injectable clock (tests move time). */
  now: () => Date;
  /** Absolute origin for links in emails, e.g. 'http://localhost:3000'. */
  appOrigin: string;
  hub: Pick<BookingEventHub, 'publish'>;
  /** This process's public page cache. */
  publicPages: Pick<PublicPageCache, 'get'>;
  /** Called after a transaction wrote to the outbox, to deliver without waiting for the timer. */
  kickMailer: () => void;
  logger: Logger;
  /** Login and email throttling (docs/decisions/0008). */
  throttle: Throttle;
  /** Absent or null: billing is unavailable. */
  billingPortal?: BillingPortal | null;
  /** Subscriptions (docs/decisions/0100); absent or null: billing is off, the launch period. */
  billing?: Billing | null;
}
