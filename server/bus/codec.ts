/**
 * Wire form of bus positions: one MessagePack array (msgpackr) per message, the codec version and the
 * publishing node's id first, then the positions of one company subject, each an array of fields in a
 * fixed order (about 55 bytes a position).
 *
 * A message carries a batch (version 2): the gateway publishes what one company's vehicles reported within
 * PUBLISH_BATCH_MS as one message (nats.ts), because a JetStream publish and its PubAck cost the gateway
 * ~0.18 ms each in nats.js, far more than encoding a position (the bus bench's CPU profile, issue 20).
 * Version 1 messages (one position each, before batches) are refused like any other version: the stream
 * keeps 5 minutes, so nodes of both versions must not run together (upgrade all nodes together).
 */
import { pack, unpack } from 'msgpackr';
import type { BusPosition } from './types.ts';

/** Bumped when the message layout changes; a node refuses a message of another version. */
export const BUS_CODEC_VERSION = 2;
const FIELDS = 11;

export function encodePositions(origin: string, positions: readonly BusPosition[]): Uint8Array {
  return pack([BUS_CODEC_VERSION, origin, positions.map((p) => [p.vehicleId, p.companyId, p.lng, p.lat, p.speed, p.heading, p.altitude, p.statusFlags, p.alarmFlags, p.gpsTime, p.receivedAt])]);
}

export interface DecodedPositions {
  readonly origin: string;
  readonly positions: readonly BusPosition[];
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Decodes a message; throws on anything that is not a batch of positions of this codec version (nothing of it applies). */
export function decodePositions(data: Uint8Array): DecodedPositions {
  let a: unknown;
  try {
    a = unpack(data);
  } catch (err) {
    throw new Error('bus: not a position message (not MessagePack)', { cause: err });
  }
  if (!Array.isArray(a) || a.length !== 3 || a[0] !== BUS_CODEC_VERSION || typeof a[1] !== 'string' || !Array.isArray(a[2])) {
    throw new Error(`bus: not a position message of codec version ${BUS_CODEC_VERSION}`);
  }
  const positions = (a[2] as unknown[]).map((f): BusPosition => {
    if (!Array.isArray(f) || f.length !== FIELDS || !f.every(isNum)) throw new Error('bus: a position message with a position that is not 11 numbers');
    const [vehicleId, companyId, lng, lat, speed, heading, altitude, statusFlags, alarmFlags, gpsTime, receivedAt] = f as number[];
    return { vehicleId: vehicleId!, companyId: companyId!, lng: lng!, lat: lat!, speed: speed!, heading: heading!, altitude: altitude!, statusFlags: statusFlags!, alarmFlags: alarmFlags!, gpsTime: gpsTime!, receivedAt: receivedAt! };
  });
  return { origin: a[1], positions };
}
