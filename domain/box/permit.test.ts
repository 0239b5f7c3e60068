import { describe, expect, it } from 'vitest';
import { permitValidAt, transportWithoutPermit } from './permit.ts';

const loaded = { lifted: false, sealed: true, loaded: true, loadT: 20 };
const empty = { lifted: false, sealed: true, loaded: false, loadT: 0 };
// A permit for 2026-11-01 … 2026-11-30 China time: from 2026-10-31 16:00 UTC to 2026-11-30 16:00 UTC.
const NOV = { validFrom: Date.UTC(2026, 9, 31, 16), validTo: Date.UTC(2026, 10, 30, 16) };
const DEC = { validFrom: Date.UTC(2026, 10, 30, 16), validTo: Date.UTC(2026, 11, 31, 16) };

describe('70006: transport without a valid permit', () => {
  it('a permit is valid from its first instant up to, not including, its end', () => {
    expect(permitValidAt([NOV], NOV.validFrom)).toBe(true);
    expect(permitValidAt([NOV], NOV.validFrom - 1)).toBe(false);
    expect(permitValidAt([NOV], NOV.validTo - 1)).toBe(true);
    expect(permitValidAt([NOV], NOV.validTo)).toBe(false); // 2026-12-01 00:00 China time: expired
    expect(permitValidAt([NOV, DEC], NOV.validTo)).toBe(true); // the renewal takes over at that instant
    expect(permitValidAt([], NOV.validFrom)).toBe(false);
    expect(permitValidAt(undefined, NOV.validFrom)).toBe(false);
  });

  it('holds for a loaded truck moving above 5 km/h without a permit valid then, and for no one else', () => {
    const inNov = Date.UTC(2026, 10, 15, 4); // 2026-11-15 12:00 China time
    const inDec = Date.UTC(2026, 11, 2, 4);
    expect(transportWithoutPermit(loaded, 30, inNov, [NOV])).toBe(false);
    expect(transportWithoutPermit(loaded, 30, inDec, [NOV])).toBe(true); // expired
    expect(transportWithoutPermit(loaded, 30, inNov, undefined)).toBe(true); // never had one
    expect(transportWithoutPermit(loaded, 5, inDec, [NOV])).toBe(false); // 5 km/h is not moving (> 5)
    expect(transportWithoutPermit(loaded, 6, inDec, [NOV])).toBe(true);
    expect(transportWithoutPermit(empty, 30, inDec, undefined)).toBe(false); // nothing carried, nothing to permit
    // The controller's own moving threshold (0xF3A0 unsealedSpeed) when the truck has one.
    expect(transportWithoutPermit(loaded, 8, inDec, undefined, 10)).toBe(false);
  });
});
