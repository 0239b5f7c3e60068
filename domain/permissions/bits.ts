/**
 * Permission bit math (spec §6). A permission id lives in slot ceil(id / 30) at bit 1 << (id % 30);
 * 30 bits per slot keep every mask a positive 32-bit integer. The slot is the record's `offset`.
 */
export const BITS_PER_SLOT = 30;

/** One slot's mask, as the login answer and role calls carry it. */
export interface PermissionMask {
  readonly offset: number;
  readonly permissions: number;
}

export function slotOf(id: number): number {
  return Math.ceil(id / BITS_PER_SLOT);
}

export function bitOf(id: number): number {
  return 1 << id % BITS_PER_SLOT;
}

/** Merge masks (e.g. of all a user's roles) by bitwise OR per offset, sorted by offset. */
export function mergeMasks(lists: Iterable<readonly PermissionMask[]>): PermissionMask[] {
  const byOffset = new Map<number, number>();
  for (const list of lists) {
    for (const m of list) byOffset.set(m.offset, (byOffset.get(m.offset) ?? 0) | m.permissions);
  }
  return [...byOffset.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([offset, permissions]) => ({ offset, permissions }));
}

/** The masks that grant exactly these permission ids. */
export function masksFromIds(ids: Iterable<number>): PermissionMask[] {
  const byOffset = new Map<number, number>();
  for (const id of ids) {
    if (!Number.isInteger(id) || id < 1) throw new RangeError(`permission id must be a positive integer: ${id}`);
    const slot = slotOf(id);
    byOffset.set(slot, (byOffset.get(slot) ?? 0) | bitOf(id));
  }
  return mergeMasks([[...byOffset.entries()].map(([offset, permissions]) => ({ offset, permissions }))]);
}

/** The permission ids a set of masks grants, among the given candidate ids. */
export function idsFromMasks(masks: readonly PermissionMask[], candidates: Iterable<number>): number[] {
  const lookup = maskLookup(masks);
  return [...candidates].filter((id) => lookup(id));
}

/** A fast membership test over a set of masks. */
export function maskLookup(masks: readonly PermissionMask[]): (id: number) => boolean {
  const byOffset = new Map<number, number>();
  for (const m of masks) byOffset.set(m.offset, (byOffset.get(m.offset) ?? 0) | m.permissions);
  return (id) => ((byOffset.get(slotOf(id)) ?? 0) & bitOf(id)) !== 0;
}
