import { describe, expect, it } from 'vitest';
import { BOX_ALARM, boxStateOf, boxViolations, decodeBoxItem, encodeBoxItem, insideSite, matchesFilter } from './status.ts';

describe('cargo box item 0xE1', () => {
  it('decodes the state bits and the load, 0xFF as unknown, and ignores another length', () => {
    expect(decodeBoxItem(Uint8Array.of(0b101, 22))).toEqual({ lifted: true, sealed: false, loaded: true, loadT: 22 });
    expect(decodeBoxItem(Uint8Array.of(0b010, 0xff))).toEqual({ lifted: false, sealed: true, loaded: false, loadT: null });
    expect(decodeBoxItem(Uint8Array.of(1))).toBeUndefined();
    expect(encodeBoxItem({ lifted: false, sealed: true, loaded: true, loadT: 18.4 })).toEqual(Uint8Array.of(0b110, 18));
    expect(boxStateOf([{ id: 0xe0, data: Uint8Array.of(1, 2) }, { id: 0xe1, data: Uint8Array.of(4, 9) }])).toMatchObject({ loaded: true, loadT: 9 });
    expect(boxStateOf(undefined)).toBeUndefined();
  });

  it('finds the group 70 conditions: unsealed transport, lift while moving, unloading outside a site, loaded overspeed', () => {
    const loadedOpen = { lifted: false, sealed: false, loaded: true, loadT: 20 };
    expect([...boxViolations(loadedOpen, 30, true)]).toEqual([BOX_ALARM.unsealed]);
    expect([...boxViolations(loadedOpen, 3, true)]).toEqual([]); // standing at the site while loading
    expect([...boxViolations({ ...loadedOpen, sealed: true, lifted: true }, 12, true)]).toEqual([BOX_ALARM.illegalLift]);
    expect([...boxViolations({ ...loadedOpen, sealed: true, lifted: true }, 0, false)]).toEqual([BOX_ALARM.dumpOutsideSite]);
    expect([...boxViolations({ ...loadedOpen, sealed: true, lifted: true }, 0, true)]).toEqual([]);
    expect([...boxViolations({ ...loadedOpen, sealed: true }, 72, true)]).toEqual([BOX_ALARM.loadedOverspeed]);
    expect([...boxViolations({ lifted: false, sealed: false, loaded: false, loadT: 0 }, 90, true)]).toEqual([]); // empty: nothing to seal, no load limit
  });

  it('places a point inside a circular site by metres and matches the list filters', () => {
    const site = { lng: 121.5, lat: 31.2, radiusM: 300 };
    expect(insideSite([site], 121.5025, 31.2)).toBe(true); // ≈ 238 m east
    expect(insideSite([site], 121.504, 31.2)).toBe(false); // ≈ 381 m
    const s = { lifted: false, sealed: false, loaded: true, loadT: null };
    expect(['lifted', 'unsealed', 'loaded', 'empty'].filter((f) => matchesFilter(s, f as never))).toEqual(['unsealed', 'loaded']);
  });
});
