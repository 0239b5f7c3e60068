import type { DeviceRepository } from '../device-record-types.ts';
import type { SqliteDb } from '../sqlite.ts';

export class SqliteDeviceRepository implements DeviceRepository {
  constructor(readonly db: SqliteDb) {}
}
