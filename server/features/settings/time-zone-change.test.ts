import { describe, expect, it } from 'vitest';
import { moveOrder } from './time-zone-change';

const move = (from: string, to: string) => ({ from, to });

describe('moveOrder', () => {
  it('moves a slot only once no slot still to move holds its new place', () => {
    // 14:00 goes to 09:00, which 09:00 leaves for 04:00; 11:00 is free to go at once.
    const chain = [move('27 14:00', '27 09:00'), move('27 09:00', '27 04:00'), move('27 11:00', '27 06:00')];
    const order = moveOrder(chain)!.map((m) => m.from);
    expect(order).toHaveLength(3);
    expect(order.indexOf('27 09:00')).toBeLessThan(order.indexOf('27 14:00'));
    // A slot whose place does not change (only its end does) holds up nothing.
    expect(moveOrder([move('27 09:00', '27 09:00')])).toEqual([move('27 09:00', '27 09:00')]);
  });

  it('is null when moves wait on each other in a ring', () => {
    expect(moveOrder([move('a', 'b'), move('b', 'a')])).toBeNull();
    expect(moveOrder([move('a', 'b'), move('b', 'c'), move('c', 'a'), move('d', 'e')])).toBeNull();
  });
});
