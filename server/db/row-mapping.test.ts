/**
 * drizzle's row mapping (drizzle-orm patched, docs/decisions/0071): each selected field's decoder
 * and place are worked out once per selection instead of once per cell, and rows map as drizzle
 * maps them: nested objects, decoders, and a left-joined table's object null when its row is absent.
 */
import { sql } from 'drizzle-orm';
import * as drizzleUtils from 'drizzle-orm/utils';
import { describe, expect, it } from 'vitest';
import { businessProfiles, sessions, slots } from './schema';

/** A selected field and where its value goes in the row object (drizzle's own shape). */
type SelectedField = { path: string[]; field: unknown };

/** drizzle's row mapping as its sessions call it; exported by drizzle-orm/utils, not in its published types. */
const { mapResultRow, orderSelectedFields } = drizzleUtils as unknown as {
  mapResultRow: (
    columns: SelectedField[],
    row: unknown[],
    joinsNotNullableMap: Record<string, boolean> | undefined,
  ) => Record<string, unknown>;
  /** A selection's result columns in select order, as drizzle hands them to mapResultRow. */
  orderSelectedFields: (selection: Record<string, unknown>) => SelectedField[];
};

describe('mapResultRow', () => {
  const selection = {
    timezone: businessProfiles.timezone,
    slot: { id: slots.id, date: slots.date, isBooked: slots.isBooked },
    total: sql<number>`count(*)`.mapWith(Number),
  };

  it('builds nested objects and decodes each value with its field', () => {
    const fields = orderSelectedFields(selection);
    const row = mapResultRow(fields, ['Europe/London', 'slot-1', '2026-11-25', true, '3'], {
      business_profiles: true,
      slots: false,
    });
    expect(row).toEqual({
      timezone: 'Europe/London',
      slot: { id: 'slot-1', date: '2026-11-25', isBooked: true },
      total: 3,
    });
  });

  it("gives a left-joined table's object as null when its row is absent, per call", () => {
    const fields = orderSelectedFields(selection);
    const absent = ['Europe/London', null, null, null, '0'];
    // The same selection mapped for a left join (slots nullable) and an inner join: the nesting is
    // worked out once, the join's nullability is read per call.
    expect(mapResultRow(fields, absent, { business_profiles: true, slots: false })).toEqual({
      timezone: 'Europe/London',
      slot: null,
      total: 0,
    });
    expect(mapResultRow(fields, absent, { business_profiles: true, slots: true })).toEqual({
      timezone: 'Europe/London',
      slot: { id: null, date: null, isBooked: null },
      total: 0,
    });
    expect(mapResultRow(fields, absent, undefined)).toEqual({
      timezone: 'Europe/London',
      slot: { id: null, date: null, isBooked: null },
      total: 0,
    });
  });

  it("decodes a timestamp column's text into a Date", () => {
    const fields = orderSelectedFields({ expiresAt: sessions.expiresAt });
    const row = mapResultRow(fields, ['2026-11-25 10:00:00+00'], undefined);
    expect(row.expiresAt).toEqual(new Date('2026-11-25T10:00:00Z'));
  });

  it('resolves each field once per selection, not once per row', () => {
    let decoderReads = 0;
    const total = sql<number>`count(*)`.mapWith(Number);
    const decoder = (total as unknown as { decoder: unknown }).decoder;
    Object.defineProperty(total, 'decoder', {
      get: () => {
        decoderReads++;
        return decoder;
      },
    });
    const fields = orderSelectedFields({ id: slots.id, total });
    const rows = [
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ].map((row) => mapResultRow(fields, row, undefined));
    expect(rows).toEqual([
      { id: 'a', total: 1 },
      { id: 'b', total: 2 },
      { id: 'c', total: 3 },
    ]);
    expect(decoderReads).toBe(1);
  });
});
