/**
 * The live-monitoring runtime of one server: the latest-state store (loaded with every vehicle in
 * the database), the batched history writer and the JT/T 808 gateway. buildApp creates it; main.ts
 * makes the gateway listen; closing the app stops the gateway, then flushes history.
 */
import type { Config } from '../config.ts';
import type { Storage } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { Jt808Gateway } from '../gateway/server.ts';
import { BatchedHistoryWriter, type HistorySink } from './history.ts';
import { LiveStore } from './store.ts';

export interface LiveRuntime {
  readonly store: LiveStore;
  readonly history: HistorySink;
  readonly gateway: Jt808Gateway;
  /** Stops the gateway (no new input), then flushes every queued position. */
  stop(): Promise<void>;
}

export interface LiveRuntimeOptions {
  /** Injectable clock for the store and the gateway (tests). */
  readonly clock?: () => number;
  readonly log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** The sink the gateway writes to, built over the history writer (issue 20: server/bus publishes there too); the writer itself when absent. */
  readonly gatewaySink?: (history: HistorySink, store: LiveStore) => HistorySink;
}

export async function createLiveRuntime(config: Config, storage: Storage, options: LiveRuntimeOptions = {}): Promise<LiveRuntime> {
  // Every vehicle, with or without a device (issue 15): one without is listed, never online.
  const vehicles = await storage.terminals.storeVehicles();
  const latest = new Map((await storage.positions.latestPerVehicle()).map((p) => [p.vehicleId, p]));
  const store = new LiveStore({ clock: options.clock, capacity: Math.max(1024, vehicles.length * 1.25) });
  store.load(vehicles.map((v) => {
    const p = latest.get(v.vehicleId);
    return {
      vehicleId: v.vehicleId, companyId: v.companyId, companyPath: v.companyPath,
      // A vehicle with history was online once: its last fix and receive time make it offline, not never online.
      last: p && {
        vehicleId: p.vehicleId, lng: p.lng, lat: p.lat, speed: p.speed, heading: p.heading, altitude: p.altitude,
        statusFlags: p.status, alarmFlags: p.alarm, gpsTime: p.gpsTime, receivedAt: p.receivedAt,
      },
    };
  }));

  const db = (storage as Partial<SqliteStorage>).db;
  const history = new BatchedHistoryWriter(storage.positions, {
    flushMs: config.historyFlushMs,
    maxRows: config.historyBatchRows,
    canWrite: db ? () => !db.inTransaction : undefined,
    onError: (err) => options.log?.error({ err }, 'position history flush failed; retrying'),
  });
  const gatewayHistory = options.gatewaySink?.(history, store) ?? history;
  const gateway = new Jt808Gateway({ store, history: gatewayHistory, terminals: storage.terminals, log: options.log }, {
    idleMs: config.gatewayIdleSeconds * 1000,
    autoRegister: config.autoRegister ?? false,
    autoRegisterCompanyId: config.autoRegisterCompanyId,
  });
  await gateway.init();

  let stopped: Promise<void> | null = null;
  return {
    store, history, gateway,
    stop() {
      stopped ??= (async () => {
        await gateway.stop();
        await history.close();
      })();
      return stopped;
    },
  };
}
