/**
 * Passenger counting and body-temperature uploads (issue 18, passenger and temperature reports).
 *
 * 0x1005 passenger flow upload (JT/T 1078-2016 §5.5.4, 终端上传乘客流量): start time BCD[6], end time BCD[6],
 * boarding count WORD, alighting count WORD (16 bytes). Bus door counters of line buses append the
 * bus-line extension this platform reads when present (its own simulator sends it): door BYTE (1-based),
 * direction BYTE (0 up, 1 down), station sequence WORD (1-based, the line's station order in that
 * direction), on board after the stop WORD (0xFFFF: the counter does not keep one). A plain 16-byte
 * upload is still a valid upload: it counts for its vehicle and hour, without station or door.
 *
 * 0x0E30 body-temperature measurement (manufacturer uplink range 0x0E00–0x0EFF of JT/T 808-2019; 0x0E1x is the face
 * recognition family, face.ts): time
 * BCD[6], temperature type BYTE (0 forehead, 1 wrist, 2 ear), mask BYTE (0 not worn, 1 worn, 0xFF not
 * detected), temperature WORD in 0.01 °C, multimedia id DWORD of the face photo (0: none).
 */
import type { Reader, Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export const PASSENGER_FLOW = 0x1005;
export const BODY_TEMPERATURE = 0x0e30;
export const NO_ONBOARD = 0xffff;

export interface PassengerLineExtension {
  door: number;
  direction: 0 | 1;
  stationSeq: number;
  /** Passengers on board after the stop, or null when the counter keeps none. */
  onboard: number | null;
}

export interface PassengerFlowUpload {
  msgId: 0x1005;
  /** ms since epoch of the counting span (BCD time is China time, second precision). */
  start: number;
  end: number;
  boarding: number;
  alighting: number;
  line: PassengerLineExtension | null;
}

export interface BodyTemperatureUpload {
  msgId: 0x0e30;
  time: number;
  /** 0 forehead, 1 wrist, 2 ear. */
  kind: number;
  /** true worn, false not worn, null not detected. */
  mask: boolean | null;
  /** °C, two decimals. */
  celsius: number;
  /** The face photo's multimedia id (0x0801), null when none. */
  mediaId: number | null;
}

export type PassengerMessage = PassengerFlowUpload | BodyTemperatureUpload;

export function isPassengerMessage(msgId: number): boolean {
  return msgId === PASSENGER_FLOW || msgId === BODY_TEMPERATURE;
}

/** A count or a measurement without a time cannot be placed in a day: all-zero BCD is malformed here. */
function timeOf(r: Reader, what: string): number {
  const t = r.bcdTime(what);
  if (Number.isNaN(t)) throw new Jt808Error('field', `${what}: no time (all zeros)`);
  return t;
}

export function readPassengerMessage(msgId: number, r: Reader): PassengerMessage {
  if (msgId === PASSENGER_FLOW) {
    const start = timeOf(r, 'start time');
    const end = timeOf(r, 'end time');
    if (end < start) throw new Jt808Error('field', 'end time before start time');
    const boarding = r.u16('boarding count');
    const alighting = r.u16('alighting count');
    let line: PassengerLineExtension | null = null;
    if (r.remaining > 0) {
      const door = r.u8('door');
      const direction = r.u8('direction');
      if (direction > 1) throw new Jt808Error('field', `direction ${direction} is neither 0 (up) nor 1 (down)`);
      const stationSeq = r.u16('station sequence');
      const onboard = r.u16('on board');
      line = { door, direction: direction as 0 | 1, stationSeq, onboard: onboard === NO_ONBOARD ? null : onboard };
    }
    return { msgId: PASSENGER_FLOW, start, end, boarding, alighting, line };
  }
  const time = timeOf(r, 'measure time');
  const kind = r.u8('temperature type');
  const maskByte = r.u8('mask');
  const centi = r.u16('temperature');
  const media = r.u32('multimedia id');
  return { msgId: BODY_TEMPERATURE, time, kind, mask: maskByte === 0xff ? null : maskByte === 1, celsius: centi / 100, mediaId: media === 0 ? null : media };
}

export function writePassengerMessage(w: Writer, msg: PassengerMessage): void {
  if (msg.msgId === PASSENGER_FLOW) {
    w.bcdTime(msg.start, 'start time').bcdTime(msg.end, 'end time').u16(msg.boarding, 'boarding count').u16(msg.alighting, 'alighting count');
    if (msg.line) {
      w.u8(msg.line.door, 'door').u8(msg.line.direction, 'direction').u16(msg.line.stationSeq, 'station sequence')
        .u16(msg.line.onboard ?? NO_ONBOARD, 'on board');
    }
    return;
  }
  w.bcdTime(msg.time, 'measure time').u8(msg.kind, 'temperature type').u8(msg.mask === null ? 0xff : msg.mask ? 1 : 0, 'mask')
    .u16(Math.round(msg.celsius * 100), 'temperature').u32(msg.mediaId ?? 0, 'multimedia id');
}
