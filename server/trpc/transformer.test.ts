import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { serializeOutput } from './transformer';

/** What the client receives: the JSON text of the serialized value. */
const wire = (value: unknown) => JSON.stringify(serializeOutput(value));

describe('output transformer', () => {
  const slot = {
    id: '0b5c6a6e-8f55-4a43-8f3e-0f1b2c3d4e5f',
    date: '2026-11-24',
    startTime: '10:00',
    description: 'Haircut "short" \u2013 ✂',
    isBooked: false,
    customerName: null,
    price: 12.5,
    count: 0,
    request: { bookingId: 'b1', customerName: 'Ann', customerEmail: 'ann@example.test' },
  };

  it('sends plain JSON as superjson does, without copying it', () => {
    const list = [slot, { ...slot, id: 'other', request: null }, [], {}, [[1, 'a', true, null]]];
    for (const value of [list, slot, 'text', 0, 42, true, null, [], {}]) {
      expect(wire(value)).toBe(JSON.stringify(superjson.serialize(value)));
    }
    expect(serializeOutput(list).json).toBe(list);
  });

  it('leaves to superjson whatever JSON cannot carry, as superjson sends it', () => {
    const shared = { id: 'x' };
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const holey = [1, 2, 3];
    delete holey[1];
    const keyed = Object.assign([1, 2], { extra: undefined });
    const noPrototype = Object.assign(Object.create(null) as object, { a: 1 });
    class Money {
      constructor(readonly pence: number) {}
    }
    const values: unknown[] = [
      undefined,
      { a: undefined },
      [undefined],
      { at: new Date('2026-11-24T10:00:00Z') },
      [NaN, Infinity, -Infinity],
      { zero: -0 },
      { n: 10n },
      { m: new Map([['a', 1]]), s: new Set([1]) },
      { r: /x/g },
      { e: new Error('boom') },
      [shared, shared],
      { a: shared, b: { c: shared } },
      circular,
      holey,
      keyed,
      noPrototype,
      { money: new Money(5) },
      { f: () => 1 },
      { toJSON: () => 'x' },
      { u: new URL('https://example.test/a') },
    ];
    for (const value of values) {
      expect(wire(value)).toBe(JSON.stringify(superjson.serialize(value)));
    }
  });

  it('lets superjson refuse the keys it refuses', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    expect(() => serializeOutput(hostile)).toThrow(/prototype pollution/);
    expect(() => serializeOutput({ constructor: 1 })).toThrow(/prototype pollution/);
  });
});
