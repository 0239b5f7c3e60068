/**
 * Messages between the stream worker and the main thread (contract L3 → L4 in the live-monitoring
 * notes). Frames go over the worker's own port with raw postMessage and a transfer list; control calls
 * (never per vehicle) go through Comlink on a dedicated MessagePort.
 */
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import type { StateCounts } from '../../../domain/vehicle/realtime.ts';
import type { AlarmHandledNotice, AlarmItem, AlarmListKind, AlarmSnapshot } from './alarm-lists.ts';

/** At most once per animation frame. The buffers are transferred: hand them back with `release`. */
export interface LiveFrame {
  type: 'frame';
  count: number;
  ids: Int32Array;
  /** (lng, lat) pairs in the display CRS, interpolated so vehicles glide between reports. */
  positions: Float32Array;
  /** Degrees clockwise from north. */
  headings: Float32Array;
  /** domain/vehicle/state.ts codes, offline derived in the worker. */
  states: Uint8Array;
  /** 1 = has an active alarm. */
  alarm: Uint8Array;
}

/** State counts the worker derives (domain/vehicle/realtime.ts). */
export type LiveCounts = StateCounts;

/** At most twice a second. */
export interface LiveStats {
  type: 'stats';
  counts: LiveCounts;
  byCompany?: Map<number, { total: number; online: number }>;
  /** Push messages that could not be decoded (counted and dropped; state kept). */
  errors: number;
}

export type Connection = 'connecting' | 'open' | 'closed' | 'reconnecting';

export interface LiveStatus {
  type: 'status';
  connection: Connection;
  /** Reconnect attempt (0 while connected or on the first connect). */
  attempt: number;
  /** Close code of the last disconnect (4008: the server found this console too slow). */
  closeCode?: number;
}

/** One alarm push message, posted only while relaying is on (StreamControl.relayAlarms). */
export interface LiveAlarm {
  type: 'alarm';
  /** commandBody.data of the alarm push message (spec §3 fields). */
  data: unknown;
}

/** The client-held alarm lists changed (≤ 4 Hz, only after a change; alarm-lists.ts). */
export interface LiveAlarmLists {
  type: 'alarms';
  snapshot: AlarmSnapshot;
}

/**
 * Alarms were handled by some operator in scope (push `alarmHandled`), always posted (one per operator
 * action, rare); `notice` null after a reconnect: handlings may have been missed while away, so views
 * that show alarm states refetch.
 */
export interface LiveAlarmHandled {
  type: 'alarmHandled';
  notice: AlarmHandledNotice | null;
}

/**
 * This user's unread notice count (push `noticeUnread`, issue 19), the whole count each time; the header's
 * bell shows it and refetches its list. `noticeId` names a newly published notice, null otherwise.
 */
export interface LiveNoticeUnread {
  type: 'noticeUnread';
  unread: number;
  noticeId: number | null;
}

/**
 * The dictionary or the system parameters changed (push `configChanged`, issue 19): views reading them
 * refetch that topic; `change` null after a reconnect (changes made while away are not replayed: refetch all).
 */
export interface LiveConfigChanged {
  type: 'configChanged';
  change: { topic: string; version: number } | null;
}

export type LiveMessage = LiveFrame | LiveStats | LiveStatus;

/** Worker → main over the worker port. */
export type WorkerMessage = LiveMessage | LiveAlarm | LiveAlarmLists | LiveAlarmHandled | LiveConfigChanged | LiveNoticeUnread;

/** Main → worker over the worker port: start, or give a frame's buffers back. */
export type MainMessage =
  | { type: 'init'; control: MessagePort; options: StreamStartOptions }
  | { type: 'release'; frame: LiveFrame };

export interface StreamStartOptions {
  /** Websocket URL without the token (`ws(s)://host/ws-service/websocket`). */
  url: string;
  token: string;
  /** @default 7000 (spec §7) */
  reconnectAttempts?: number;
  /** @default 7000 (spec §7) */
  reconnectDelayMs?: number;
  /** @default 'wgs84' */
  crs?: DisplayCrs;
  /** The signed-in user (an alarm this user handled stays on the pop-up; others' handlings remove it). */
  userId?: number;
}

export interface DirectoryEntry {
  vehicleId: number;
  plate: string;
  companyId: number;
  deviceNo: string;
}

/** The latest known record of one vehicle (WGS-84). */
export interface VehicleRecord extends DirectoryEntry {
  lng: number;
  lat: number;
  speed: number;
  heading: number;
  state: number;
  alarmFlags: number;
  gpsTime: number;
  lastContact: number;
}

/** Comlink control API of the worker (each call ≈ 80 µs: never per vehicle). */
export interface StreamControl {
  lookup(vehicleId: number): VehicleRecord | undefined;
  directory(vehicleIds: readonly number[]): DirectoryEntry[];
  /** Ids of vehicles whose latest WGS-84 position lies inside the box. */
  idsInBounds(west: number, south: number, east: number, north: number): Int32Array;
  setDisplayCrs(crs: DisplayCrs): void;
  /** A fresh token for the next reconnect (the server slides expiry through the `jwt` header). */
  setToken(token: string): void;
  /** A new subscriber joined a running stream: send a frame even if nothing moved. */
  resync(): void;
  /** One of the client-held alarm lists, newest first. */
  alarmList(kind: AlarmListKind): AlarmItem[];
  /** The user looked at the alarms: the unread count goes to 0. */
  markAlarmsRead(): void;
  /** An alarm was handled from this console (leaves the duty list). */
  markAlarmHandled(id: number, dealStatus: number): void;
  /** Post every alarm message (`type: 'alarm'`) as well as the list snapshots; off by default. */
  relayAlarms(on: boolean): void;
}
