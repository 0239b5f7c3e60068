import { describe, expect, it } from 'vitest';
import { decodeCanFrame, decodeCanFrames, EMPTY_OBD, j1939Frames, j1939Id, obd2Frames, pgnOf, type ObdValues } from './can.ts';

const engine = { rpm: 1456.5, coolantC: 88, fuelPct: 62.4, speedKmh: 57.3, loadPct: 40, engineHours: 12345.6 };

describe('CAN frames of the engine', () => {
  it('reads the PGN of J1939 identifiers (PDU2 keeps the group extension, PDU1 drops the destination)', () => {
    expect(pgnOf(0x0cf00400)).toBe(61444); // EEC1 from the engine, priority 3
    expect(pgnOf(0x18feee00)).toBe(65262); // ET1
    expect(pgnOf(0x18ea00f9)).toBe(59904); // request PGN, PDU1 to address 0
    expect(j1939Id(61444, 3)).toBe(0x0cf00400);
  });

  it('decodes a recorded EEC1 frame: 0x3A98 × 0.125 = 1875 rpm', () => {
    const v: ObdValues = { ...EMPTY_OBD };
    const data = Uint8Array.of(0xf0, 0x7d, 0x7d, 0x98, 0x3a, 0x00, 0xf0, 0x7d);
    expect(decodeCanFrame({ id: 0x0cf00400, extended: true, channel: 0, data }, v)).toBe('j1939');
    expect(v.engineRpm).toBe(1875);
  });

  it('decodes an OBD-II answer: 41 0C 1A F8 is 1726 rpm, 41 05 7B is 83 °C', () => {
    const v: ObdValues = { ...EMPTY_OBD };
    expect(decodeCanFrame({ id: 0x7e8, extended: false, channel: 1, data: Uint8Array.of(4, 0x41, 0x0c, 0x1a, 0xf8, 0x55, 0x55, 0x55) }, v)).toBe('obd2');
    expect(decodeCanFrame({ id: 0x7e8, extended: false, channel: 1, data: Uint8Array.of(3, 0x41, 0x05, 0x7b, 0x55, 0x55, 0x55, 0x55) }, v)).toBe('obd2');
    expect(v).toMatchObject({ engineRpm: 1726, coolantC: 83 });
  });

  it('gets back what the simulated engine put in, per protocol, within each signal’s resolution', () => {
    const out = decodeCanFrames([...j1939Frames(engine), ...obd2Frames(engine)]);
    expect(out.j1939).toEqual({ engineRpm: 1456.5, coolantC: 88, fuelPct: 62.4, speedKmh: 57.3, engineLoadPct: 40, engineHours: 12345.6 });
    expect(out.obd2).toEqual({ engineRpm: 1456.5, coolantC: 88, fuelPct: 62.4, speedKmh: 57, engineLoadPct: 40, engineHours: null });
  });

  it('leaves "not available" values null and ignores frames of other ids', () => {
    const v: ObdValues = { ...EMPTY_OBD };
    expect(decodeCanFrame({ id: 0x0cf00400, extended: true, channel: 0, data: new Uint8Array(8).fill(0xff) }, v)).toBe('j1939');
    expect(v.engineRpm).toBeNull();
    expect(decodeCanFrame({ id: 0x18fef200, extended: true, channel: 0, data: new Uint8Array(8) }, v)).toBeNull();
    expect(decodeCanFrame({ id: 0x123, extended: false, channel: 0, data: new Uint8Array(8) }, v)).toBeNull();
    expect(decodeCanFrames([])).toEqual({});
  });
});
