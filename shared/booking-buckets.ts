/**
 * Customer appointment buckets (dashboards spec §4 "Customer buckets"), by the slot's date and
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
 * The tab a booking belongs in, or null when it belongs in none (a request the customer cancelled).
 * `expired` is true for a past pending request ('Request Expired').
 */
export function customerBucket(
  b: BucketInput,
  now: Date = new Date(),
): { bucket: CustomerBucket | null; expired: boolean } {
  const past = b.date && b.startTime ? isPast(b.date, b.startTime, b.timezone, now) : true;
  const declined = b.status === 'cancelled' && b.declinedByBusiness;
  const confirmed = b.status === 'confirmed' || b.status === 'completed';
  if (past) {
    if (confirmed || declined || b.status === 'pending') {
      return { bucket: 'archive', expired: b.status === 'pending' };
    }
    return { bucket: null, expired: false };
  }
  if (confirmed) return { bucket: 'confirmed', expired: false };
  if (b.status === 'pending') return { bucket: 'pending', expired: false };
  if (declined) return { bucket: 'declined', expired: false };
  return { bucket: null, expired: false };
}
