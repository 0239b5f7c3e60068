/**
 * Wire form of a bus position: one MessagePack array (msgpackr), fields in a fixed order, the
 * codec version and the publishing node's id first: about 70 bytes.
 */
import { pack, unpack } from 'msgpackr';
import type { BusPosition } from './types.ts';

/** Bumped when the field list changes; a node refuses a message of another version. */
export const BUS_CODEC_VERSION = 1;

export function encodePosition(origin: string, p: BusPosition): Uint8Array {
  return pack([BUS_CODEC_VERSION, origin, p.vehicleId, p.companyId, p.lng, p.lat, p.speed, p.heading, p.altitude, p.statusFlags, p.alarmFlags, p.gpsTime, p.receivedAt]);
}

export interface DecodedPosition {
  readonly origin: string;
  readonly position: BusPosition;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Decodes a message; throws on anything that is not a position of this codec version. */
export function decodePosition(data: Uint8Array): DecodedPosition {
  let a: unknown;
  try {
    a = unpack(data);
  } catch (err) {
    throw new Error('bus: not a position message (not MessagePack)', { cause: err });
  }
  if (!Array.isArray(a) || a.length !== 13 || a[0] !== BUS_CODEC_VERSION || typeof a[1] !== 'string') {
    throw new Error(`bus: not a position message of codec version ${BUS_CODEC_VERSION}`);
  }
  const [, origin, vehicleId, companyId, lng, lat, speed, heading, altitude, statusFlags, alarmFlags, gpsTime, receivedAt] = a as unknown[];
  const nums = [vehicleId, companyId, lng, lat, speed, heading, altitude, statusFlags, alarmFlags, gpsTime, receivedAt];
  if (!nums.every(isNum)) throw new Error('bus: a position message with a field that is not a number');
  return {
    origin: origin as string,
    position: {
      vehicleId: vehicleId as number, companyId: companyId as number, lng: lng as number, lat: lat as number, speed: speed as number,
      heading: heading as number, altitude: altitude as number, statusFlags: statusFlags as number, alarmFlags: alarmFlags as number,
      gpsTime: gpsTime as number, receivedAt: receivedAt as number,
    },
  };
}
