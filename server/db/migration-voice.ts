/**
 * Migration 47 (issue 19, text and audio resources, batch voice dispatch: server/services/voice/api.md).
 *
 * `text_template`: a reusable text (service-ops textManage) a dispatch may start from; company-scoped.
 * `audio_resource`: an uploaded sound (service-ops audioManage), its bytes under the data dir by SHA-256
 * (two uploads of the same bytes share one file), the type read from the bytes (mp3, wav, ogg).
 * `voice_task` / `voice_task_vehicle`: one 0x8300 text to up to 500 vehicles and its per-vehicle state, in
 * the shape server/services/command-tasks expects (payload column `message`); `expire_time` is the
 * validity window the sender chose: a vehicle still queued then is never sent (shown as expired).
 * 'cancelled' is a queued vehicle the operator withdrew (voice/disable).
 */
export const VOICE_MIGRATION = {
  version: 47,
  name: 'text templates, audio resources, batch voice tasks',
  sql: `
    CREATE TABLE text_template (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      content TEXT NOT NULL,
      remark TEXT NOT NULL DEFAULT '',
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE INDEX text_template_company ON text_template(company_id, id);
    CREATE TABLE audio_resource (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      file_name TEXT NOT NULL,
      format TEXT NOT NULL CHECK (format IN ('mp3', 'wav', 'ogg')),
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      remark TEXT NOT NULL DEFAULT '',
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE INDEX audio_resource_company ON audio_resource(company_id, id);
    CREATE INDEX audio_resource_sha ON audio_resource(sha256);
    CREATE TABLE voice_task (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      message TEXT NOT NULL,
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      expire_time INTEGER NOT NULL
    );
    CREATE INDEX voice_task_company ON voice_task(company_id, create_time);
    CREATE TABLE voice_task_vehicle (
      task_id INTEGER NOT NULL REFERENCES voice_task(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      vehiidno TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'ok', 'failed', 'timeout', 'cancelled')),
      result INTEGER,
      record_id INTEGER REFERENCES command_record(id) ON DELETE SET NULL,
      update_time INTEGER NOT NULL,
      PRIMARY KEY (task_id, vehicle_id)
    );
    CREATE INDEX voice_task_vehicle_queued ON voice_task_vehicle(vehicle_id) WHERE state = 'queued';
  `,
} as const;
