/**
 * The terminal side of multimedia on the server: handles 0x0800 / 0x0801 from the gateway (stores the
 * file under MEDIA_DIR/photos/ (default DATA_DIR/media), one `media_item` row each, answers 0x8800), links
 * photos to alarms, and runs the platform's requests: snapshots (0x8801 → 0x0805 → the photos' 0x0801),
 * stored-media search (0x8802 → 0x0802) and uploads (0x8805 / 0x8803). server/API.md "Multimedia".
 *
 * Scale-out (issue 20): a snapshot asked on an API node reaches the terminal on a gateway node over the
 * command bus, and the photos come to that gateway node. It stores them (row in the shared database, file
 * in the shared MEDIA_DIR) and hands each to `storedRelay`, which the events bus publishes
 * (server/bus/events.ts, kind `media`); the asking node's `storedElsewhere` reads the row and resolves its
 * snapshot as if the photo had come to it. Without NATS_URL nothing is set and nothing else changes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaItem, MediaSource } from '../../db/media-types.ts';
import type { Storage } from '../../db/repositories.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import {
  CAMERA_RESULT,
  MEDIA_EVENT,
  MEDIA_FORMAT,
  MULTIMEDIA_MSG,
  type MediaData,
  type StoredMediaItem,
} from '../../gateway/jt808/multimedia.ts';
import { RESULT } from '../../gateway/jt808/messages.ts';
import type { Jt808Gateway, TerminalMessageContext } from '../../gateway/server.ts';

/** How long after a snapshot request a platform-event photo of that channel counts as its answer. */
const SNAP_ATTRIBUTION_MS = 120_000;
/** How long after an upload request (0x8803 / 0x8805) arriving photos count as that upload. */
const UPLOAD_ATTRIBUTION_MS = 10 * 60_000;
/** A terminal-initiated alarm photo belongs to the vehicle's alarm raised this close to it. */
export const ALARM_LINK_WINDOW_MS = 2 * 60_000;
/** Arrivals remembered for a snapshot whose 0x0805 is processed after its photos. */
const ARRIVAL_MEMORY_MS = 5 * 60_000;
/**
 * How long a user's stored-media search result (`searchDeviceMediaResult`, table `media_search`) is
 * kept to come back to, across restarts: the list is what the terminal held at search time, and a
 * terminal overwrites its storage in a loop and deletes what it uploaded, so after a day the list is
 * mostly stale and the user should search again. Expired rows are deleted by the hourly retention sweep.
 */
export const MEDIA_SEARCH_TTL_MS = 24 * 3_600_000;

const EXTENSIONS: Record<number, string> = { [MEDIA_FORMAT.JPEG]: 'jpg', [MEDIA_FORMAT.TIF]: 'tif', [MEDIA_FORMAT.MP3]: 'mp3', [MEDIA_FORMAT.WAV]: 'wav', [MEDIA_FORMAT.WMV]: 'wmv' };
export const CONTENT_TYPES: Record<number, string> = {
  [MEDIA_FORMAT.JPEG]: 'image/jpeg', [MEDIA_FORMAT.TIF]: 'image/tiff', [MEDIA_FORMAT.MP3]: 'audio/mpeg', [MEDIA_FORMAT.WAV]: 'audio/wav', [MEDIA_FORMAT.WMV]: 'video/x-ms-wmv',
};

/** Event codes that mean "an alarm triggered this capture" (JT/T 808 table 80). */
export function isAlarmEvent(eventCode: number): boolean {
  return eventCode === MEDIA_EVENT.ROBBERY_ALARM || eventCode === MEDIA_EVENT.COLLISION_ALARM;
}

/** Why one channel of a snapshot gave no photo. */
export type SnapProblem = 'offline' | 'captureFailed' | 'noCamera';

export type ChannelSnap = { readonly channel: number; readonly ok: true; readonly items: MediaItem[] } | { readonly channel: number; readonly ok: false; readonly problem: SnapProblem };

export interface SnapRequest {
  readonly vehicleId: number;
  readonly channels: readonly number[];
  readonly count: number;
  readonly userId: number;
  readonly alarmId: number | null;
}

interface Pending {
  readonly userId: number | null;
  readonly alarmId: number | null;
  readonly until: number;
}

/** A photo one node stored, as the bus tells the others (its row is in the shared database). */
export interface StoredPhoto {
  readonly vehicleId: number;
  readonly channel: number;
  /** The terminal's multimedia id (what a 0x0805 names). */
  readonly deviceMediaId: number;
  /** The `media_item` row. */
  readonly itemId: number;
}

export interface MultimediaOptions {
  /** MEDIA_DIR (default DATA_DIR/media): `media_item.path` is relative to it. */
  readonly mediaDir: string;
  /** Wall-clock budget of a snapshot: the 0x0805 and every photo's upload. @default 30_000 */
  readonly snapTimeoutMs?: number;
  readonly log?: { warn(obj: object, msg: string): void };
  /** Resolves once alarms raised by reports already received are stored (an alarm photo follows its report). */
  readonly alarmsSettled?: () => Promise<void>;
}

export class MultimediaService {
  /** Mutable so tests can shorten it. */
  snapTimeoutMs: number;
  /** Scale-out: told of every photo this node stored (the events bus publishes it; server/bus/events.ts). */
  storedRelay: ((photo: StoredPhoto) => void) | undefined;
  /** Snapshot requests by `vehicle:channel`: who asked and for which alarm. */
  private readonly snaps = new Map<string, Pending>();
  /** Stored-media uploads requested, by vehicle. */
  private readonly uploads = new Map<number, Pending>();
  /** Photos awaited by a snapshot, by `vehicle:mediaId`. */
  private readonly waiters = new Map<string, (item: MediaItem) => void>();
  /** Recent arrivals by `vehicle:mediaId` (a 0x0805 handled after its photos still finds them). */
  private readonly arrived = new Map<string, { item: MediaItem; at: number }>();
  /** Photos being written, so shutdown can wait for them. */
  private readonly writing = new Set<Promise<unknown>>();
  private readonly mediaDir: string;

  constructor(
    private readonly storage: Storage,
    private readonly gateway: Jt808Gateway,
    private readonly clock: () => number,
    private readonly options: MultimediaOptions,
  ) {
    this.snapTimeoutMs = options.snapTimeoutMs ?? 30_000;
    this.mediaDir = options.mediaDir;
  }

  /** Registers the gateway handlers of the terminal's multimedia messages. */
  install(): void {
    const g = this.gateway;
    // Event information only announces an upload; the 0x0801 carries everything we keep.
    g.handleTerminalMessage(MULTIMEDIA_MSG.EVENT, () => undefined);
    g.handleTerminalMessage(MULTIMEDIA_MSG.DATA, (ctx) => this.onData(ctx));
    // Answers reach their request first; a late one (after the timeout) is still acknowledged OK.
    g.handleTerminalMessage(MULTIMEDIA_MSG.CAMERA_ANSWER, () => undefined);
    g.handleTerminalMessage(MULTIMEDIA_MSG.STORED_LIST, () => undefined);
  }

  /** Absolute path of a stored item's file. */
  fileOf(item: Pick<MediaItem, 'path'>): string {
    return path.join(this.mediaDir, item.path);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.writing]);
  }

  private onData(ctx: TerminalMessageContext): Promise<'replied' | number> {
    const m = ctx.message as MediaData;
    const p = this.store(ctx.vehicleId, m).then(
      () => true,
      (err: unknown) => {
        this.options.log?.warn({ err, vehicleId: ctx.vehicleId, mediaId: m.mediaId }, 'multimedia: photo not stored');
        return false;
      },
    );
    this.writing.add(p);
    return p.then((stored) => {
      this.writing.delete(p);
      // Not stored (disk full, database error): a 0x8001 failure instead of "all received", so the
      // terminal keeps the photo and may upload it again rather than deleting it.
      if (!stored) return RESULT.FAIL;
      // The gateway hands over whole messages only (missing packages expire in its reassembler), so nothing is re-asked.
      ctx.send({ msgId: MULTIMEDIA_MSG.UPLOAD_ANSWER, mediaId: m.mediaId, retransmit: [] });
      return 'replied' as const;
    });
  }

  private async store(vehicleId: number, m: MediaData): Promise<void> {
    const now = this.clock();
    const vehicle = await this.storage.fleet.getVehicle(ALL_COMPANIES, vehicleId);
    if (!vehicle) return;
    const captureTime = Number.isFinite(m.location.time) ? m.location.time : now;
    const snap = this.live(this.snaps, `${vehicleId}:${m.channel}`, now);
    const upload = this.live(this.uploads, vehicleId, now);
    let source: MediaSource = 'event';
    let pending: Pending | undefined;
    if (m.eventCode === MEDIA_EVENT.PLATFORM && snap) {
      source = 'snap';
      pending = snap;
    } else if (upload) {
      source = 'upload';
      pending = upload;
    }
    let alarmId = pending?.alarmId ?? null;
    if (alarmId === null && (isAlarmEvent(m.eventCode) || (source === 'event' && m.location.alarm !== 0))) {
      await this.options.alarmsSettled?.();
      alarmId = (await this.storage.media.alarmNear(vehicleId, captureTime, ALARM_LINK_WINDOW_MS)) ?? null;
    }
    const day = new Date(captureTime + 8 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');
    const rel = path.join('photos', String(vehicleId), day, `${now}-${m.channel}-${m.mediaId}.${EXTENSIONS[m.format] ?? 'bin'}`);
    const file = path.join(this.mediaDir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, m.data);
    const hasFix = Number.isFinite(m.location.time);
    const id = await this.storage.media.insert({
      vehicleId, companyId: vehicle.companyId, deviceMediaId: m.mediaId, mediaType: m.mediaType, format: m.format, eventCode: m.eventCode,
      channel: m.channel, captureTime, receivedTime: now, lng: hasFix ? m.location.lng : null, lat: hasFix ? m.location.lat : null,
      speed: hasFix ? m.location.speed : null, alarmFlags: m.location.alarm, size: m.data.length, path: rel, alarmId,
      requestedBy: pending?.userId ?? null, source,
    });
    const item = await this.storage.media.get(ALL_COMPANIES, id);
    if (!item) return;
    this.arrive(item, now);
    this.storedRelay?.({ vehicleId, channel: m.channel, deviceMediaId: m.mediaId, itemId: id });
  }

  /**
   * Another node stored a photo (the events bus): when a snapshot of this node waits for it, or this node asked
   * that vehicle's channel for photos lately (its 0x0805 may come after the photo), or asked the vehicle for an
   * upload of stored photos (0x8805 / 0x8803), the row is read from the shared database and arrives as one stored
   * here would; a photo of such an upload, kept there as the terminal's own, is attributed to the user who asked
   * here, as `store` does. Anything else is not this node's: nothing is read.
   */
  async storedElsewhere(photo: StoredPhoto): Promise<void> {
    const now = this.clock();
    const key = `${photo.vehicleId}:${photo.deviceMediaId}`;
    const snap = this.live(this.snaps, `${photo.vehicleId}:${photo.channel}`, now);
    const upload = this.live(this.uploads, photo.vehicleId, now);
    if (!this.waiters.has(key) && !snap && !upload) return;
    let item = await this.storage.media.get(ALL_COMPANIES, photo.itemId);
    if (!item || item.vehicleId !== photo.vehicleId || item.deviceMediaId !== photo.deviceMediaId) {
      this.options.log?.warn({ ...photo }, 'multimedia: a photo another node stored is not in the database as announced');
      return;
    }
    // A snapshot's own photo (platform event while this node asked that channel) is attributed by the snapshot.
    if (upload && item.source === 'event' && !(item.eventCode === MEDIA_EVENT.PLATFORM && snap)) {
      await this.storage.media.attribute([item.id], { source: 'upload', requestedBy: upload.userId, alarmId: item.alarmId });
      item = (await this.storage.media.get(ALL_COMPANIES, item.id)) ?? item;
    }
    this.arrive(item, now);
  }

  /** A stored photo: remembered for a 0x0805 handled after it, and handed to the snapshot waiting for it. */
  private arrive(item: MediaItem, now: number): void {
    const key = `${item.vehicleId}:${item.deviceMediaId}`;
    this.arrived.set(key, { item, at: now });
    this.prune(now);
    const waiter = this.waiters.get(key);
    if (waiter) {
      this.waiters.delete(key);
      waiter(item);
    }
  }

  private live<K>(map: Map<K, Pending>, key: K, now: number): Pending | undefined {
    const p = map.get(key);
    if (p && p.until < now) {
      map.delete(key);
      return undefined;
    }
    return p;
  }

  private prune(now: number): void {
    for (const [k, v] of this.arrived) if (now - v.at > ARRIVAL_MEMORY_MS) this.arrived.delete(k);
  }

  /** Asks each channel for `count` photos and waits for them (or the snapshot budget). */
  async snap(req: SnapRequest): Promise<ChannelSnap[]> {
    const deadline = Date.now() + this.snapTimeoutMs;
    return Promise.all(req.channels.map((channel) => this.snapChannel(req, channel, deadline)));
  }

  private async snapChannel(req: SnapRequest, channel: number, deadline: number): Promise<ChannelSnap> {
    const { vehicleId } = req;
    this.snaps.set(`${vehicleId}:${channel}`, { userId: req.userId, alarmId: req.alarmId, until: this.clock() + SNAP_ATTRIBUTION_MS });
    const outcome = await this.gateway.request(vehicleId, {
      msgId: MULTIMEDIA_MSG.CAMERA_SHOOT, channel, command: req.count, interval: 0, saveFlag: 0,
      // 320×240 (the smallest common size: quick over a mobile link), quality 5 of 10, neutral picture settings.
      resolution: 1, quality: 5, brightness: 128, contrast: 64, saturation: 64, chroma: 128,
    }, MULTIMEDIA_MSG.CAMERA_ANSWER, Math.max(1, deadline - Date.now()));
    if (outcome.kind === 'offline') return { channel, ok: false, problem: 'offline' };
    if (outcome.kind !== 'answer' || outcome.message.msgId !== MULTIMEDIA_MSG.CAMERA_ANSWER) return { channel, ok: false, problem: 'captureFailed' };
    const answer = outcome.message;
    if (answer.result === CAMERA_RESULT.CHANNEL_UNSUPPORTED) return { channel, ok: false, problem: 'noCamera' };
    if (answer.result !== CAMERA_RESULT.OK || answer.mediaIds.length === 0) return { channel, ok: false, problem: 'captureFailed' };
    const items = await Promise.all(answer.mediaIds.map((id) => this.awaitPhoto(vehicleId, id, deadline)));
    const arrived = items.filter((i): i is MediaItem => i !== undefined);
    if (arrived.length === 0) return { channel, ok: false, problem: 'captureFailed' };
    // The 0x0805 named this request's own photos: they were stored under the newest request of the
    // channel, which is another one when two snapshots of a vehicle's channel overlap.
    const by = { source: 'snap' as const, requestedBy: req.userId, alarmId: req.alarmId };
    await this.storage.media.attribute(arrived.map((i) => i.id), by);
    // Read again: the names that go with the attribution (a photo another node stored was kept there as the
    // terminal's own; one stored here under an overlapping request names that request's user).
    const stored = await Promise.all(arrived.map(async (i) => (await this.storage.media.get(ALL_COMPANIES, i.id)) ?? { ...i, ...by }));
    return { channel, ok: true, items: stored };
  }

  private awaitPhoto(vehicleId: number, mediaId: number, deadline: number): Promise<MediaItem | undefined> {
    const key = `${vehicleId}:${mediaId}`;
    const seen = this.arrived.get(key);
    if (seen) return Promise.resolve(seen.item);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(key);
        resolve(undefined);
      }, Math.max(1, deadline - Date.now()));
      timer.unref();
      this.waiters.set(key, (item) => {
        clearTimeout(timer);
        resolve(item);
      });
    });
  }

  /** 0x8802 → 0x0802: the terminal's stored items; kept as the user's latest result for that vehicle. */
  async search(userId: number, vehicleId: number, q: { mediaType: number; channel: number; eventCode: number; startTime: number; endTime: number }, timeoutMs: number) {
    const outcome = await this.gateway.request(vehicleId, { msgId: MULTIMEDIA_MSG.STORED_QUERY, ...q }, MULTIMEDIA_MSG.STORED_LIST, timeoutMs);
    if (outcome.kind === 'answer' && outcome.message.msgId === MULTIMEDIA_MSG.STORED_LIST) {
      const result = { at: this.clock(), items: outcome.message.items };
      // JSON has no NaN: an item without a fix (time NaN) is stored with time null and read back as NaN.
      await this.storage.mediaSearches.save({ userId, vehicleId, searchTime: result.at, items: JSON.stringify(result.items) });
      return { kind: 'ok' as const, ...result };
    }
    return outcome.kind === 'offline' ? { kind: 'offline' as const } : { kind: 'noReply' as const };
  }

  /** The user's last search of the vehicle, unless older than MEDIA_SEARCH_TTL_MS. */
  async lastSearch(userId: number, vehicleId: number): Promise<{ at: number; items: StoredMediaItem[] } | undefined> {
    const row = await this.storage.mediaSearches.get(userId, vehicleId, this.clock() - MEDIA_SEARCH_TTL_MS);
    if (!row) return undefined;
    const items = (JSON.parse(row.items) as StoredMediaItem[]).map((it) => ({ ...it, location: { ...it.location, time: it.location.time ?? NaN } }));
    return { at: row.searchTime, items };
  }

  /** Marks the next photos of this vehicle as a requested upload (attributed to the user, optionally an alarm). */
  expectUpload(vehicleId: number, userId: number): void {
    this.uploads.set(vehicleId, { userId, alarmId: null, until: this.clock() + UPLOAD_ATTRIBUTION_MS });
  }
}
