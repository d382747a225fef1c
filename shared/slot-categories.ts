/**
 * Business view of a slot: its display category and the dashboard tab it belongs to.
 */
import { isPast } from './zoned-time';

export type SlotCategory = 'available' | 'requested' | 'booked' | 'declined' | 'unbooked';
export type BusinessTab = 'available' | 'booked' | 'notBooked';

export interface SlotCategoryInput {
  date: string;
  startTime: string;
  isBooked: boolean;
  addedToSystem: boolean;
  customerName: string | null;
  hasPendingRequest: boolean;
  hasDeclinedRequest: boolean;
  timezone: string;
}

/**
 * Category of a slot: booked, then requested (not past), declined, unbooked (past; `unconfirmed`
 * when it had a request nobody answered), else available. "Booked" is is_booked with
 * added_to_system or a customer name; confirm and approve always copy the name, and a booked slot
 * that somehow lacks both is still booked (never offered as available, ADR 0012).
 */
export function slotCategory(
  s: SlotCategoryInput,
  now: Date = new Date(),
): { category: SlotCategory; unconfirmed: boolean; past: boolean } {
  const past = isPast(s.date, s.startTime, s.timezone, now);
  if (s.isBooked) return { category: 'booked', unconfirmed: false, past };
  if (s.hasPendingRequest && !past) return { category: 'requested', unconfirmed: false, past };
  if (s.hasDeclinedRequest) return { category: 'declined', unconfirmed: false, past };
  if (past) return { category: 'unbooked', unconfirmed: s.hasPendingRequest, past };
  return { category: 'available', unconfirmed: false, past };
}

/**
 * Badge of a slot in the business view: label and Mantine colour.
 * Requested slots read 'Pending'; a past slot reads 'Unconfirmed' when its request was never
 * answered, else 'Unbooked'. 'Cancelled' is a customer-side badge (a withdrawn or rejected request
 * puts the slot back to Available here).
 */
export function slotBadge(slot: { category: SlotCategory; unconfirmed: boolean }): { label: string; color: string } {
  switch (slot.category) {
    case 'available':
      return { label: 'Available', color: 'green' };
    case 'booked':
      return { label: 'Booked', color: 'blue' };
    case 'requested':
      return { label: 'Pending', color: 'orange' };
    case 'declined':
      return { label: 'Declined', color: 'red' };
    case 'unbooked':
      return slot.unconfirmed ? { label: 'Unconfirmed', color: 'yellow' } : { label: 'Unbooked', color: 'gray' };
    default:
      return { label: 'Unknown', color: 'gray' };
  }
}

/** The business tab a category is listed under (requested slots show under 'Current Requests'). */
export function businessTabOf(category: SlotCategory): BusinessTab | null {
  switch (category) {
    case 'available':
      return 'available';
    case 'booked':
      return 'booked';
    case 'declined':
    case 'unbooked':
      return 'notBooked';
    case 'requested':
      return null;
  }
}
