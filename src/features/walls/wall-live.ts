/**
 * A wall's live half (outside React): one push stream (the stream worker, src/live/stream) that never
 * gives up reconnecting, the monitor's controller for the map (the same binary deck.gl layers and
 * cluster worker as /monitor/index) when the preset has a map, and the rolling alarm list.
 *
 * Memory stays flat over weeks: the worker holds fixed-size alarm lists (alarm-lists.ts caps), the
 * ticker keeps at most TICKER_MAX items, frames are double-buffered and handed back, and nothing
 * here grows per alarm or per frame.
 */
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { API_BASE } from '../../api/http.ts';
import { createLiveStream, pushUrl, type LiveStream } from '../../live/stream/client.ts';
import type { AlarmItem } from '../../live/stream/alarm-lists.ts';
import type { Connection, LiveMessage } from '../../live/stream/protocol.ts';
import { session } from '../../session/store.ts';
import { MonitorController, type MonitorControllerOptions } from '../monitor/monitor-controller.ts';
import type { WallAuth } from './wall-api.ts';

/** Close code of a push socket whose display key was revoked (server/auth/display.ts REVOKED_CLOSE_CODE). */
export const REVOKED_CLOSE_CODE = 4001;

/** Rows the alarm ticker keeps (a 2160-pixel-high column shows about 20). */
export const TICKER_MAX = 30;
/**
 * Reconnect delay of a wall's stream: 5 s, and never giving up (the console's spec policy stops
 * after 7000 attempts ≈ 13.6 hours; a wall must outlast a weekend outage).
 */
export const WALL_RECONNECT_MS = 5000;

/**
 * The ticker changes at most every 2 s: a large fleet raises alarms faster than a room can read them
 * (100k vehicles ≈ 14 a second), and rows replaced every 250 ms would only flicker. Newest still win.
 */
export const TICKER_INTERVAL_MS = 2000;

/** One alarm row of the ticker (push item or the first fill from screenV2/realtimeAlarms). */
export interface TickerAlarm {
  readonly id: number;
  readonly alarmType: number;
  readonly vehiidno: string;
  readonly companyName: string;
  readonly gpsTime: number;
  readonly riskLevel: string;
  readonly speed: number;
}

export interface WallLiveState {
  readonly connection: Connection;
  readonly attempt: number;
  /** Close code of the last disconnect (4001: the server revoked this wall's display key). */
  readonly closeCode?: number;
  /** Newest first, at most TICKER_MAX. */
  readonly alarms: readonly TickerAlarm[];
}

/** Merges alarm lists newest-first by id, without duplicates, capped (pure; the ticker's rule). */
export function mergeAlarms(current: readonly TickerAlarm[], incoming: readonly TickerAlarm[], max = TICKER_MAX): TickerAlarm[] {
  const byId = new Map<number, TickerAlarm>();
  for (const a of incoming) byId.set(a.id, a);
  for (const a of current) if (!byId.has(a.id)) byId.set(a.id, a);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, max);
}

const fromItem = (a: AlarmItem): TickerAlarm => ({
  id: a.id, alarmType: a.alarmType, vehiidno: a.vehiidno, companyName: a.companyName, gpsTime: a.gpsTime, riskLevel: a.riskLevel, speed: a.speed,
});

export interface WallLiveOptions {
  readonly map: boolean;
  readonly crs: DisplayCrs;
  /** `companyId` narrowing of the push stream (the preset's company). */
  readonly companyId: number | null;
  /** Stream factory (tests and the soak bench inject one). */
  readonly stream?: (opts: { token: () => string | null; url?: string; crs: DisplayCrs }) => LiveStream;
  /** Options of the map's controller (the soak bench counts applied frames with `onApplied`). */
  readonly mapOptions?: MonitorControllerOptions;
}

export class WallLive {
  readonly stream: LiveStream;
  readonly map: MonitorController | null;
  private state: WallLiveState = { connection: 'connecting', attempt: 0, alarms: [] };
  private readonly listeners = new Set<() => void>();
  private readonly offs: (() => void)[] = [];
  private disposed = false;
  /** Alarms waiting for the next ticker change (≤ TICKER_MAX: merged as they come). */
  private pending: TickerAlarm[] = [];
  private lastTicker = -Infinity;
  private tickerTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(auth: WallAuth, opts: WallLiveOptions) {
    const token = () => (auth.kind === 'display' ? auth.key : session.token);
    const make = opts.stream ?? ((o) => createLiveStream({ ...o, reconnectAttempts: Number.POSITIVE_INFINITY, reconnectDelayMs: WALL_RECONNECT_MS }));
    const url = opts.companyId === null ? undefined : `${pushUrl(API_BASE, location)}?companyId=${opts.companyId}`;
    this.stream = make({ token, url, crs: opts.crs });
    this.map = opts.map ? new MonitorController(this.stream, opts.mapOptions) : null;
    this.offs.push(this.stream.subscribe((m) => this.onMessage(m)));
    this.offs.push(this.stream.onAlarmLists((snap) => this.pushAlarms(snap.recent.map(fromItem))));
  }

  private onMessage(m: LiveMessage): void {
    if (m.type === 'status') this.set({ connection: m.connection, attempt: m.attempt, closeCode: m.closeCode ?? this.state.closeCode });
    // Without a map nobody else takes frames: hand them straight back (the worker double-buffers).
    else if (m.type === 'frame' && !this.map) this.stream.release(m);
  }

  /** Adds alarms (the first fill or a push snapshot) to the ticker, at most every TICKER_INTERVAL_MS. */
  pushAlarms(items: readonly TickerAlarm[]): void {
    if (this.disposed || items.length === 0) return;
    this.pending = mergeAlarms(this.pending, items);
    if (this.tickerTimer !== null) return;
    const wait = this.lastTicker + TICKER_INTERVAL_MS - Date.now();
    if (wait <= 0) this.flushTicker();
    else this.tickerTimer = setTimeout(() => this.flushTicker(), wait);
  }

  private flushTicker(): void {
    this.tickerTimer = null;
    if (this.disposed) return;
    this.lastTicker = Date.now();
    const next = mergeAlarms(this.state.alarms, this.pending);
    this.pending = [];
    const same = next.length === this.state.alarms.length && next.every((a, i) => a.id === this.state.alarms[i]?.id);
    if (!same) this.set({ alarms: next });
  }

  private set(patch: Partial<WallLiveState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  getState = (): WallLiveState => this.state;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const off of this.offs) off();
    if (this.tickerTimer !== null) clearTimeout(this.tickerTimer);
    this.listeners.clear();
    // The controller disposes the stream it was given.
    if (this.map) this.map.dispose();
    else this.stream.dispose();
  }
}
