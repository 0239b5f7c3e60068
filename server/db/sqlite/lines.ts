import type { LineRepository } from '../line-types.ts';
import type { SqliteDb } from '../sqlite.ts';

export class SqliteLineRepository implements LineRepository {
  constructor(readonly db: SqliteDb) {}
}
