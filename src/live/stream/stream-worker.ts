/**
 * Everything the stream worker does, as a plain class: the reconnecting socket feeds the core, a loop
 * posts at most one frame per animation frame (raw postMessage with a transfer list), stats at
 * 2 Hz, and the client-held alarm lists (alarm-lists.ts) at ≤ 4 Hz when they changed. Single alarm
 * messages are relayed only on request (`relayAlarms`). A reconnect names the highest alarm id seen
 * (`alarmsAfter`) so the server replays what was raised meanwhile (alarm-lists.ts "Catch-up").
 * workers/stream.worker.ts only builds it and exposes `control()` through Comlink.
 */
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import type { DirectoryEntry, LiveFrame, StreamControl, StreamStartOptions, VehicleRecord, WorkerMessage } from './protocol.ts';
import { AlarmLists, toHandledNotice } from './alarm-lists.ts';
import { ReconnectingSocket, type SocketLike } from './socket.ts';
import { StreamCore } from './stream-core.ts';

/** Stats cadence: 2 Hz is enough for counters a person reads. */
export const STATS_INTERVAL_MS = 500;
/** Alarm list snapshots: ≤ 4 Hz, and only after a change (an alarm burst becomes one post). */
export const ALARMS_INTERVAL_MS = 250;

export interface WorkerEnv {
  post(msg: WorkerMessage, transfer: Transferable[]): void;
  now(): number;
  /** One callback per animation frame (the worker's requestAnimationFrame, else a 16 ms timer). */
  nextFrame(cb: () => void): void;
  createSocket(url: string): SocketLike;
}

export function withToken(url: string, token: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

/** The push URL of one (re)connect: the token, and the alarm cursor once the server has given one. */
export function pushUrl(url: string, token: string, alarmsAfter: number | null): string {
  const withAuth = withToken(url, token);
  return alarmsAfter === null ? withAuth : `${withAuth}&alarmsAfter=${alarmsAfter}`;
}

export class StreamWorker {
  readonly core = new StreamCore();
  readonly alarms = new AlarmLists();
  private alarmsPosted = -1;
  private lastAlarms = -Infinity;
  private socket: ReconnectingSocket | null = null;
  private token = '';
  private lastStats = -Infinity;
  private running = false;
  /** Post every alarm message too (only while the main thread has `onAlarm` listeners). */
  private relayAlarms = false;
  private userId = -1;
  private opened = 0;

  constructor(private readonly env: WorkerEnv) {
    this.core.onAlarm = (data) => {
      this.alarms.add(data);
      // Opt-in: in a storm one post per alarm costs the main thread more than the ≤ 4 Hz list snapshots.
      if (this.relayAlarms) env.post({ type: 'alarm', data }, []);
    };
    // Replayed alarms reach the lists only: relaying hundreds of singles at once is what relayAlarms avoids.
    this.core.onAlarmReplay = (data) => this.alarms.replay(data);
    // Handlings are rare (one per operator action): always posted, so lists and boards refetch at once.
    this.core.onAlarmHandled = (data) => {
      const notice = toHandledNotice(data);
      if (!notice) {
        this.core.errors++;
        return;
      }
      this.alarms.applyHandled(notice, this.userId);
      env.post({ type: 'alarmHandled', notice }, []);
    };
    // The unread notice count (issue 19): rare, always posted; a malformed one is counted.
    this.core.onNoticeUnread = (data) => {
      const n = data as { unread?: unknown; noticeId?: unknown } | null;
      if (!n || typeof n.unread !== 'number' || !(typeof n.noticeId === 'number' || n.noticeId === null)) {
        this.core.errors++;
        return;
      }
      env.post({ type: 'noticeUnread', unread: n.unread, noticeId: n.noticeId }, []);
    };
    // Configuration changes are rare (an administrator's save): always posted; malformed ones are counted.
    this.core.onConfigChanged = (data) => {
      const c = data as { topic?: unknown; version?: unknown } | null;
      if (!c || typeof c.topic !== 'string' || typeof c.version !== 'number') {
        this.core.errors++;
        return;
      }
      env.post({ type: 'configChanged', change: { topic: c.topic, version: c.version } }, []);
    };
  }

  start(options: StreamStartOptions): void {
    if (this.running) return;
    this.running = true;
    this.token = options.token;
    this.userId = options.userId ?? -1;
    this.core.setDisplayCrs(options.crs ?? 'wgs84');
    this.socket = new ReconnectingSocket(
      () => pushUrl(options.url, this.token, this.alarms.cursor),
      (url) => this.env.createSocket(url),
      {
        status: (connection, attempt, closeCode) => this.env.post({ type: 'status', connection, attempt, closeCode }, []),
        open: () => {
          this.core.handleReconnect();
          // Handlings made while the socket was down are not replayed: views showing alarm states refetch.
          if (this.opened++ > 0) {
            this.env.post({ type: 'alarmHandled', notice: null }, []);
            this.env.post({ type: 'configChanged', change: null }, []);
          }
        },
        message: (data) => this.core.handleMessage(data, this.env.now()),
      },
      { attempts: options.reconnectAttempts ?? 7000, delayMs: options.reconnectDelayMs ?? 7000 },
    );
    this.socket.start();
    this.loop();
  }

  /** One animation frame: post a frame if one is due and a buffer set is free, stats every 500 ms. */
  step(): void {
    const now = this.env.now();
    if (now - this.lastStats >= STATS_INTERVAL_MS) {
      this.lastStats = now;
      this.env.post(this.core.stats(now), []);
    }
    if (this.alarms.version !== this.alarmsPosted && now - this.lastAlarms >= ALARMS_INTERVAL_MS) {
      this.lastAlarms = now;
      this.alarmsPosted = this.alarms.version;
      this.env.post({ type: 'alarms', snapshot: this.alarms.snapshot() }, []);
    }
    const frame = this.core.takeFrame(now);
    if (frame) this.env.post(frame, [frame.ids.buffer, frame.positions.buffer, frame.headings.buffer, frame.states.buffer, frame.alarm.buffer]);
  }

  release(frame: LiveFrame): void {
    this.core.release(frame);
  }

  dispose(): void {
    this.running = false;
    this.socket?.dispose();
    this.socket = null;
  }

  /** The Comlink-exposed control calls (never per vehicle). */
  control(): StreamControl {
    return {
      lookup: (id: number): VehicleRecord | undefined => this.core.fleet.lookup(id),
      directory: (ids: readonly number[]): DirectoryEntry[] => this.core.fleet.directory(ids),
      idsInBounds: (w: number, s: number, e: number, n: number) => this.core.fleet.idsInBounds(w, s, e, n),
      setDisplayCrs: (crs: DisplayCrs) => this.core.setDisplayCrs(crs),
      setToken: (token: string) => {
        this.token = token;
      },
      resync: () => this.core.handleReconnect(),
      alarmList: (kind) => this.alarms.list(kind),
      markAlarmsRead: () => this.alarms.markRead(),
      markAlarmHandled: (id, dealStatus) => this.alarms.markHandled(id, dealStatus),
      relayAlarms: (on: boolean) => {
        this.relayAlarms = on;
      },
    };
  }

  private loop(): void {
    if (!this.running) return;
    this.env.nextFrame(() => {
      this.step();
      this.loop();
    });
  }
}
