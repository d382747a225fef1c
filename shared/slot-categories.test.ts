import { describe, expect, it } from 'vitest';
import { businessTabOf, slotBadge, slotCategory, type SlotCategoryInput } from './slot-categories';

const tz = 'Europe/London';
const free: Omit<SlotCategoryInput, 'date' | 'startTime'> = {
  isBooked: false,
  addedToSystem: false,
  customerName: null,
  hasPendingRequest: false,
  hasDeclinedRequest: false,
  timezone: tz,
};

describe('business tabs', () => {
  it('lists available, booked and not-booked categories under their tabs; requested under none', () => {
    expect(businessTabOf('available')).toBe('available');
    expect(businessTabOf('booked')).toBe('booked');
    expect(businessTabOf('declined')).toBe('notBooked');
    expect(businessTabOf('unbooked')).toBe('notBooked');
    expect(businessTabOf('requested')).toBeNull();
  });

  it('keeps a booked slot booked once it is past, and a declined one declined', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const past = { date: '2026-11-21', startTime: '11:00' };
    expect(slotCategory({ ...free, ...past, isBooked: true, customerName: 'Ann' }, now).category).toBe('booked');
    expect(slotCategory({ ...free, ...past, isBooked: true, addedToSystem: true }, now).category).toBe('booked');
    expect(slotCategory({ ...free, ...past, hasDeclinedRequest: true }, now).category).toBe('declined');
  });

  it('never shows a booked slot as available, even without a customer name', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(slotCategory({ ...free, date: '2026-11-22', startTime: '10:00', isBooked: true }, now).category).toBe(
      'booked',
    );
  });

  it('decides "past" in the business zone across the autumn change (London, 25 October 2026)', () => {
    const slot = { ...free, date: '2026-10-25', startTime: '09:00', hasPendingRequest: true };
    // 08:59 UTC is 08:59 GMT: still requested; at 09:00 UTC it has started, unanswered.
    expect(slotCategory(slot, new Date('2026-10-25T08:59:00Z'))).toEqual({
      category: 'requested',
      unconfirmed: false,
      past: false,
    });
    expect(slotCategory(slot, new Date('2026-10-25T09:00:00Z'))).toEqual({
      category: 'unbooked',
      unconfirmed: true,
      past: true,
    });
  });

  it('decides "past" in the business zone across the spring change (London, 29 March 2026)', () => {
    const slot = { ...free, date: '2026-03-29', startTime: '09:00' };
    // 08:00 UTC is 09:00 BST: the slot has started.
    expect(slotCategory(slot, new Date('2026-03-29T07:59:00Z')).category).toBe('available');
    expect(slotCategory(slot, new Date('2026-03-29T08:00:00Z')).category).toBe('unbooked');
  });
});

describe('business badges', () => {
  const at = new Date('2026-11-21T12:00:00Z');
  const badgeOf = (s: Partial<SlotCategoryInput>) =>
    slotBadge(slotCategory({ ...free, date: '2026-11-22', startTime: '10:00', ...s }, at)).label;

  it('labels each category with its badge text', () => {
    expect(badgeOf({})).toBe('Available');
    expect(badgeOf({ hasPendingRequest: true })).toBe('Pending');
    expect(badgeOf({ isBooked: true, customerName: 'Cam' })).toBe('Booked');
    expect(badgeOf({ hasDeclinedRequest: true })).toBe('Declined');
  });

  it('labels a past unbooked slot Unbooked, or Unconfirmed when its request was never answered', () => {
    expect(badgeOf({ date: '2026-11-20' })).toBe('Unbooked');
    expect(badgeOf({ date: '2026-11-20', hasPendingRequest: true })).toBe('Unconfirmed');
  });

  it('falls back to Unknown for a category it does not know', () => {
    expect(slotBadge({ category: 'archived' as never, unconfirmed: false }).label).toBe('Unknown');
  });
});
