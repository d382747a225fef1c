/**
 * A per-process cache whose entries each show one business (or none), kept in step with committed
 * changes: a change drops its business's entries, a 'resync' (LISTEN reconnected, changes may have
 * been missed) drops them all. An entry built from reads that overlapped a change of its business
 * is refused: the reads may predate the change. Changes of other businesses do not refuse it, so a
 * busy country does not stop one business's pages being kept. The public page data cache and the
 * visitor page cache are both this (docs/decisions/0046, 0106).
 */
import { LRUCache } from 'lru-cache';
import type { BookingEvent, ChangeObserver, Resync } from '../../core/deps';

/** Something that tells of every committed change (BookingEventHub). */
export interface ChangeSource {
  observe(observer: ChangeObserver): () => void;
}

/** How many businesses' last change is remembered for refusing overlapped entries. */
const CHANGES_REMEMBERED = 10_000;

export interface BusinessCacheOptions<V> {
  /** At most this many entries. */
  max: number;
  /** At most this total size (`sizeOf` units). */
  maxSize: number;
  sizeOf: (value: V) => number;
  /** The business `value` shows, whose changes drop it; null for an entry of none. */
  businessOf: (value: V) => string | null;
  /** Entries leave on their own this long (ms) after being kept; none when omitted. */
  ttlMs?: number;
}

export class BusinessCache<V extends object> {
  private readonly entries: LRUCache<string, V>;
  /** businessId → its entries' keys. */
  private readonly keysOf = new Map<string, Set<string>>();
  /** Counts changes; a token is its value when reading started. */
  private sequence = 0;
  /** businessId → the sequence number of its last change (the most recently changed businesses). */
  private readonly changedAt: LRUCache<string, number>;
  /** The newest sequence number `changedAt` has forgotten: older tokens are refused for any business. */
  private forgottenUpTo = 0;
  /** The sequence number of the last resync: older tokens are refused. */
  private resyncedAt = 0;

  constructor(private readonly options: BusinessCacheOptions<V>) {
    this.entries = new LRUCache<string, V>({
      max: options.max,
      maxSize: options.maxSize,
      sizeCalculation: (value) => Math.max(1, options.sizeOf(value)),
      ...(options.ttlMs === undefined ? {} : { ttl: options.ttlMs }),
      dispose: (value, key) => this.unindex(options.businessOf(value), key),
    });
    this.changedAt = new LRUCache<string, number>({
      max: CHANGES_REMEMBERED,
      // Only a business pushed out is forgotten; a second change of one replaces its number.
      dispose: (seq, _key, reason) => {
        if (reason === 'evict') this.forgottenUpTo = Math.max(this.forgottenUpTo, seq);
      },
    });
  }

  /** The entry kept for `key`, else undefined. */
  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** The token `set` takes: call it before reading anything the entry is built from. */
  token(): number {
    return this.sequence;
  }

  /**
   * Keeps `value` for `key` unless its business changed (or a resync happened) since `token()`
   * returned `token`; returns whether it was kept.
   */
  set(key: string, value: V, token: number): boolean {
    if (!this.unchangedSince(this.options.businessOf(value), token)) return false;
    this.entries.set(key, value);
    const businessId = this.options.businessOf(value);
    if (businessId === null || !this.entries.has(key)) return this.entries.has(key);
    let keys = this.keysOf.get(businessId);
    if (!keys) this.keysOf.set(businessId, (keys = new Set()));
    keys.add(key);
    return true;
  }

  /** Drops the entries of the change's business, or every entry for a 'resync'. */
  invalidate(change: BookingEvent | Resync): void {
    if (change.kind === 'resync') {
      this.resyncedAt = ++this.sequence;
      this.entries.clear();
      return;
    }
    if (!change.businessId) return;
    this.changedAt.set(change.businessId, ++this.sequence);
    const keys = this.keysOf.get(change.businessId);
    if (keys) for (const key of [...keys]) this.entries.delete(key);
  }

  /** Calls `onChange` (by default `invalidate`) on every change `source` tells of; returns the unsubscribe. */
  follow(source: ChangeSource, onChange: (change: BookingEvent | Resync) => void = (c) => this.invalidate(c)) {
    return source.observe(onChange);
  }

  /** Number of entries (tests). */
  get size(): number {
    return this.entries.size;
  }

  private unchangedSince(businessId: string | null, token: number): boolean {
    if (token < this.resyncedAt) return false;
    if (businessId === null) return true;
    const changed = this.changedAt.get(businessId);
    return changed === undefined ? token >= this.forgottenUpTo : changed <= token;
  }

  private unindex(businessId: string | null, key: string): void {
    if (businessId === null) return;
    const keys = this.keysOf.get(businessId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.keysOf.delete(businessId);
  }
}
