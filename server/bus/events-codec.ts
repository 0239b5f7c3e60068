/**
 * Wire form of the bus's events (issue 20, events.ts): one MessagePack array, the codec version, the
 * publishing node's id and the kind first, then the kind's fields in a fixed order. An alarm and a
 * handling carry the push message body as it is (a map), so a push node sends its consoles exactly
 * what the node that raised or handled it would have sent; contact batches are two parallel arrays; a
 * stored photo is its vehicle id, then [channel, terminal media id, row id].
 */
import { pack, unpack } from 'msgpackr';
import type { AlarmHandled, AlarmMessage } from '../push/hub.ts';
import type { BusEvent } from './events.ts';

/** Bumped when a kind's field list changes; a node refuses a message of another version. */
export const EVENT_CODEC_VERSION = 1;

const KIND = { alarm: 1, handled: 2, contacts: 3, fleet: 4, rules: 5, media: 6 } as const;
const RULES = ['fences', 'routes', 'settings'] as const;

export function encodeEvent(origin: string, e: BusEvent): Uint8Array {
  switch (e.kind) {
    case 'alarm': return pack([EVENT_CODEC_VERSION, origin, KIND.alarm, e.companyPath, e.alarm]);
    case 'handled': return pack([EVENT_CODEC_VERSION, origin, KIND.handled, e.companyPath, e.handled]);
    case 'contacts': return pack([EVENT_CODEC_VERSION, origin, KIND.contacts, e.vehicleIds, e.times]);
    case 'fleet': return pack([EVENT_CODEC_VERSION, origin, KIND.fleet, e.vehicleIds, e.deviceNos]);
    case 'rules': return pack([EVENT_CODEC_VERSION, origin, KIND.rules, e.what, e.ids ?? null]);
    case 'media': return pack([EVENT_CODEC_VERSION, origin, KIND.media, e.vehicleId, [e.channel, e.deviceMediaId, e.itemId]]);
  }
}

export interface DecodedEvent {
  readonly origin: string;
  readonly event: BusEvent;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every(isNum);
/** An integer in [min, max] (ids, JT/T 808 DWORD media ids, BYTE channels). */
const isInt = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/** Decodes a message; throws on anything that is not an event of this codec version. */
export function decodeEvent(data: Uint8Array): DecodedEvent {
  let a: unknown;
  try {
    a = unpack(data);
  } catch (err) {
    throw new Error('bus: not an event message (not MessagePack)', { cause: err });
  }
  if (!Array.isArray(a) || a.length !== 5 || a[0] !== EVENT_CODEC_VERSION || typeof a[1] !== 'string') {
    throw new Error(`bus: not an event message of codec version ${EVENT_CODEC_VERSION}`);
  }
  const [, origin, kind, x, y] = a as [number, string, unknown, unknown, unknown];
  switch (kind) {
    case KIND.alarm:
    case KIND.handled:
      if (typeof x !== 'string' || !isRecord(y)) throw new Error('bus: an alarm event without a company path or a body');
      return {
        origin,
        event: kind === KIND.alarm
          ? { kind: 'alarm', companyPath: x, alarm: y as AlarmMessage }
          : { kind: 'handled', companyPath: x, handled: y as unknown as AlarmHandled },
      };
    case KIND.contacts:
      if (!numbers(x) || !numbers(y) || x.length !== y.length) throw new Error('bus: a contact batch whose vehicles and times do not pair');
      return { origin, event: { kind: 'contacts', vehicleIds: x, times: y } };
    case KIND.fleet:
      if (!numbers(x) || !Array.isArray(y) || !y.every((d) => typeof d === 'string')) throw new Error('bus: a fleet change without vehicle ids or device numbers');
      return { origin, event: { kind: 'fleet', vehicleIds: x, deviceNos: y as string[] } };
    case KIND.rules:
      if (!RULES.includes(x as (typeof RULES)[number]) || (y !== null && !numbers(y))) throw new Error('bus: an alarm-rules change without a known rule set or with ids that are not numbers');
      return { origin, event: { kind: 'rules', what: x as (typeof RULES)[number], ids: y === null ? undefined : y } };
    case KIND.media: {
      if (!isInt(x, 1, Number.MAX_SAFE_INTEGER) || !Array.isArray(y) || y.length !== 3) throw new Error('bus: a stored-photo event without a vehicle id or its [channel, media id, row id]');
      const [channel, deviceMediaId, itemId] = y as unknown[];
      if (!isInt(channel, 0, 0xff) || !isInt(deviceMediaId, 0, 0xffff_ffff) || !isInt(itemId, 1, Number.MAX_SAFE_INTEGER)) {
        throw new Error('bus: a stored-photo event whose channel, media id or row id is not an integer in range');
      }
      return { origin, event: { kind: 'media', vehicleId: x, channel, deviceMediaId, itemId } };
    }
    default:
      throw new Error(`bus: an event of unknown kind ${String(kind)}`);
  }
}
