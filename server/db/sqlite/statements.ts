import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../sqlite.ts';

/** A statement cache's lookup: the compiled statement of `text`, compiled on its first use. */
export type Sql = (text: string) => Statement<unknown[]>;

/**
 * Compiled statements kept by SQL text (issue 15: a 10,000-row import calls the same few statements per
 * row, and `db.prepare` costs more than running them). Bounded: texts vary only with filters and
 * IN-list lengths; past `max` texts the cache starts over.
 */
export function statementCache(db: SqliteDb, max = 2000): Sql {
  const statements = new Map<string, Statement<unknown[]>>();
  return (text) => {
    let s = statements.get(text);
    if (!s) {
      if (statements.size >= max) statements.clear();
      s = db.prepare(text);
      statements.set(text, s);
    }
    return s;
  };
}
