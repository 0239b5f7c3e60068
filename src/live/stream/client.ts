/**
 * Main-thread half of the stream worker (workers/stream.worker.ts): `createLiveStream(opts)` starts the
 * worker, relays its frames, stats and status to subscribers, and wraps the Comlink control calls.
 * Frames arrive at most once per animation frame with transferred buffers: hand each one back with
 * `release(frame)` once deck.gl has uploaded it (or copied it), or the worker runs out of buffer sets.
 */
import * as Comlink from 'comlink';
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { API_BASE } from '../../api/http.ts';
import { session } from '../../session/store.ts';
import type { AlarmHandledNotice, AlarmItem, AlarmListKind, AlarmSnapshot } from './alarm-lists.ts';
import type { DirectoryEntry, LiveConfigChanged, LiveFrame, LiveMessage, MainMessage, StreamControl, VehicleRecord, WorkerMessage } from './protocol.ts';

export const PUSH_PATH = '/ws-service/websocket';

export interface LiveStreamOptions {
  /** The session token, read again for every reconnect. @default the signed-in session's token */
  token?: () => string | null;
  /** Websocket URL without the token. @default derived from VITE_API_BASE or the page location */
  url?: string;
  /** @default 'wgs84' */
  crs?: DisplayCrs;
  /** @default 7000 (spec §7) */
  reconnectAttempts?: number;
  /** @default 7000 (spec §7) */
  reconnectDelayMs?: number;
  /** Worker factory (tests). */
  worker?: () => Worker;
}

export interface LiveStream {
  subscribe(listener: (msg: LiveMessage) => void): () => void;
  /**
   * Every alarm push message (never coalesced or dropped by the server). The worker posts them only
   * while a listener is registered: prefer `onAlarmLists` (≤ 4 Hz), one post per alarm is costly in storms.
   */
  onAlarm(listener: (data: unknown) => void): () => void;
  /** Snapshots of the client-held alarm lists (≤ 4 Hz, after a change). */
  onAlarmLists(listener: (snapshot: AlarmSnapshot) => void): () => void;
  /**
   * An operator in scope handled alarms or took a board step (push `alarmHandled`); null after a
   * reconnect (handlings made meanwhile are not replayed: refetch what shows alarm states).
   */
  onAlarmHandled(listener: (notice: AlarmHandledNotice | null) => void): () => void;
  /**
   * This user's unread notice count changed (push `noticeUnread`, issue 19); null when the socket (re)opened:
   * a change may have been missed, read the count again. Optional: test fakes may lack it.
   */
  onNoticeUnread?(listener: (msg: { unread: number; noticeId: number | null } | null) => void): () => void;
  /** The dictionary or the system parameters changed (push `configChanged`); null after a reconnect. Optional: test fakes may lack it. */
  onConfigChanged?(listener: (change: LiveConfigChanged['change']) => void): () => void;
  alarmList(kind: AlarmListKind): Promise<AlarmItem[]>;
  markAlarmsRead(): void;
  markAlarmHandled(id: number, dealStatus: number): void;
  /** Ask for a frame even if nothing moved (a subscriber joined a running stream). */
  resync(): void;
  release(frame: LiveFrame): void;
  setDisplayCrs(crs: DisplayCrs): void;
  lookup(vehicleId: number): Promise<VehicleRecord | undefined>;
  directory(vehicleIds: readonly number[]): Promise<DirectoryEntry[]>;
  idsInBounds(west: number, south: number, east: number, north: number): Promise<Int32Array>;
  /** Closes the socket, releases the Comlink proxy and terminates the worker. */
  dispose(): void;
}

/** `ws(s)://host/ws-service/websocket` for an API base ('' = same origin as the page). */
export function pushUrl(apiBase: string, location: { protocol: string; host: string }): string {
  if (/^https?:\/\//.test(apiBase)) return apiBase.replace(/^http/, 'ws') + PUSH_PATH;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${apiBase}${PUSH_PATH}`;
}

export function createLiveStream(opts: LiveStreamOptions = {}): LiveStream {
  const token = opts.token ?? (() => session.token);
  const worker = opts.worker?.() ?? new Worker(new URL('../../../workers/stream.worker.ts', import.meta.url), { type: 'module', name: 'stream' });
  const channel = new MessageChannel();
  const control = Comlink.wrap<StreamControl>(channel.port1);
  const listeners = new Set<(msg: LiveMessage) => void>();
  const alarmListeners = new Set<(data: unknown) => void>();
  const listListeners = new Set<(snapshot: AlarmSnapshot) => void>();
  const handledListeners = new Set<(notice: AlarmHandledNotice | null) => void>();
  const noticeListeners = new Set<(msg: { unread: number; noticeId: number | null } | null) => void>();
  const configListeners = new Set<(change: LiveConfigChanged['change']) => void>();
  let disposed = false;

  const release = (frame: LiveFrame) => {
    if (disposed) return;
    const msg: MainMessage = { type: 'release', frame };
    worker.postMessage(msg, [frame.ids.buffer, frame.positions.buffer, frame.headings.buffer, frame.states.buffer, frame.alarm.buffer]);
  };

  worker.onmessage = (e: MessageEvent<WorkerMessage>) => {
    const msg = e.data;
    if (msg.type === 'alarm') {
      for (const l of alarmListeners) l(msg.data);
      return;
    }
    if (msg.type === 'alarms') {
      for (const l of listListeners) l(msg.snapshot);
      return;
    }
    if (msg.type === 'alarmHandled') {
      for (const l of handledListeners) l(msg.notice);
      return;
    }
    if (msg.type === 'noticeUnread') {
      for (const l of noticeListeners) l({ unread: msg.unread, noticeId: msg.noticeId });
      return;
    }
    if (msg.type === 'status' && msg.connection === 'open') for (const l of noticeListeners) l(null);
    if (msg.type === 'configChanged') {
      for (const l of configListeners) l(msg.change);
      return;
    }
    if (msg.type === 'status' && msg.connection === 'reconnecting') {
      const t = token();
      if (t) void control.setToken(t);
    }
    if (msg.type === 'frame' && listeners.size === 0) {
      release(msg);
      return;
    }
    for (const l of listeners) l(msg);
  };

  const init: MainMessage = {
    type: 'init', control: channel.port2,
    options: {
      url: opts.url ?? pushUrl(API_BASE, location), token: token() ?? '', crs: opts.crs, userId: session.user?.id,
      reconnectAttempts: opts.reconnectAttempts, reconnectDelayMs: opts.reconnectDelayMs,
    },
  };
  worker.postMessage(init, [channel.port2]);

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onAlarm(listener) {
      alarmListeners.add(listener);
      if (alarmListeners.size === 1) void control.relayAlarms(true);
      return () => {
        if (alarmListeners.delete(listener) && alarmListeners.size === 0 && !disposed) void control.relayAlarms(false);
      };
    },
    onAlarmLists(listener) {
      listListeners.add(listener);
      return () => listListeners.delete(listener);
    },
    onAlarmHandled(listener) {
      handledListeners.add(listener);
      return () => handledListeners.delete(listener);
    },
    onNoticeUnread(listener) {
      noticeListeners.add(listener);
      return () => noticeListeners.delete(listener);
    },
    onConfigChanged(listener) {
      configListeners.add(listener);
      return () => configListeners.delete(listener);
    },
    alarmList: (kind) => control.alarmList(kind),
    markAlarmsRead: () => void control.markAlarmsRead(),
    markAlarmHandled: (id, dealStatus) => void control.markAlarmHandled(id, dealStatus),
    resync: () => void control.resync(),
    release,
    setDisplayCrs: (crs) => void control.setDisplayCrs(crs),
    lookup: (id) => control.lookup(id),
    directory: (ids) => control.directory([...ids]),
    idsInBounds: (w, s, e, n) => control.idsInBounds(w, s, e, n),
    dispose() {
      if (disposed) return;
      disposed = true;
      listeners.clear();
      alarmListeners.clear();
      listListeners.clear();
      handledListeners.clear();
      noticeListeners.clear();
      control[Comlink.releaseProxy]();
      channel.port1.close();
      worker.terminate();
    },
  };
}
