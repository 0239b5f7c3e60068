import type { InstallationRepository } from '../installation-types.ts';
import type { SqliteDb } from '../sqlite.ts';

export class SqliteInstallationRepository implements InstallationRepository {
  constructor(readonly db: SqliteDb) {}
}
