/** Multimedia (issue 6): photos terminals uploaded (0x0801), the repository interface. */
import type { Scope } from './scope.ts';

export type MediaSource = 'snap' | 'event' | 'upload';

export interface NewMediaItem {
  readonly vehicleId: number;
  readonly companyId: number;
  /** The terminal's multimedia id. */
  readonly deviceMediaId: number;
  readonly mediaType: number;
  readonly format: number;
  readonly eventCode: number;
  readonly channel: number;
  /** Location time of the photo, or the arrival time when the terminal had no fix. */
  readonly captureTime: number;
  readonly receivedTime: number;
  readonly lng: number | null;
  readonly lat: number | null;
  readonly speed: number | null;
  readonly alarmFlags: number;
  readonly size: number;
  /** Relative to DATA_DIR/media. */
  readonly path: string;
  readonly alarmId: number | null;
  readonly requestedBy: number | null;
  readonly source: MediaSource;
}

export interface MediaItem extends NewMediaItem {
  readonly id: number;
  readonly vehiidno: string;
  readonly companyName: string;
  readonly requestedByName: string | null;
  readonly alarmType: number | null;
}

export interface MediaFilter {
  readonly from: number;
  readonly to: number;
  readonly vehicleIds?: readonly number[];
  readonly channels?: readonly number[];
  /** true: only items linked to an alarm; false: only items not linked. */
  readonly linkedToAlarm?: boolean;
  readonly alarmIds?: readonly number[];
  readonly sources?: readonly MediaSource[];
  /** The terminal's multimedia ids (with one vehicle: what an upload request brought). */
  readonly deviceMediaIds?: readonly number[];
}

export interface MediaRepository {
  insert(item: NewMediaItem): Promise<number>;
  get(scope: Scope, id: number): Promise<MediaItem | undefined>;
  /** Newest first. */
  query(scope: Scope, filter: MediaFilter, offset: number, limit: number): Promise<{ total: number; records: MediaItem[] }>;
  /** The vehicle's alarm raised within `windowMs` of `time` (or still open then), newest first; its id. */
  alarmNear(vehicleId: number, time: number, windowMs: number): Promise<number | undefined>;
  /**
   * Items received before `before` (server time, not the terminal's clock), oldest first (at most
   * `limit`), after the cursor `after` when given: what retention removes next.
   */
  expired(before: number, limit: number, after?: { receivedTime: number; id: number }): Promise<{ id: number; path: string; size: number; receivedTime: number }[]>;
  delete(ids: readonly number[]): Promise<void>;
  /** Sets who asked for these items and why (a snapshot learns its own photos from the terminal's 0x0805). */
  attribute(ids: readonly number[], by: { source: MediaSource; requestedBy: number | null; alarmId: number | null }): Promise<void>;
}
