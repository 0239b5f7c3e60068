/**
 * protobufjs reading position.proto (decode benchmark candidate): the generic decoder builds JS arrays
 * per column, which are then summed into typed-array columns. The schema text is passed in, so this
 * module needs no file system.
 */
import protobuf from 'protobufjs';
import { createPositionColumns, MISSING, type FrameKind, type PositionColumns } from '../codec.ts';
import { unzigzag } from '../wire.ts';

interface DecodedFrame {
  kind: number; serverTime: number; count: number; vehicleId: number[]; lng: number[]; lat: number[]; speed: number[];
  heading: number[]; state: number[]; alarmFlags: number[]; gpsTime: number[]; lastContact: number[];
}

export function protobufjsDecoder(protoText: string): (bytes: Uint8Array, out?: PositionColumns) => PositionColumns {
  const root = protobuf.parse(protoText, { keepCase: true }).root;
  const type = root.lookupType('fleet.push.PushMessage');
  return (bytes, out = createPositionColumns(0)) => {
    const msg = type.decode(bytes) as unknown as { positions?: DecodedFrame };
    const f = msg.positions;
    if (!f) throw new Error('not a positions message');
    const n = f.vehicleId.length;
    if (out.vehicleId.length < n) out = createPositionColumns(n);
    out.kind = f.kind as FrameKind;
    out.serverTime = Number(f.serverTime);
    out.count = n;
    let acc = 0;
    for (let i = 0; i < n; i++) { acc = (acc + f.vehicleId[i]!) | 0; out.vehicleId[i] = acc; out.state[i] = f.state[i]!; }
    for (const [src, target] of [[f.lng, out.lng], [f.lat, out.lat]] as const) {
      acc = 0;
      for (let i = 0; i < n; i++) {
        if (src[i] === MISSING) { target[i] = NaN; continue; }
        acc = (acc + src[i]!) | 0;
        target[i] = acc / 1e6;
      }
    }
    const baseSec = Math.floor(out.serverTime / 1000);
    for (let i = 0; i < n; i++) {
      out.speed[i] = f.speed[i]! / 10;
      out.heading[i] = f.heading[i]!;
      out.alarmFlags[i] = f.alarmFlags[i]!;
      out.gpsTime[i] = f.gpsTime[i] === MISSING ? NaN : (baseSec + f.gpsTime[i]!) * 1000;
      out.lastContact[i] = f.lastContact[i] === MISSING ? NaN : (baseSec + f.lastContact[i]!) * 1000;
    }
    return out;
  };
}

/** protobufjs already undoes the zigzag of sint32; exported for symmetry with the hand-written codec. */
export const protobufjsZigzag = unzigzag;
