import type { RegistryEntry } from '../../../domain/permissions/registry.ts';
import type { PermissionRepository } from '../repositories.ts';
import type { SqliteDb } from '../sqlite.ts';
import type { PermissionRow } from '../types.ts';
import { placeholders, toPermission, type PermissionRowDb } from './rows.ts';

export class SqlitePermissionRepository implements PermissionRepository {
  constructor(private readonly db: SqliteDb) {}

  async list(): Promise<PermissionRow[]> {
    return (this.db.prepare('SELECT * FROM permission ORDER BY pid, sort, id').all() as PermissionRowDb[]).map(toPermission);
  }

  async get(id: number): Promise<PermissionRow | undefined> {
    const row = this.db.prepare('SELECT * FROM permission WHERE id = ?').get(id) as PermissionRowDb | undefined;
    return row && toPermission(row);
  }

  async existing(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = this.db.prepare(`SELECT id FROM permission WHERE id IN (${placeholders(ids.length)})`).all(...ids) as { id: number }[];
    return new Set(rows.map((r) => r.id));
  }

  async update(id: number, patch: { name?: string; nameEn?: string; sort?: number }): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (patch.name !== undefined) { sets.push('name = ?'); params.push(patch.name); }
    if (patch.nameEn !== undefined) { sets.push('name_en = ?'); params.push(patch.nameEn); }
    if (patch.sort !== undefined) { sets.push('sort = ?'); params.push(patch.sort); }
    if (sets.length) this.db.prepare(`UPDATE permission SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
  }

  async siblings(pid: number): Promise<PermissionRow[]> {
    return (this.db.prepare('SELECT * FROM permission WHERE pid = ? ORDER BY sort, id').all(pid) as PermissionRowDb[]).map(toPermission);
  }

  async setSorts(sorts: readonly { id: number; sort: number }[]): Promise<void> {
    const stmt = this.db.prepare('UPDATE permission SET sort = ? WHERE id = ?');
    for (const s of sorts) stmt.run(s.sort, s.id);
  }
}

/**
 * Brings the permission table in line with the registry on every start: new ids are inserted, the
 * structure (pid, type, key) follows the registry, and the editable fields (names, sort) are kept.
 */
export function syncPermissionRegistry(db: SqliteDb, registry: readonly RegistryEntry[]): { inserted: number } {
  const existing = new Set((db.prepare('SELECT id FROM permission').all() as { id: number }[]).map((r) => r.id));
  const insert = db.prepare('INSERT INTO permission (id, pid, type, route_key, name, name_en, sort) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE permission SET pid = ?, type = ?, route_key = ? WHERE id = ?');
  let inserted = 0;
  db.transaction(() => {
    // Keys are unique: clear keys first so an entry whose key moved to another id cannot collide mid-update.
    for (const e of registry) if (existing.has(e.id)) db.prepare('UPDATE permission SET route_key = ? WHERE id = ?').run(`#${e.id}`, e.id);
    registry.forEach((e, index) => {
      if (existing.has(e.id)) update.run(e.pid, e.type, e.key, e.id);
      else {
        insert.run(e.id, e.pid, e.type, e.key, e.zh, e.en, index + 1);
        inserted++;
      }
    });
  })();
  return { inserted };
}
