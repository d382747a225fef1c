/**
 * Customer appointment buckets (the customer dashboard's tabs), by the slot's date and
 * start time in the business's zone.
 */
import { isPast } from './zoned-time';

export type BookingStatus = 'pending' | 'confirmed' | 'cancelled' | 'completed';
export type CustomerBucket = 'confirmed' | 'pending' | 'declined' | 'archive';

export interface BucketInput {
  status: BookingStatus;
  declinedByBusiness: boolean;
  date: string | null;
  startTime: string | null;
  timezone: string;
}

/**
 * The tab a booking belongs in. `expired` is true for a past pending request ('Request Expired').
 *
 * A request cancelled without the declined flag (withdrawn by the customer, or rejected inline by
 * the business) belongs in Archive whatever its date, with the 'Cancelled' badge, so a customer
 * can always see what became of each request (docs/decisions/0036).
 */
export function customerBucket(b: BucketInput, now: Date = new Date()): { bucket: CustomerBucket; expired: boolean } {
  const past = b.date && b.startTime ? isPast(b.date, b.startTime, b.timezone, now) : true;
  const declined = b.status === 'cancelled' && b.declinedByBusiness;
  const confirmed = b.status === 'confirmed' || b.status === 'completed';
  if (past || (b.status === 'cancelled' && !declined)) {
    return { bucket: 'archive', expired: past && b.status === 'pending' };
  }
  if (confirmed) return { bucket: 'confirmed', expired: false };
  if (b.status === 'pending') return { bucket: 'pending', expired: false };
  return { bucket: 'declined', expired: false };
}
