/**
 * Vehicle CAN data (JT/T 808 0x0705) for the alarm pop-up's OBD buttons, server/API.md "Vehicle CAN
 * data": the gateway hands every 0x0705 here, its J1939 and OBD-II frames are decoded
 * (domain/obd/can.ts) and the latest values per vehicle and protocol are kept with the time they
 * arrived. The panel shows the engine now (the latest reading and its time), so only the latest
 * reading is kept: in memory for the route, and in `obd_reading` (migration 16) so a restart does not
 * blank every panel until each truck's next upload. Writes are batched (every OBD_FLUSH_MS and at
 * shutdown): at 2,000 trucks uploading every 30 s that is one small transaction instead of 67 a second;
 * a crash loses at most that interval of latest readings, which the next upload (≤ 30 s) replaces
 * anyway; the CAN history rows of an acknowledged upload are never lost (history.ts). The CAN history
 * for the OBD reports is a table of its own (history.ts, migration 33; calls in reports.ts).
 */
import { Type } from '@fastify/type-provider-typebox';
import { decodeCanFrames, type CanProtocol, type ObdValues } from '../../domain/obd/can.ts';
import type { Storage } from '../db/repositories.ts';
import { CAN_DATA, type CanDataUpload } from '../gateway/jt808/can.ts';
import type { Jt808Gateway } from '../gateway/server.ts';
import { auth, narrowedScope } from '../http/auth.ts';
import { fail, ok } from '../http/envelope.ts';
import { requestLang } from '../http/lang.ts';
import { Id, PageFields, Strict, type App } from '../http/route.ts';
import { SafeMessages } from '../services/safe/messages.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import type { LiveRuntime } from '../live/runtime.ts';
import { ObdHistory } from './history.ts';
import { checkRange, obdDetailPage, obdReportRoutes, ObdRange } from './reports.ts';

export interface ObdReading extends ObdValues {
  protocol: CanProtocol;
  /** When the platform received it (epoch ms). */
  time: number;
}

/** Unsaved readings are written this often (and at shutdown). */
export const OBD_FLUSH_MS = 2000;

/** Latest readings per vehicle and protocol: memory for reads, `obd_reading` for restarts. */
export class ObdStore {
  private readonly latest = new Map<number, Partial<Record<CanProtocol, ObdReading>>>();
  /** `vehicle:protocol` keys changed since the last flush. */
  private readonly dirty = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** 0x0705 messages taken. */
  uploads = 0;

  constructor(private readonly storage: Storage, private readonly log?: { warn(obj: object, msg: string): void }) {}

  /** Loads the stored readings (a reading that arrived meanwhile is newer and kept) and starts the flush timer. */
  async start(): Promise<void> {
    for (const r of await this.storage.obd.all()) {
      const entry = this.latest.get(r.vehicleId) ?? {};
      const { vehicleId: _id, ...reading } = r;
      if (!entry[r.protocol] || entry[r.protocol]!.time < r.time) entry[r.protocol] = reading;
      this.latest.set(r.vehicleId, entry);
    }
    this.timer ??= setInterval(() => void this.flush(), OBD_FLUSH_MS);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Writes the readings changed since the last flush (one transaction). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.dirty.size === 0) return;
      const keys = [...this.dirty];
      this.dirty.clear();
      const rows = keys.flatMap((k) => {
        const [v, p] = k.split(':') as [string, CanProtocol];
        const r = this.latest.get(Number(v))?.[p];
        return r ? [{ ...r, vehicleId: Number(v) }] : [];
      });
      try {
        await this.storage.obd.save(rows);
      } catch (err) {
        // Kept dirty for the next flush (unless a newer upload has replaced it meanwhile, which is dirty anyway).
        for (const k of keys) this.dirty.add(k);
        this.log?.warn({ err }, 'CAN readings not saved');
      }
    });
    return this.flushing;
  }

  /** Takes an upload; answers the readings it produced (one per protocol, merged with the previous values). */
  onUpload(vehicleId: number, msg: CanDataUpload, now: number): ObdReading[] {
    this.uploads++;
    const decoded = decodeCanFrames(msg.items.map((i) => ({ id: i.id, extended: i.extended, channel: i.channel, data: i.data })));
    const entry = this.latest.get(vehicleId) ?? {};
    const out: ObdReading[] = [];
    for (const protocol of Object.keys(decoded) as CanProtocol[]) {
      const values = decoded[protocol]!;
      const before = entry[protocol];
      // A value this upload lacks keeps the previous one (terminals send PGNs at different rates).
      const merged = { ...values };
      if (before) for (const k of Object.keys(merged) as (keyof ObdValues)[]) if (merged[k] === null) merged[k] = before[k];
      entry[protocol] = { ...merged, protocol, time: now };
      out.push(entry[protocol]);
      this.dirty.add(`${vehicleId}:${protocol}`);
    }
    this.latest.set(vehicleId, entry);
    return out;
  }

  of(vehicleId: number): Partial<Record<CanProtocol, ObdReading>> {
    return this.latest.get(vehicleId) ?? {};
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Latest CAN data per vehicle (tests read it). */
    obd: ObdStore;
    /** The CAN history (tests flush it). */
    obdHistory: ObdHistory;
  }
}

export function obdRoutes(app: App, deps: { storage: Storage; gateway: Jt808Gateway; clock?: () => number; live?: LiveRuntime; retentionDays?: number }): ObdStore {
  const { storage, gateway } = deps;
  const clock = deps.clock ?? Date.now;
  const store = new ObdStore(storage, app.log);
  app.decorate('obd', store);
  const history = new ObdHistory((storage as SqliteStorage).db, app.log);
  app.decorate('obdHistory', history);
  const flushTimer = setInterval(() => void history.flush(), OBD_FLUSH_MS);
  flushTimer.unref();
  // 0 days: positions are kept for ever, and so is the CAN history.
  if (deps.retentionDays) app.retention.add(history.retention(() => deps.retentionDays!, deps.live?.store.clock ?? clock));
  app.addHook('onReady', async () => store.start());
  // preClose hooks run in order: the gateway (registered earlier) has stopped taking uploads by now.
  app.addHook('preClose', async () => {
    clearInterval(flushTimer);
    await Promise.all([store.stop(), history.flush()]);
  });
  const liveStore = deps.live?.store;
  gateway.handleTerminalMessage(CAN_DATA, ({ vehicleId, message }) => {
    if (message.msgId !== CAN_DATA) return;
    const slot = liveStore ? liveStore.slotOf(vehicleId) : -1;
    const lng = slot < 0 ? NaN : liveStore!.columns.lng[slot]!, lat = slot < 0 ? NaN : liveStore!.columns.lat[slot]!;
    const mileageKm = app.hasDecorator('boxStatus') ? app.boxStatus.odometerOf(vehicleId) : null;
    const readings = store.onUpload(vehicleId, message, clock());
    for (const r of readings) {
      history.add({ ...r, vehicleId, mileageKm, lng: Number.isFinite(lng) ? lng : null, lat: Number.isFinite(lat) ? lat : null });
    }
    // Issue 20: the 0x8001 goes out once these rows are committed (the session holds this terminal's
    // later frames meanwhile, ≤ OBD_ACK_FLUSH_MS; uploads come every 30 s or so).
    if (readings.length > 0) return history.committed();
  });

  app.get('/service-monitor/obd/detail', {
    // The area; the button (obd: OBD-II, obdLargeVehicle: J1939) is checked by `protocol`.
    config: { permission: '/global/alarm' },
    // With a range (startTime and endTime), the readings of that range as well, newest first, paged.
    schema: {
      querystring: Strict({
        vehicleId: Id, protocol: Type.Union([Type.Literal('obd2'), Type.Literal('j1939')]),
        startTime: Type.Optional(ObdRange.startTime), endTime: Type.Optional(ObdRange.endTime), ...PageFields,
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const { vehicleId, protocol, companyId, startTime, endTime, current, size } = request.query;
    const button = protocol === 'obd2' ? 'obd' : 'obdLargeVehicle';
    if (!ctx.isAdmin && !ctx.access.hasButton('/global/alarm', button)) throw fail.forbidden();
    if ((startTime === undefined) !== (endTime === undefined)) throw fail.field(startTime === undefined ? 'startTime' : 'endTime', { code: 'required' });
    if (startTime !== undefined) checkRange(startTime, endTime!);
    const scope = await narrowedScope(storage, ctx, companyId);
    if (!(await storage.fleet.getVehicle(scope, vehicleId))) throw fail.notFound(SafeMessages.vehicleNotFound);
    const reading = store.of(vehicleId)[protocol] ?? null;
    if (startTime === undefined) return ok({ vehicleId, protocol, reading }, requestLang(request));
    await history.flush();
    const page = obdDetailPage((storage as SqliteStorage).db, { vehicleIds: [vehicleId], start: startTime, end: endTime!, protocol, current, size });
    return ok({ vehicleId, protocol, reading, ...page }, requestLang(request));
  });
  obdReportRoutes(app, { storage, store, history, live: deps.live });
  return store;
}
