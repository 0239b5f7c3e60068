/**
 * Issue 15: master-data changes reach the live side. The management calls (vehicles, devices,
 * installations) call these after their transaction commits; the live store (scope keys of pushes)
 * and the gateway's terminal directory (device number → vehicle, which a connected terminal's next
 * report uses) then follow without a restart.
 *
 * Both calls re-read the database (they carry no state of their own), so calling them for records that
 * did not change, or twice, is harmless; calling them before the commit is not (they would read the
 * uncommitted state): use `afterCommit`.
 */
import type { Storage } from '../db/repositories.ts';
import type { LiveRuntime } from './runtime.ts';

export interface FleetSync {
  /** Vehicles created, deleted, moved to another company, or whose device changed. */
  vehiclesChanged(vehicleIds: readonly number[]): Promise<void>;
  /** Devices created, deleted, renumbered, bound or unbound. */
  devicesChanged(deviceNos: readonly string[]): Promise<void>;
}

/** No live side (tools, tests without a gateway). */
export const NO_FLEET_SYNC: FleetSync = {
  async vehiclesChanged() {},
  async devicesChanged() {},
};

/**
 * The server's FleetSync over its storage, store and gateway.
 * - vehiclesChanged: each vehicle still in the database is (re)placed in the store under its company
 *   (a move changes who sees it live); a deleted one is forgotten. Devices that were or are now
 *   installed on those vehicles are re-read by the gateway.
 * - devicesChanged: the gateway re-reads those devices (`Jt808Gateway.devicesChanged`): a connected
 *   terminal switches vehicle in place, a vehicle that lost its device shows offline, a deleted or
 *   renumbered device's connection loses the terminal.
 */
export function createFleetSync(storage?: Storage, live?: Pick<LiveRuntime, 'store' | 'gateway'>, log?: { warn(obj: object, msg: string): void }): FleetSync {
  if (!storage || !live) return NO_FLEET_SYNC;
  const { store, gateway } = live;
  const guarded = async (what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      // The write is committed; a failed live update must not turn its answer into an error. A restart reloads everything.
      log?.warn({ err }, `fleet sync: ${what} failed`);
    }
  };
  return {
    vehiclesChanged: (vehicleIds) => guarded('vehiclesChanged', async () => {
      if (vehicleIds.length === 0) return;
      const rows = await storage.terminals.storeVehicles(vehicleIds);
      const found = new Set(rows.map((r) => r.vehicleId));
      for (const r of rows) store.upsertVehicle({ vehicleId: r.vehicleId, companyId: r.companyId, companyPath: r.companyPath });
      for (const id of vehicleIds) if (!found.has(id)) store.forget(id);
      const devices = [...gateway.devicesOfVehicles(vehicleIds), ...rows.flatMap((r) => (r.deviceNo === null ? [] : [r.deviceNo]))];
      if (devices.length > 0) await gateway.devicesChanged(devices);
    }),
    devicesChanged: (deviceNos) => guarded('devicesChanged', async () => {
      if (deviceNos.length > 0) await gateway.devicesChanged(deviceNos);
    }),
  };
}

/**
 * Runs `fn` once the current transaction has committed: SQLite transactions here hold no real I/O
 * between their statements, so every microtask of the write (its COMMIT included) has run before the
 * next macrotask. Hooks inside a transaction (the resource layer's `afterWrite`) schedule FleetSync calls with it.
 */
export function afterCommit(fn: () => Promise<void>): void {
  setImmediate(() => void fn());
}
