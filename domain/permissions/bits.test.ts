import { describe, expect, it } from 'vitest';
import { bitOf, idsFromMasks, masksFromIds, mergeMasks, slotOf } from './bits.ts';

describe('permission bit math (spec §6)', () => {
  it.each([
    [1, 1, 1 << 1],
    [29, 1, 1 << 29],
    [30, 1, 1 << 0],
    [31, 2, 1 << 1],
    [60, 2, 1 << 0],
    [61, 3, 1 << 1],
  ])('id %i lives in slot %i at bit %i', (id, slot, bit) => {
    expect(slotOf(id)).toBe(slot);
    expect(bitOf(id)).toBe(bit);
  });

  it('ids 1..30 fill slot 1 without collisions and stay positive', () => {
    const masks = masksFromIds(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(masks).toEqual([{ offset: 1, permissions: 2 ** 30 - 1 }]);
    expect(masks[0]!.permissions).toBeGreaterThan(0);
  });

  it('merges the masks of several roles by OR per offset', () => {
    const a = masksFromIds([1, 31]);
    const b = masksFromIds([2, 95]);
    expect(mergeMasks([a, b])).toEqual([
      { offset: 1, permissions: (1 << 1) | (1 << 2) },
      { offset: 2, permissions: 1 << 1 },
      { offset: 4, permissions: 1 << 5 },
    ]);
  });

  it('recovers exactly the granted ids from masks', () => {
    const granted = [1, 29, 30, 31, 60, 304];
    const all = Array.from({ length: 304 }, (_, i) => i + 1);
    expect(idsFromMasks(masksFromIds(granted), all)).toEqual(granted);
  });

  it('refuses ids that cannot be stored', () => {
    expect(() => masksFromIds([0])).toThrow(RangeError);
    expect(() => masksFromIds([1.5])).toThrow(RangeError);
  });
});
