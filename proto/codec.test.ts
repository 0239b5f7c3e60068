import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { Commands, DirectoryKind, FrameKind, PushDecoder, PushEncoder, type PositionColumns, type PositionSource } from './codec.ts';
import { decodeFlatFrame, encodeFlatFrame } from './candidates/flatbuffers.ts';
import { decodeMsgpackFrame, encodeMsgpackFrame } from './candidates/msgpackr.ts';
import { protobufjsDecoder } from './candidates/protobufjs.ts';
import { advance, syntheticFleet } from './fixtures.ts';
import { columnsFromJson, jsonPositions, type JsonEnvelope, type JsonPositions } from './json.ts';
import { FrameError, unzigzag, zigzag } from './wire.ts';

const protoText = readFileSync(new URL('./position.proto', import.meta.url), 'utf8');
const NOW = Date.UTC(2026, 10, 22, 8, 0, 0, 250);

function positions(bytes: Uint8Array, decoder = new PushDecoder()): PositionColumns {
  const m = decoder.decode(bytes);
  if (m.body.type !== 'positions') throw new Error(`expected positions, got ${m.body.type}`);
  return m.body.frame;
}

function row(f: PositionColumns, i: number) {
  return {
    vehicleId: f.vehicleId[i], lng: f.lng[i], lat: f.lat[i], speed: f.speed[i], heading: f.heading[i], state: f.state[i],
    alarmFlags: f.alarmFlags[i], gpsTime: f.gpsTime[i], lastContact: f.lastContact[i],
  };
}

function oneVehicle(v: Partial<Record<keyof PositionSource, number>>): PositionSource {
  const col = (k: keyof PositionSource, d: number) => [v[k] ?? d];
  return {
    vehicleId: col('vehicleId', 1), lng: col('lng', 116.397128), lat: col('lat', 39.916527), speed: col('speed', 0), heading: col('heading', 0),
    state: col('state', 3), alarmFlags: col('alarmFlags', 0), gpsTime: col('gpsTime', NOW - 1000), lastContact: col('lastContact', NOW),
  };
}

describe('zigzag', () => {
  it('maps the int32 extremes to unsigned values and back', () => {
    for (const v of [0, -1, 1, 2147483647, -2147483648, 123456, -123456]) expect(unzigzag(zigzag(v))).toBe(v);
    expect(zigzag(-2147483648)).toBe(0xffffffff);
    expect(zigzag(2147483647)).toBe(0xfffffffe);
  });
});

describe('position frames', () => {
  it('round-trip a 1k-vehicle snapshot with microdegree, 0.1 km/h and whole-second precision', () => {
    const fleet = syntheticFleet(1000, NOW);
    const f = positions(new PushEncoder().positions(FrameKind.Snapshot, NOW, fleet, fleet.rows, fleet.count));
    expect(f.kind).toBe(FrameKind.Snapshot);
    expect(f.serverTime).toBe(NOW);
    expect(f.count).toBe(1000);
    for (let i = 0; i < 1000; i++) {
      expect(f.vehicleId[i]).toBe(fleet.vehicleId[i]);
      expect(f.state[i]).toBe(fleet.state[i]);
      if (fleet.state[i] === 0) {
        expect(f.lng[i]).toBeNaN();
        expect(f.lastContact[i]).toBeNaN();
        continue;
      }
      expect(Math.abs(f.lng[i]! - fleet.lng[i]!)).toBeLessThanOrEqual(5e-7 + 1e-12);
      expect(Math.abs(f.lat[i]! - fleet.lat[i]!)).toBeLessThanOrEqual(5e-7 + 1e-12);
      expect(Math.abs(f.speed[i]! - fleet.speed[i]!)).toBeLessThan(0.051);
      expect(f.heading[i]).toBe(fleet.heading[i]);
      expect(f.alarmFlags[i]).toBe(fleet.alarmFlags[i]);
      expect(f.lastContact[i]).toBe(Math.floor(fleet.lastContact[i]! / 1000) * 1000);
      expect(f.gpsTime[i]).toBe(Math.floor(fleet.gpsTime[i]! / 1000) * 1000);
    }
  });

  it('round-trip a 100k-vehicle delta frame', () => {
    const fleet = syntheticFleet(100_000, NOW, 7);
    advance(fleet, 1);
    const bytes = new PushEncoder().positions(FrameKind.Delta, NOW, fleet, fleet.rows, fleet.count);
    const f = positions(bytes);
    expect(f.count).toBe(100_000);
    expect(f.vehicleId[99_999]).toBe(fleet.vehicleId[99_999]);
    const last = 99_999 - (fleet.state[99_999] === 0 ? 1 : 0);
    expect(f.lng[last]).toBeCloseTo(fleet.lng[last]!, 6);
    expect(bytes.length).toBeLessThan(100_000 * 20);
  });

  it('carry the extremes of every column', () => {
    const src = oneVehicle({
      vehicleId: 2147483647, lng: -180, lat: 90, speed: 6553.5, heading: 359, alarmFlags: 0xffffffff, state: 4,
      gpsTime: NOW - 20 * 365 * 86400_000, lastContact: NOW + 86400_000,
    });
    const f = positions(new PushEncoder().positions(FrameKind.Delta, NOW, src, [0], 1));
    expect(row(f, 0)).toEqual({
      vehicleId: 2147483647, lng: -180, lat: 90, speed: Math.fround(6553.5), heading: 359, state: 4, alarmFlags: 0xffffffff,
      gpsTime: Math.floor((NOW - 20 * 365 * 86400_000) / 1000) * 1000, lastContact: Math.floor((NOW + 86400_000) / 1000) * 1000,
    });
  });

  it('decode a lng jump from -180 to 180 between neighbours (the largest coordinate delta)', () => {
    const src: PositionSource = { ...oneVehicle({}), vehicleId: [1, 2], lng: [-180, 180], lat: [-90, 90], speed: [0, 0], heading: [0, 0], state: [3, 3], alarmFlags: [0, 0], gpsTime: [NOW, NOW], lastContact: [NOW, NOW] };
    const f = positions(new PushEncoder().positions(FrameKind.Delta, NOW, src, [0, 1], 2));
    expect([...f.lng.subarray(0, 2)]).toEqual([-180, 180]);
    expect([...f.lat.subarray(0, 2)]).toEqual([-90, 90]);
  });

  it('encode an empty delta frame that decodes to zero vehicles', () => {
    const bytes = new PushEncoder().positions(FrameKind.Delta, NOW, oneVehicle({}), [], 0);
    const f = positions(bytes);
    expect(f.count).toBe(0);
    expect(f.kind).toBe(FrameKind.Delta);
  });

  it('replace bad values (negative speed, heading out of range) by safe ones', () => {
    const f = positions(new PushEncoder().positions(FrameKind.Delta, NOW, oneVehicle({ speed: -3, heading: 400 }), [0], 1));
    expect(f.speed[0]).toBe(0);
    expect(f.heading[0]).toBe(0);
  });

  it('mark a vehicle without a position as missing, without shifting its neighbours', () => {
    // An online vehicle before its first fix sits between two positioned ones.
    const src: PositionSource = {
      vehicleId: [1, 2, 3], lng: [116.1, NaN, 116.3], lat: [39.1, NaN, 39.3], speed: [0, 0, 0], heading: [0, 0, 0], state: [3, 3, 3],
      alarmFlags: [0, 0, 0], gpsTime: [NOW, NaN, NOW], lastContact: [NOW, NOW, NOW],
    };
    const f = positions(new PushEncoder().positions(FrameKind.Delta, NOW, src, [0, 1, 2], 3));
    expect([...f.lng.subarray(0, 3)]).toEqual([116.1, NaN, 116.3]);
    expect([...f.lat.subarray(0, 3)]).toEqual([39.1, NaN, 39.3]);
    expect(f.gpsTime[1]).toBeNaN();
    expect(f.lastContact[1]).toBe(Math.floor(NOW / 1000) * 1000);
    const json = (JSON.parse(jsonPositions(FrameKind.Delta, NOW, src, [0, 1, 2], 3)) as JsonEnvelope<JsonPositions>).commandBody.data;
    expect(json.vehicles[1]).toMatchObject({ lng: null, lat: null, gpsTime: null });
  });

  it('are plain protobuf: protobufjs reads the same vehicles from the bytes', () => {
    const fleet = syntheticFleet(500, NOW, 3);
    const bytes = new PushEncoder().positions(FrameKind.Snapshot, NOW, fleet, fleet.rows, fleet.count);
    const ours = positions(bytes);
    const theirs = protobufjsDecoder(protoText)(bytes);
    for (let i = 0; i < 500; i++) expect(row(theirs, i)).toEqual(row(ours, i));
    const type = protobuf.parse(protoText, { keepCase: true }).root.lookupType('fleet.push.PushMessage');
    const generic = type.toObject(type.decode(bytes)) as { commandType: string; commandHeaders: Record<string, string> };
    expect(generic.commandType).toBe('positions');
    expect(generic.commandHeaders).toEqual(Commands.snapshot);
  });

  it('decode frames another protobuf encoder wrote (fields in any order)', () => {
    const type = protobuf.parse(protoText, { keepCase: true }).root.lookupType('fleet.push.PushMessage');
    const bytes = type.encode(type.fromObject({
      commandType: 'positions', commandHeaders: Commands.delta,
      positions: { kind: 2, serverTime: NOW, vehicleId: [5, 2], lng: [116_000_000, -1], lat: [39_000_000, 2], speed: [100, 0], heading: [90, 180], state: [2, 3], alarmFlags: [0, 1], gpsTime: [-1, -2], lastContact: [0, 0] },
    })).finish();
    const f = positions(bytes);
    expect([...f.vehicleId.subarray(0, 2)]).toEqual([5, 7]);
    expect([...f.lng.subarray(0, 2)]).toEqual([116, 115.999999]);
    expect(f.speed[0]).toBeCloseTo(10, 5);
  });
});

describe('malformed push messages', () => {
  const good = new PushEncoder().positions(FrameKind.Delta, NOW, syntheticFleet(50, NOW), syntheticFleet(50, NOW).rows, 50);

  it('are refused with a FrameError when truncated anywhere', () => {
    const decoder = new PushDecoder();
    for (let cut = 1; cut < good.length; cut += 7) expect(() => decoder.decode(good.subarray(0, cut))).toThrow(FrameError);
  });

  it('are refused when a column has fewer values than the count', () => {
    const src = oneVehicle({});
    const two: PositionSource = { ...src, vehicleId: [1, 2], lng: [1, 2], lat: [1, 2], speed: [1, 2], heading: [1, 2], state: [2, 2], alarmFlags: [0, 0], gpsTime: [NOW, NOW], lastContact: [NOW, NOW] };
    const type = protobuf.parse(protoText, { keepCase: true }).root.lookupType('fleet.push.PushMessage');
    const msg = type.toObject(type.decode(new PushEncoder().positions(FrameKind.Delta, NOW, two, [0, 1], 2)), { defaults: false }) as { positions: { lat: number[] } };
    msg.positions.lat = [1];
    expect(() => new PushDecoder().decode(type.encode(type.fromObject(msg)).finish())).toThrow(/column/);
  });

  it('are refused when they are random bytes, and the decoder keeps working afterwards', () => {
    const decoder = new PushDecoder();
    let seed = 1;
    // Each outcome is recorded and asserted after the loop: an assertion inside `catch` alone would pass
    // if the decoder accepted every junk frame.
    const errors: unknown[] = [];
    for (let k = 0; k < 200; k++) {
      const junk = new Uint8Array(1 + (k % 60));
      for (let i = 0; i < junk.length; i++) junk[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
      try {
        decoder.decode(junk);
      } catch (e) {
        errors.push(e);
      }
    }
    expect(errors).toHaveLength(200);
    for (const e of errors) expect(e).toBeInstanceOf(FrameError);
    expect(positions(good, decoder).count).toBe(50);
  });
});

describe('directory and JSON messages', () => {
  it('round-trip the vehicle directory, a plate containing the separator included', () => {
    const bytes = new PushEncoder().directory(DirectoryKind.Full, [
      { vehicleId: 9, companyId: 3, plate: '京A12345', deviceNo: '013800000009' },
      { vehicleId: 2, companyId: 4, plate: 'bad\u001fplate', deviceNo: '' },
    ]);
    const m = new PushDecoder().decode(bytes);
    expect(m.commandHeaders).toEqual(Commands.directory);
    if (m.body.type !== 'directory') throw new Error('not a directory');
    expect([...m.body.directory.vehicleId]).toEqual([2, 9]);
    expect([...m.body.directory.companyId]).toEqual([4, 3]);
    expect(m.body.directory.plates).toEqual(['bad plate', '京A12345']);
    expect(m.body.directory.deviceNos).toEqual(['', '013800000009']);
  });

  it('carry an alarm as JSON text inside the binary envelope', () => {
    const alarm = { id: 7, alarmType: 1, vehiidno: '京A12345', lng: 116.4, lat: 39.9 };
    const m = new PushDecoder().decode(new PushEncoder().json(Commands.alarm, { data: alarm }));
    expect(m.commandType).toBe('alarm');
    expect(m.body).toEqual({ type: 'json', value: { data: alarm } });
  });

  it('JSON mode carries exactly the content of the binary frame', () => {
    const fleet = syntheticFleet(300, NOW, 11);
    const binary = positions(new PushEncoder().positions(FrameKind.Snapshot, NOW, fleet, fleet.rows, fleet.count));
    const env = JSON.parse(jsonPositions(FrameKind.Snapshot, NOW, fleet, fleet.rows, fleet.count)) as JsonEnvelope<JsonPositions>;
    expect(env.commandType).toBe('positions');
    expect(env.commandHeaders).toEqual(Commands.snapshot);
    const fromJson = columnsFromJson(env.commandBody.data);
    for (let i = 0; i < 300; i++) {
      const a = row(binary, i);
      const b = row(fromJson, i);
      expect({ ...b, speed: Math.fround(b.speed!) }).toEqual(a);
    }
  });

  it('the benchmark candidates decode the same vehicles as the chosen codec', () => {
    const fleet = syntheticFleet(200, NOW, 5);
    const json = jsonPositions(FrameKind.Delta, NOW, fleet, fleet.rows, 200);
    const ours = positions(new PushEncoder().positions(FrameKind.Delta, NOW, fleet, fleet.rows, 200));
    const flat = decodeFlatFrame(encodeFlatFrame(FrameKind.Delta, NOW, fleet, fleet.rows, 200));
    const msgpack = decodeMsgpackFrame(encodeMsgpackFrame(json));
    for (let i = 0; i < 200; i++) {
      expect(row(flat, i)).toEqual(row(ours, i));
      const m = row(msgpack, i);
      expect({ ...m, speed: Math.fround(m.speed!) }).toEqual(row(ours, i));
    }
  });
});
