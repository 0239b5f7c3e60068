import type { DriverRepository } from '../driver-types.ts';
import type { SqliteDb } from '../sqlite.ts';

export class SqliteDriverRepository implements DriverRepository {
  constructor(readonly db: SqliteDb) {}
}
