/**
 * Issue 15: master-data changes reach the live side. The management calls (vehicles, devices,
 * installations) call these after their transaction commits; the live store (scope keys of pushes)
 * and the gateway's terminal directory (device number → vehicle, which a connected terminal's next
 * report uses) then follow without a restart.
 */
export interface FleetSync {
  /** Vehicles created, deleted, moved to another company, or whose device changed. */
  vehiclesChanged(vehicleIds: readonly number[]): Promise<void>;
  /** Devices created, deleted, renumbered, bound or unbound. */
  devicesChanged(deviceNos: readonly string[]): Promise<void>;
}

/** Placeholder until the gateway side lands (issue 15, devices): the owner replaces it. */
export function createFleetSync(): FleetSync {
  return {
    async vehiclesChanged() {},
    async devicesChanged() {},
  };
}
