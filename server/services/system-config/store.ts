/**
 * The system configuration as the rest of the server reads it (issue 19): platform parameter values in a
 * versioned in-memory cache over `sys_param`, reloaded after every write, and a change signal the routes
 * raise after each committed write (parameters or dictionary) so the push hub can tell open consoles to
 * refetch. Readers (the live-video admission, …) call `number(key)` per use: a change takes effect on the
 * next call, without a restart. Company parameters (report thresholds) are not cached here: the report
 * engine reads `report_setting` when it opens a vehicle-day.
 */
import type { SqliteDb } from '../../db/sqlite.ts';
import { BUILTIN_PARAMS, paramNumber, type BuiltinParam } from '../../../domain/system-config/params.ts';
import { SEED_DICTIONARY } from '../../../domain/system-config/dictionary.ts';

export type ConfigTopic = 'params' | 'dictionary';

/** What the push notice carries: which part changed and its new version (consoles refetch that part). */
export interface ConfigChange {
  readonly topic: ConfigTopic;
  readonly version: number;
}

export class SystemConfig {
  private values = new Map<string, string | null>();
  private defaults = new Map<string, string | null>();
  private readonly versions: Record<ConfigTopic, number> = { params: 1, dictionary: 1 };
  private readonly listeners = new Set<(change: ConfigChange) => void>();

  constructor(private readonly db: SqliteDb, private readonly overrides: Readonly<Record<string, string>> = {}) {}

  /** Writes the built-in rows (names, limits, defaults from the domain catalogue; values kept) and the dictionary seed once, then loads. */
  install(now = Date.now()): void {
    this.db.transaction(() => {
      const ids = new Map<string, number>();
      const find = this.db.prepare('SELECT id FROM sys_param WHERE param_key = ?');
      const insert = this.db.prepare(`INSERT INTO sys_param (parent_id, param_key, param_name, param_name_en, kind, scope, min, max, unit, unit_en, options, default_value, sort, builtin, update_time)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?, 1, ?)`);
      const update = this.db.prepare(`UPDATE sys_param SET parent_id = ?, param_name = ?, param_name_en = ?, kind = ?, scope = ?, min = ?, max = ?, unit = ?, unit_en = ?, default_value = ?, sort = ?, builtin = 1 WHERE id = ?`);
      BUILTIN_PARAMS.forEach((p: BuiltinParam, i) => {
        const parent = p.parent === undefined ? null : ids.get(p.parent) ?? null;
        const def = this.overrides[p.key] ?? p.defaultValue ?? null;
        const row = find.get(p.key) as { id: number } | undefined;
        const args = [p.zh, p.en, p.kind, p.scope, p.min ?? null, p.max ?? null, p.unit?.[0] ?? '', p.unit?.[1] ?? '', def, i] as const;
        if (row) {
          update.run(parent, ...args, row.id);
          ids.set(p.key, row.id);
        } else ids.set(p.key, Number(insert.run(parent, p.key, ...args, now).lastInsertRowid));
      });
      const kinds = this.db.prepare("SELECT count(*) AS n FROM dictionary WHERE parent_id IS NULL").get() as { n: number };
      if (kinds.n === 0) {
        const put = this.db.prepare('INSERT INTO dictionary (parent_id, kind, code, code_cnname, code_enname, sort, builtin, update_time) VALUES (?, ?, ?, ?, ?, ?, 1, ?)');
        SEED_DICTIONARY.forEach((k, i) => {
          const kindId = Number(put.run(null, '', k.code, k.zh, k.en, i, now).lastInsertRowid);
          k.codes.forEach((c, j) => put.run(kindId, k.code, c.code, c.zh, c.en, j, now));
        });
      }
    })();
    this.reload();
  }

  /** Re-reads the platform values (after a write; also what a second server process would do on the notice). */
  reload(): void {
    const rows = this.db.prepare("SELECT param_key AS k, value AS v, default_value AS d FROM sys_param WHERE scope = 'platform' AND kind <> 'group'").all() as { k: string; v: string | null; d: string | null }[];
    this.values = new Map(rows.map((r) => [r.k, r.v]));
    this.defaults = new Map(rows.map((r) => [r.k, r.d]));
  }

  version(topic: ConfigTopic): number {
    return this.versions[topic];
  }

  /** A platform parameter's value in force: its own, else its default; undefined for an unknown key. */
  get(key: string): string | undefined {
    if (!this.defaults.has(key)) return undefined;
    return this.values.get(key) ?? this.defaults.get(key) ?? undefined;
  }

  number(key: string, fallback: number): number {
    return paramNumber({ [key]: this.get(key) }, key, fallback);
  }

  /** Every platform value in force (the console's `values` call). */
  platformValues(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of this.defaults.keys()) {
      const v = this.get(key);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }

  onChange(listener: (change: ConfigChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After a committed write: new version, cache reloaded, listeners told. */
  changed(topic: ConfigTopic): ConfigChange {
    this.versions[topic]++;
    if (topic === 'params') this.reload();
    const change = { topic, version: this.versions[topic] };
    for (const l of this.listeners) l(change);
    return change;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Dictionary and system parameters (issue 19): platform parameter values read live, change signal. */
    systemConfig: SystemConfig;
  }
}
