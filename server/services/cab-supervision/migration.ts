/**
 * Migration 52 (issue 19 review, cab supervision): `suggest` reads the last supervision of each suggested
 * vehicle; `cab_supervision_vehicle`'s key is (supervision_id, vehicle_id), so a lookup by vehicle scanned the
 * table. This index answers it by vehicle, with the supervision id to join on.
 */
export const CAB_SUPERVISION_VEHICLE_INDEX_MIGRATION = {
  version: 52,
  name: 'cab supervision: index of supervised vehicles by vehicle',
  sql: `
    CREATE INDEX cab_supervision_vehicle_vehicle ON cab_supervision_vehicle(vehicle_id, supervision_id);
  `,
};
