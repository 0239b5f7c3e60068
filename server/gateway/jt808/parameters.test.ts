/**
 * 0x8103 set terminal parameters: a byte-exact frame laid out by hand from JT/T 808-2013 table 10 /
 * table 12 (checksum and escapes computed with an independent Python script), round trips of random
 * items in both editions, the tolerant decoder and the strict encoder.
 */
import { describe, expect, it } from 'vitest';
import { fromHex, toHex, Writer } from './bytes.ts';
import { decodeBody, decodeFrame, encodePacket } from './codec.ts';
import { Jt808Error } from './errors.ts';
import { FrameSplitter } from './framing.ts';
import type { Jt808Header, ProtocolEdition } from './header.ts';
import { encodeBody, isSupported, MSG } from './messages.ts';
import { parameter, parameterSpec, PARAM, writeParameterItems, type ParameterSpec, type SetTerminalParameters, type TerminalParameter } from './parameters.ts';
import { Gen } from './test-support.ts';

const hex = (...fields: string[]): string => fields.join('').replace(/\s+/g, '').toLowerCase();

/** Heartbeat 30 s, max speed 126 km/h (0x7e: escaped on the wire), plate 京A12345, colour 2 (yellow). */
const BODY = hex(
  '04', // parameter count
  '00000001 04 0000001e', // 0x0001 heartbeat interval DWORD = 30
  '00000055 04 0000007e', // 0x0055 max speed DWORD = 126
  '00000083 08 bea9 413132333435', // 0x0083 plate STRING, GBK 京 = BE A9
  '00000084 01 02', // 0x0084 plate colour BYTE = 2
);
const MESSAGE: SetTerminalParameters = {
  msgId: 0x8103,
  params: [
    parameter(PARAM.heartbeatInterval, 30),
    parameter(PARAM.maxSpeed, 126),
    parameter(PARAM.plate, '京A12345'),
    parameter(PARAM.plateColor, 2),
  ],
};
const WIRE_2013 = hex(
  '7e',
  '8103 0026 013912345678 0001', // id, properties (body 38 bytes), phone BCD[6], serial
  BODY.replace('0000007e', '0000007d02'), // 0x7e escaped as 7d 02
  'ce 7e',
);
const WIRE_2019 = hex(
  '7e',
  '8103 4026 01 00000000013912345678 0001', // version flag bit 14, protocol version 1, phone BCD[10]
  BODY.replace('0000007e', '0000007d02'),
  '8f 7e',
);

function decodeWire(wire: string) {
  const bodies = new FrameSplitter().split(fromHex(wire));
  expect(bodies).toHaveLength(1);
  return decodeFrame(bodies[0]!);
}

const header = (version: ProtocolEdition, bodyLength: number): Jt808Header => ({
  msgId: 0x8103, bodyLength, encryption: 0, subpackage: false, version, protocolVersion: version === 2019 ? 1 : 0, phone: '13912345678', serial: 1, packageTotal: 0, packageIndex: 0,
});

describe('0x8103 set terminal parameters: the standard laid out by hand', () => {
  it('encodes the body field by field', () => {
    expect(toHex(encodeBody(MESSAGE, 2013))).toBe(BODY);
    expect(toHex(encodeBody(MESSAGE, 2019))).toBe(BODY); // the same layout in both editions
    expect(isSupported(MSG.SET_PARAMETERS)).toBe(true);
  });

  for (const [version, wire] of [[2013, WIRE_2013], [2019, WIRE_2019]] as const) {
    it(`${version}: the frame decodes to the typed items and encodes to the same bytes`, () => {
      const r = decodeWire(wire);
      if (r.kind !== 'message') throw new Error(`${r.kind}: ${r.kind === 'error' ? r.error.message : ''}`);
      expect(r.header).toMatchObject({ msgId: 0x8103, phone: '13912345678', serial: 1, version, bodyLength: 38 });
      expect(r.message).toEqual(MESSAGE);
      expect(toHex(encodePacket({ phone: '13912345678', serial: 1, version }, MESSAGE))).toBe(wire);
    });
  }

  it('knows the types of the ids the platform sends, and nothing for an unknown id', () => {
    expect(parameterSpec(0x0001)).toMatchObject({ type: 'dword' });
    expect(parameterSpec(0x0029)).toMatchObject({ type: 'dword' });
    expect(parameterSpec(0x0055)).toMatchObject({ type: 'dword' });
    expect(parameterSpec(0x0056)).toMatchObject({ type: 'dword' });
    expect(parameterSpec(0x0083)).toMatchObject({ type: 'string' });
    expect(parameterSpec(0x0084)).toMatchObject({ type: 'byte' });
    expect(parameterSpec(0x0031)).toMatchObject({ type: 'word' });
    expect(parameterSpec(0xf364)).toBeUndefined();
    const ids = Object.values(PARAM).map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

/** Random items: typed values for known ids, raw bytes for unknown ones. */
function randomParams(gen: Gen): TerminalParameter[] {
  const specs: ParameterSpec[] = Object.values(PARAM);
  const n = gen.int(1, 20);
  const out: TerminalParameter[] = [];
  for (let i = 0; i < n; i++) {
    if (gen.bool(0.2)) {
      // 0xF364 (JT/T 1078 / T/JSATL ADAS), 0x0075 (structured AV parameters): raw.
      out.push({ id: gen.pick([0x0075, 0x0110, 0xf364, 0xf365, 0x12345678]), value: gen.nastyBytes(gen.int(0, 30)) });
      continue;
    }
    const spec = gen.pick(specs);
    const value = spec.type === 'string' ? gen.chinese(0, 20).trimEnd()
      : spec.type === 'dword' ? gen.int(0, 0xffffffff)
        : spec.type === 'word' ? gen.int(0, 0xffff) : gen.int(0, 0xff);
    out.push({ id: spec.id, value });
  }
  return out;
}

describe('round trip', () => {
  for (const version of [2013, 2019] as const) {
    it(`${version}: random item lists decode to what was encoded, and re-encode to the same bytes`, () => {
      const gen = new Gen(0x8103 + version);
      const splitter = new FrameSplitter();
      for (let i = 0; i < 1500; i++) {
        const message: SetTerminalParameters = { msgId: 0x8103, params: randomParams(gen) };
        const wire = encodePacket({ phone: gen.phone(version), serial: gen.int(0, 0xffff), version }, message);
        const bodies = splitter.split(wire);
        expect(bodies).toHaveLength(1);
        const r = decodeFrame(bodies[0]!);
        if (r.kind !== 'message') throw new Error(`case ${i}: ${r.kind} ${r.kind === 'error' ? r.error.message : ''}`);
        expect(r.message).toEqual(message);
        expect(toHex(encodePacket(r.header, r.message))).toBe(toHex(wire));
      }
    });
  }
});

describe('decoder', () => {
  const decode = (body: string, version: ProtocolEdition = 2013) => {
    const bytes = fromHex(body);
    return decodeBody(header(version, bytes.length), bytes);
  };

  it('keeps a known id whose length does not fit its type as raw bytes, and drops a STRING terminator', () => {
    const r = decode(hex('02', '00000001 02 001e', '00000083 09 bea9 413132333435 00'));
    expect(r.kind).toBe('message');
    if (r.kind !== 'message') return;
    expect(r.message).toEqual({ msgId: 0x8103, params: [{ id: 1, value: new Uint8Array([0x00, 0x1e]) }, { id: 0x83, value: '京A12345' }] });
  });

  it('answers an error, never a throw, for a short item, a count beyond the items and trailing bytes', () => {
    for (const body of [
      hex('01', '00000001 04 0000'), // value cut short
      hex('02', '00000001 04 0000001e'), // a second item missing
      hex('01', '000000'), // id cut short
      hex('01', '00000084 01 02', 'ff'), // trailing byte
      '',
    ]) {
      const r = decode(body);
      expect(r.kind, body).toBe('error');
      if (r.kind === 'error') expect(r.error).toBeInstanceOf(Jt808Error);
    }
  });

  it('never throws on arbitrary 0x8103 bodies', () => {
    const gen = new Gen(31);
    const kinds = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const bytes = gen.bytes(gen.int(0, 80));
      if (bytes.length > 0 && gen.bool()) bytes[0] = gen.int(0, 4); // plausible counts reach the items
      const r = decodeBody(header(gen.pick([2013, 2019] as const), bytes.length), bytes);
      kinds.add(r.kind);
    }
    expect(kinds).toEqual(new Set(['message', 'error']));
  });
});

describe('encoder', () => {
  const fails = (params: TerminalParameter[], pattern: RegExp) => {
    expect(() => encodeBody({ msgId: 0x8103, params })).toThrow(pattern);
    try {
      encodeBody({ msgId: 0x8103, params });
    } catch (e) {
      expect(e).toBeInstanceOf(Jt808Error);
      expect((e as Jt808Error).code).toBe('encode');
    }
  };

  it('refuses values of the wrong kind, out of range or too long, and counts outside 1..255', () => {
    fails([{ id: PARAM.plate.id, value: 7 }], /STRING parameter needs text/);
    fails([{ id: PARAM.heartbeatInterval.id, value: '30' }], /DWORD parameter needs a number/);
    fails([{ id: 0x0075, value: 1 }], /unknown parameter/);
    fails([{ id: 0xf364, value: 1 }], /ADAS block needs its fields/); // active-safety.test.ts
    fails([{ id: PARAM.plateColor.id, value: 256 }], /0\.\.255/);
    fails([{ id: PARAM.fenceRadius.id, value: 70_000 }], /0\.\.65535/);
    fails([{ id: PARAM.maxSpeed.id, value: -1 }], /0\.\.4294967295/);
    fails([{ id: PARAM.plate.id, value: '京'.repeat(128) }], /256 bytes, at most 255/);
    fails([{ id: 0xf364, value: new Uint8Array(256) }], /exceed 255/);
    fails([], /1 to 255/);
    fails(Array.from({ length: 256 }, () => parameter(PARAM.plateColor, 1)), /1 to 255/);
  });

  it('types the value of a parameter from the table (checked by the compiler)', () => {
    const typed = [parameter(PARAM.plate, '京A12345'), parameter(PARAM.heartbeatInterval, 30)];
    // @ts-expect-error a STRING parameter takes text
    typed.push(parameter(PARAM.plate, 7));
    // @ts-expect-error a BYTE parameter takes a number
    typed.push(parameter(PARAM.plateColor, '2'));
    expect(typed.map((x) => x.id)).toEqual([0x0083, 0x0001, 0x0083, 0x0084]);
  });

  it('writes raw bytes as given for any id (a value the table types differently)', () => {
    const w = new Writer();
    writeParameterItems(w, [{ id: PARAM.heartbeatInterval.id, value: new Uint8Array([0, 30]) }]);
    expect(toHex(w.finish())).toBe(hex('00000001 02 001e'));
  });
});
