import type { VehicleRepository } from '../vehicle-record-types.ts';
import type { SqliteDb } from '../sqlite.ts';

export class SqliteVehicleRepository implements VehicleRepository {
  constructor(readonly db: SqliteDb) {}
}
