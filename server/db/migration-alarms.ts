/**
 * Migration 5: safety alarms (issue 5). Self-contained so it can sit after versions 3 and 4 in
 * `migrations.ts` whatever order they are appended in. Values are documented in server/API.md
 * "Safety alarms": deal_status 0 not processed, 1 automatically, 2 manually, 3 invalid; deal_type
 * 1 risk release, 2 risk tracking, 3 risk escalation, 4 no risk; source bit | adas | dms | platform.
 * The type catalogue is seeded (and kept in sync on start) from domain/alarms/catalogue.ts.
 */
import { ALARM_TYPES } from '../../domain/alarms/catalogue.ts';
import { defaultLinkage } from '../../domain/alarms/linkage.ts';

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

const seedTypes = ALARM_TYPES.map((t, i) => `(${t.code}, ${t.group}, ${sqlText(t.zh)}, ${t.en === null ? 'NULL' : sqlText(t.en)}, ${i})`).join(',\n');

export const ALARMS_MIGRATION = {
  version: 5,
  name: 'safety alarms: types, company and user settings, alarms, deal log',
  sql: `
    -- The catalogue; en NULL = Chinese-only name (82, 82001–82011). sort = catalogue order.
    CREATE TABLE alarm_type (
      code INTEGER PRIMARY KEY,
      group_no INTEGER NOT NULL,
      name_zh TEXT NOT NULL,
      name_en TEXT,
      sort INTEGER NOT NULL
    );
    INSERT INTO alarm_type (code, group_no, name_zh, name_en, sort) VALUES
    ${seedTypes};

    -- Per company and type; no row = the defaults (enabled, manual handling, catalogue level, no linkage).
    -- risk_level NULL = the catalogue's default level.
    CREATE TABLE company_alarm_setting (
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      alarm_type INTEGER NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1,
      auto_handle INTEGER NOT NULL DEFAULT 0,
      risk_level TEXT CHECK (risk_level IN ('high', 'medium', 'low', 'ordinary')),
      popup INTEGER NOT NULL DEFAULT 0,
      voice INTEGER NOT NULL DEFAULT 0,
      tts INTEGER NOT NULL DEFAULT 0,
      update_time INTEGER NOT NULL,
      PRIMARY KEY (company_id, alarm_type)
    );

    -- Company-wide switch of the platform levels (no row = on): off means catalogue defaults.
    CREATE TABLE company_alarm_level (
      company_id INTEGER PRIMARY KEY REFERENCES company(id) ON DELETE CASCADE,
      enabled INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );

    -- Per user; no row = pop-up on, voice on, no custom voice.
    CREATE TABLE user_alarm_pop_setting (
      user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
      popup INTEGER NOT NULL DEFAULT 1,
      voice INTEGER NOT NULL DEFAULT 1,
      voice_url TEXT NOT NULL DEFAULT '',
      update_time INTEGER NOT NULL
    );

    -- company_id is the vehicle's company when the alarm was raised (scoping follows it).
    -- Times are epoch ms; start_time = GPS time of the first occurrence, last_time of the latest merge.
    CREATE TABLE alarm (
      id INTEGER PRIMARY KEY,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      device_no TEXT NOT NULL,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      alarm_type INTEGER NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('bit', 'adas', 'dms', 'platform')),
      channel_id INTEGER NOT NULL DEFAULT 0,
      start_time INTEGER NOT NULL,
      end_time INTEGER,
      last_time INTEGER NOT NULL,
      count INTEGER NOT NULL DEFAULT 1,
      lng REAL NOT NULL,
      lat REAL NOT NULL,
      speed REAL NOT NULL,
      risk_level TEXT NOT NULL CHECK (risk_level IN ('high', 'medium', 'low', 'ordinary')),
      deal_status INTEGER NOT NULL DEFAULT 0 CHECK (deal_status IN (0, 1, 2, 3)),
      deal_type INTEGER CHECK (deal_type IN (1, 2, 3, 4)),
      deal_content TEXT NOT NULL DEFAULT '',
      deal_user_id INTEGER,
      deal_username TEXT NOT NULL DEFAULT '',
      deal_time INTEGER,
      typical INTEGER NOT NULL DEFAULT 0,
      create_time INTEGER NOT NULL
    );
    CREATE INDEX alarm_start ON alarm(start_time);
    CREATE INDEX alarm_company_start ON alarm(company_id, start_time);
    CREATE INDEX alarm_vehicle_start ON alarm(vehicle_id, start_time);

    -- The audit trail of every action on an alarm. terminal_result: NULL when no terminal was involved,
    -- else the 0x0001 result (0 ok, 1 fail, 2 bad message, 3 unsupported) or -1 offline / -2 no reply.
    CREATE TABLE alarm_deal_log (
      id INTEGER PRIMARY KEY,
      alarm_id INTEGER NOT NULL REFERENCES alarm(id) ON DELETE CASCADE,
      user_id INTEGER,
      username TEXT NOT NULL,
      action TEXT NOT NULL,
      deal_type INTEGER,
      content TEXT NOT NULL DEFAULT '',
      terminal_result INTEGER,
      result_text TEXT NOT NULL DEFAULT '',
      create_time INTEGER NOT NULL
    );
    CREATE INDEX alarm_deal_log_alarm ON alarm_deal_log(alarm_id, id);
  `,
} as const;

/**
 * Migration 13 (issue 5, linkage applied): until linkage took effect, a company's first own row for a
 * type (made by switching enable, auto-handle or the level) was stored with pop-up, tone and TTS all
 * off, which changed nothing then. Now the console obeys them, so those rows would silently mute a
 * high- or medium-risk type for the company's whole subtree. Rows with all three off get the default
 * linkage of their type (domain/alarms/linkage.ts); the price is that a company which had switched all
 * three off on the linkage page on purpose, when that had no effect yet, finds pop-up and tone on again.
 */
const loudTypes = ALARM_TYPES.filter((t) => t.group !== 1 && defaultLinkage(t.code).popup).map((t) => t.code);

export const ALARM_LINKAGE_DEFAULTS_MIGRATION = {
  version: 13,
  name: 'alarm linkage: rows made before linkage applied get the default pop-up and tone',
  sql: `
    UPDATE company_alarm_setting SET popup = 1, voice = 1
    WHERE popup = 0 AND voice = 0 AND tts = 0 AND alarm_type IN (${loudTypes.join(', ')});
  `,
};

