import { describe, expect, it } from 'vitest';
import type { BookingEvent } from '../../core/deps';
import { BusinessCache } from './business-cache';

interface Page {
  businessId: string | null;
  body: string;
}

const cache = () =>
  new BusinessCache<Page>({ max: 100, maxSize: 10_000, sizeOf: (p) => p.body.length, businessOf: (p) => p.businessId });
const page = (businessId: string | null, body = 'page'): Page => ({ businessId, body });
const changeOf = (businessId: string): BookingEvent => ({ kind: 'business', change: 'updated', businessId });

describe('BusinessCache', () => {
  it("drops a business's entries when it changes, and only those", () => {
    const c = cache();
    const token = c.token();
    c.set('/a', page('A'), token);
    c.set('/a?br', page('A'), token);
    c.set('/b', page('B'), token);
    c.set('/', page(null), token);
    c.invalidate(changeOf('A'));
    expect([c.get('/a'), c.get('/a?br')]).toEqual([undefined, undefined]);
    expect(c.get('/b')?.businessId).toBe('B');
    expect(c.get('/')).toBeDefined();
    expect(c.size).toBe(2);
  });

  it('refuses an entry whose business changed while it was read, and keeps one whose business did not', () => {
    const c = cache();
    const token = c.token();
    c.invalidate(changeOf('A'));
    expect(c.set('/a', page('A'), token)).toBe(false);
    expect(c.get('/a')).toBeUndefined();
    c.invalidate(changeOf('A'));
    expect(c.set('/b', page('B'), token)).toBe(true);
    expect(c.set('/', page(null), token)).toBe(true);
    // Read again after the change: kept.
    expect(c.set('/a', page('A'), c.token())).toBe(true);
  });

  it('refuses every entry read before a resync, and empties itself', () => {
    const c = cache();
    c.set('/b', page('B'), c.token());
    const token = c.token();
    c.invalidate({ kind: 'resync' });
    expect(c.size).toBe(0);
    expect(c.set('/a', page('A'), token)).toBe(false);
    expect(c.set('/', page(null), token)).toBe(false);
    expect(c.set('/a', page('A'), c.token())).toBe(true);
  });

  it("refuses an old read when its business's last change is no longer remembered", () => {
    const c = cache();
    const token = c.token();
    c.invalidate(changeOf('A'));
    for (let i = 0; i < 10_000; i++) c.invalidate(changeOf(`other-${i}`));
    // 'A' has been forgotten: a read begun before its change must still be refused.
    expect(c.set('/a', page('A'), token)).toBe(false);
    expect(c.set('/a', page('A'), c.token())).toBe(true);
  });

  it('moves an entry to the business of its new value', () => {
    const c = cache();
    c.set('/slug', page('A'), c.token());
    c.set('/slug', page('B'), c.token());
    c.invalidate(changeOf('A'));
    expect(c.get('/slug')?.businessId).toBe('B');
    c.invalidate(changeOf('B'));
    expect(c.get('/slug')).toBeUndefined();
  });
});
