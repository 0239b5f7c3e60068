/**
 * Stored wall presets (`wall_preset`, migration 21): an administrator's layout of a wall, else the
 * factory preset of domain/walls/preset.ts. A stored row that no longer passes `presetProblems`
 * (a later release tightened a rule) is ignored in favour of the factory preset, so a wall always draws.
 */
import { DEFAULT_PRESETS, presetProblems, type WallKey, type WallPreset } from '../../../domain/walls/preset.ts';
import type { SqliteDb } from '../../db/sqlite.ts';

export interface PresetAnswer {
  readonly preset: WallPreset;
  /** True when an administrator's preset is in force (false: the factory preset). */
  readonly stored: boolean;
  readonly updatedBy: string | null;
  readonly updateTime: number | null;
}

export class WallPresets {
  constructor(private readonly db: SqliteDb) {}

  get(wall: WallKey): PresetAnswer {
    const r = this.db.prepare('SELECT config, updated_by_name, update_time FROM wall_preset WHERE wall = ?').get(wall) as
      | { config: string; updated_by_name: string; update_time: number }
      | undefined;
    if (r) {
      try {
        const preset = JSON.parse(r.config) as unknown;
        if (presetProblems(preset).length === 0) return { preset: preset as WallPreset, stored: true, updatedBy: r.updated_by_name, updateTime: r.update_time };
      } catch {
        // fall through to the factory preset
      }
    }
    return { preset: DEFAULT_PRESETS[wall], stored: false, updatedBy: null, updateTime: null };
  }

  save(wall: WallKey, preset: WallPreset, byName: string, now: number): void {
    this.db
      .prepare('INSERT INTO wall_preset (wall, config, updated_by_name, update_time) VALUES (?, ?, ?, ?) ON CONFLICT(wall) DO UPDATE SET config = excluded.config, updated_by_name = excluded.updated_by_name, update_time = excluded.update_time')
      .run(wall, JSON.stringify(preset), byName, now);
  }

  reset(wall: WallKey): void {
    this.db.prepare('DELETE FROM wall_preset WHERE wall = ?').run(wall);
  }
}
