/**
 * The client-held alarm lists of spec §3, kept in the stream worker (plain class: tests drive it
 * without a Worker). Fed by alarm push messages (commandType 'alarm', mutation ADD_ALARM):
 *
 * - alarm events: every alarm, newest first (cap ALARM_EVENTS_MAX);
 * - safety events: ≤ 500, one per vehicle (a vehicle's new alarm replaces its older entry);
 * - online-reminder events: ≤ 500, one per vehicle, alarms of the offline type (11004);
 * - duty events: ≤ 100, alarms that arrived unprocessed (dealStatus 0) and still wait for a person
 *   on duty (the spec does not define "duty"; this is our reading: the to-do list of the shift);
 * - unread count: alarms since the user last looked;
 * - pop-up alarms: those whose company linkage asks for a pop-up (push field `popup`), newest first;
 *   `voiceCount` counts the ones whose linkage asks for a tone; the main thread sounds one tone per
 *   snapshot in which it grew (≤ 4 Hz), however many such alarms arrived in between.
 *
 * Every list drops its oldest entry first when full. `version` changes with every change, so the
 * worker posts a snapshot only when something changed.
 *
 * Catch-up after a reconnect (server/push/hub.ts, proto/README.md): `cursor` is the highest alarm id
 * accounted for (alarms received and the server's `lastId`); the worker sends it as `alarmsAfter` when it
 * reconnects and the server answers with one `alarmReplay` message holding the alarms raised meanwhile.
 * Replayed alarms go through the same rules as live ones (lists, duty, pop-up by their linkage, unread),
 * with one exception, decided here: a whole catch-up adds at most ONE to `voiceCount` (one tone for
 * "alarms arrived while you were away"), never one per alarm: a storm missed during an outage is not
 * re-sounded. Alarms the server could not replay (more than its cap of 500) are counted in `missed`
 * until the user looks (`markRead`); the pop-up then points to the alarm processing page.
 */
import { DealStatus } from '../../../domain/alarms/engine.ts';

/** The offline alarm (platform rule): the one type of the online-reminder list. */
export const OFFLINE_ALARM_TYPE = 11004;

export const ALARM_EVENTS_MAX = 200;
export const SAFETY_EVENTS_MAX = 500;
export const ONLINE_EVENTS_MAX = 500;
export const DUTY_EVENTS_MAX = 100;
/** Alarms the snapshot carries to the main thread (the pop-up shows a few; the rest stays here). */
export const SNAPSHOT_RECENT = 20;

/** One alarm as held by the console (push `commandBody.data`, spec §3 fields plus ours). */
export interface AlarmItem {
  id: number;
  alarmType: number;
  /** Chinese name from the server; the console shows `alarmName(alarmType, lang)`. */
  alarmName: string;
  vehicleId: number;
  /** Plate. */
  vehiidno: string;
  /** Terminal number. */
  devidno: string;
  companyId: number;
  companyName: string;
  channelId: number;
  /** Epoch ms (GPS time of the start). */
  gpsTime: number;
  createTime: number;
  lng: number;
  lat: number;
  /** km/h. */
  speed: number;
  riskLevel: string;
  dealStatus: number;
  dealType: number | null;
  count: number;
  source: string;
  /** Company linkage (alarm settings): pop up in the console, sound a tone. Absent → true (the classic behaviour). */
  popup: boolean;
  voice: boolean;
}

export type AlarmListKind = 'alarms' | 'safety' | 'online' | 'duty';

/** What the main thread receives (≤ 4 Hz, only after a change). */
export interface AlarmSnapshot {
  version: number;
  unread: number;
  /** Newest first, at most SNAPSHOT_RECENT. */
  recent: AlarmItem[];
  /** The alarms whose linkage asks for a pop-up, newest first, at most SNAPSHOT_RECENT. */
  popup: AlarmItem[];
  /** How many held pop-up alarms there are (the pop-up's "n more"). */
  popupCount: number;
  /** Alarms received whose linkage asks for a tone (only grows). */
  voiceCount: number;
  counts: Record<AlarmListKind, number>;
  /** Alarm push messages that were not alarms (missing id or type): counted and dropped. */
  rejected: number;
  /**
   * Alarms raised while the connection was down that the catch-up could not bring back (beyond the
   * server's replay cap), since the user last looked; `missedCapped`: at least that many.
   */
  missed: number;
  missedCapped: boolean;
}

/** `commandBody.data` of an `alarmHandled` push message (server/push/hub.ts AlarmHandled). */
export interface AlarmHandledNotice {
  alarmIds: number[];
  dealStatus: number | null;
  boardItemId: number | null;
  userId: number;
  time: number;
}

/** Validates an `alarmHandled` push `data`; undefined when malformed. */
export function toHandledNotice(data: unknown): AlarmHandledNotice | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  if (!Array.isArray(d.alarmIds) || !d.alarmIds.every((x) => Number.isInteger(x))) return undefined;
  return {
    alarmIds: d.alarmIds as number[], dealStatus: Number.isInteger(d.dealStatus) ? (d.dealStatus as number) : null,
    boardItemId: Number.isInteger(d.boardItemId) ? (d.boardItemId as number) : null, userId: num(d.userId, -1), time: num(d.time),
  };
}

/** `commandBody.data` of an `alarmReplay` push message (server/push/hub.ts AlarmReplay). */
export interface AlarmReplayData {
  after: number | null;
  lastId: number;
  alarms: unknown[];
  missed: number;
  missedCapped: boolean;
}

const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

/** Validates and normalises one push `data`; undefined when it is not an alarm. */
export function toAlarmItem(data: unknown): AlarmItem | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  const id = num(d.id, NaN);
  const alarmType = num(d.alarmType, NaN);
  if (!Number.isInteger(id) || !Number.isInteger(alarmType)) return undefined;
  return {
    id, alarmType, alarmName: str(d.alarmName), vehicleId: num(d.vehicleId, -1), vehiidno: str(d.vehiidno), devidno: str(d.devidno),
    companyId: num(d.companyId), companyName: str(d.companyName), channelId: num(d.channelId),
    gpsTime: num(d.gpsTime), createTime: num(d.createTime), lng: num(d.lng, NaN), lat: num(d.lat, NaN), speed: num(d.speed),
    riskLevel: str(d.riskLevel), dealStatus: num(d.dealStatus), dealType: typeof d.dealType === 'number' ? d.dealType : null,
    count: num(d.count, 1), source: str(d.source), popup: d.popup !== false, voice: d.voice !== false,
  };
}

/** The vehicle key of the one-per-vehicle lists (id when known, else the plate). */
function vehicleKey(a: AlarmItem): string {
  return a.vehicleId >= 0 ? `#${a.vehicleId}` : a.vehiidno;
}

/**
 * A newest-first list with a cap; optionally one entry per key. Arrays of ≤ 500 entries: an
 * unshift or splice is a few µs, far below one alarm message, so no ring buffer is needed.
 */
class CappedList {
  readonly items: AlarmItem[] = [];
  constructor(
    private readonly max: number,
    private readonly keyOf?: (a: AlarmItem) => string,
  ) {}

  add(a: AlarmItem): void {
    if (this.keyOf) {
      const k = this.keyOf(a);
      const i = this.items.findIndex((x) => this.keyOf!(x) === k);
      if (i >= 0) this.items.splice(i, 1);
    }
    this.items.unshift(a);
    if (this.items.length > this.max) this.items.length = this.max; // the oldest are at the end
  }

  remove(id: number): boolean {
    const i = this.items.findIndex((x) => x.id === id);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }
}

export class AlarmLists {
  private readonly lists: Record<AlarmListKind, CappedList> = {
    alarms: new CappedList(ALARM_EVENTS_MAX),
    safety: new CappedList(SAFETY_EVENTS_MAX, vehicleKey),
    online: new CappedList(ONLINE_EVENTS_MAX, vehicleKey),
    duty: new CappedList(DUTY_EVENTS_MAX),
  };
  private readonly popups = new CappedList(ALARM_EVENTS_MAX);
  private voiceCount = 0;
  private readonly seen = new Set<number>();
  unread = 0;
  rejected = 0;
  missed = 0;
  missedCapped = false;
  /** The highest alarm id accounted for; null until the server's first `alarmReplay` or alarm. */
  cursor: number | null = null;
  /** Changes with every change of any list or the unread count. */
  version = 0;

  /** One alarm push `data`. Answers false when it was not an alarm or a repeat of a known id. */
  add(data: unknown): boolean {
    const a = this.accept(data);
    if (!a) return false;
    if (a.voice) this.voiceCount++;
    this.version++;
    return true;
  }

  /**
   * One `alarmReplay` message (on every connect): moves the cursor, adds the replayed alarms oldest
   * first (at most one tone for all of them, see the header), and counts what could not be replayed.
   * Answers how many alarms were added. A `lastId` below the cursor means the server's alarm store
   * started afresh (new database): ids will be reused, so the ids seen so far are forgotten.
   */
  replay(data: unknown): number {
    const r = data as Partial<AlarmReplayData> | null;
    if (!r || typeof r !== 'object' || !Number.isInteger(r.lastId) || !Array.isArray(r.alarms)) {
      this.rejected++;
      this.version++;
      return 0;
    }
    const lastId = r.lastId as number;
    if (this.cursor !== null && lastId < this.cursor) this.seen.clear();
    this.cursor = lastId;
    let added = 0;
    let voice = false;
    for (const d of r.alarms) {
      const a = this.accept(d);
      if (!a) continue;
      added++;
      voice ||= a.voice;
    }
    if (voice) this.voiceCount++;
    const missed = typeof r.missed === 'number' && r.missed > 0 ? r.missed : 0;
    if (missed > 0) {
      this.missed += missed;
      this.missedCapped ||= r.missedCapped === true;
    }
    if (added > 0 || missed > 0) this.version++;
    return added;
  }

  /** Validates one alarm and files it in every list it belongs to (no tone, no version change). */
  private accept(data: unknown): AlarmItem | undefined {
    const a = toAlarmItem(data);
    if (!a) {
      this.rejected++;
      this.version++;
      return undefined;
    }
    if (this.cursor === null || a.id > this.cursor) this.cursor = a.id;
    // A catch-up and a live push may both carry an alarm (the server avoids it; this holds if it ever fails).
    if (this.seen.has(a.id)) return undefined;
    this.seen.add(a.id);
    if (this.seen.size > ALARM_EVENTS_MAX * 10) this.seen.delete(this.seen.values().next().value as number);
    this.lists.alarms.add(a);
    if (a.alarmType === OFFLINE_ALARM_TYPE) this.lists.online.add(a);
    else this.lists.safety.add(a);
    if (a.dealStatus === DealStatus.Unprocessed) this.lists.duty.add(a);
    if (a.popup) this.popups.add(a);
    this.unread++;
    return a;
  }

  /** The user looked at the alarms (the note about alarms a catch-up could not bring back goes too). */
  markRead(): void {
    if (this.unread === 0 && this.missed === 0) return;
    this.unread = 0;
    this.missed = 0;
    this.missedCapped = false;
    this.version++;
  }

  /** An alarm was handled from this console: it leaves the duty list and shows its new state. */
  markHandled(id: number, dealStatus: number): void {
    let changed = this.lists.duty.remove(id);
    for (const l of [this.lists.alarms, this.lists.safety, this.lists.online, this.popups]) {
      const a = l.items.find((x) => x.id === id);
      if (a && a.dealStatus !== dealStatus) {
        a.dealStatus = dealStatus;
        changed = true;
      }
    }
    if (changed) this.version++;
  }

  /**
   * Someone handled alarms (push `alarmHandled`, any console in scope): they leave the duty list and
   * show their new state everywhere. One handled by ANOTHER operator also leaves the pop-up queue (it
   * no longer waits for this operator); one this operator handled stays on the pop-up with its new
   * state, where the next steps (track, video) are. `me`: the signed-in user's id (-1 unknown).
   */
  applyHandled(notice: AlarmHandledNotice, me: number): void {
    if (notice.dealStatus === null || notice.alarmIds.length === 0) return;
    let left = false;
    for (const id of notice.alarmIds) {
      this.markHandled(id, notice.dealStatus);
      if (notice.userId !== me) left = this.popups.remove(id) || left;
    }
    if (left) this.version++;
  }

  list(kind: AlarmListKind): AlarmItem[] {
    return this.lists[kind].items.slice();
  }

  snapshot(): AlarmSnapshot {
    return {
      version: this.version,
      unread: this.unread,
      recent: this.lists.alarms.items.slice(0, SNAPSHOT_RECENT).map((a) => ({ ...a })),
      popup: this.popups.items.slice(0, SNAPSHOT_RECENT).map((a) => ({ ...a })),
      popupCount: this.popups.items.length,
      voiceCount: this.voiceCount,
      counts: {
        alarms: this.lists.alarms.items.length, safety: this.lists.safety.items.length,
        online: this.lists.online.items.length, duty: this.lists.duty.items.length,
      },
      rejected: this.rejected,
      missed: this.missed,
      missedCapped: this.missedCapped,
    };
  }
}
