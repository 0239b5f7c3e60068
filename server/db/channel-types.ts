/** Storage contract of a device's channels (migration 15): the device record and the terminal's 0x1003. */

import type { AvAttributes } from '../gateway/jt808/media-signalling.ts';
import type { ChannelKind } from '../../domain/video/channels.ts';

export type { ChannelKind };

/** One channel of a device's record. */
export interface RecordedChannel {
  /** JT/T 1076 logical channel number, 1–37. */
  channel: number;
  kind: ChannelKind;
  /** The installer's name for it ('' when none was given). */
  name: string;
}

/** A terminal's 0x1003 answer as stored: the message's fields, its vehicle and when it arrived (epoch ms). */
export type StoredAvAttributes = Omit<AvAttributes, 'msgId'> & { vehicleId: number; reportedTime: number };

export interface ChannelRepository {
  /** The channels of the vehicle's device record, by channel number; [] when the record lists none. */
  recorded(vehicleId: number): Promise<RecordedChannel[]>;
  /** Replaces the record's channel list (device management). */
  setRecorded(vehicleId: number, channels: readonly RecordedChannel[]): Promise<void>;
  /** The terminal's latest 0x1003 answer, undefined when it never answered. */
  attributes(vehicleId: number): Promise<StoredAvAttributes | undefined>;
  /** Keeps a 0x1003 answer (replacing an earlier one); a vehicle deleted meanwhile is skipped. */
  saveAttributes(a: StoredAvAttributes): Promise<void>;
}
