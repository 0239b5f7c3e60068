/**
 * Numbered schema migrations. Append new ones; never edit one that has shipped.
 * `schema_version` records each applied number, so a database is brought up to date on start.
 *
 * Company paths: `path` is the materialised ancestor chain `/1/3/12/` (ids, root first, own id last).
 * A subtree is the range `path >= P AND path < P || '~'` ('~' sorts after digits and '/'), which the
 * path index serves without a scan.
 */
import { TERMINAL_PARAMS_MIGRATION } from './migration-terminal-params.ts';
import { FENCES_MIGRATION } from './migration-fences.ts';
import { ROUTES_MIGRATION } from './migration-routes.ts';
import { ROUTE_UPGRADE_EXTRAS_MIGRATION } from './migration-route-upgrade-extras.ts';
import { FACE_RECOGNITION_MIGRATION } from './migration-face-recognition.ts';
import { SYSTEM_CONFIG_MIGRATION } from './migration-system-config.ts';
import { ALARM_INDEX_TRIM_MIGRATION, ALARM_STATS_MIGRATION } from './migration-alarm-stats.ts';
import { ALARM_LINKAGE_DEFAULTS_MIGRATION, ALARMS_MIGRATION } from './migration-alarms.ts';
import { BOARD_MIGRATION } from './migration-board.ts';
import { APPRAISAL_MIGRATION } from './migration-appraisal.ts';
import { TRACK_BLOCKS_MIGRATION } from './migration-track-blocks.ts';
import { VIDEO_MIGRATION } from './migration-video.ts';
import { RECORDING_UPLOAD_MIGRATION } from './migration-recording-upload.ts';
import { MEDIA_MIGRATION, MEDIA_RETENTION_MIGRATION } from './migration-media.ts';
import { PERSISTENCE_MIGRATION, RETENTION_MIGRATION } from './migration-retention.ts';
import { TERMINAL_REGISTRATION_MIGRATION } from './migration-terminal-registration.ts';
import { DEVICE_CHANNELS_MIGRATION } from './migration-device-channels.ts';
import { DEVICE_TYPES_MIGRATION } from './migration-device-types.ts';
import { DASHBOARD_MIGRATION } from '../services/dashboard/migration.ts';
import { LOGIN_FAILURE_IP_MIGRATION } from './migration-login-failure-ip.ts';
import { WALLS_MIGRATION } from './migration-walls.ts';
import { MACHINE_AFFAIRS_MIGRATION } from './migration-machine-affairs.ts';
import { INSTALLATION_TIME_MIGRATION } from './migration-installation-time.ts';
import { FACE_WAREHOUSE_MIGRATION } from './migration-face-warehouse.ts';
import { PHOTOWALL_MIGRATION } from './migration-photowall.ts';
import { BOX_OBD_MIGRATION } from './migration-box-obd.ts';
import { TERMINAL_UPGRADE_MIGRATION } from './migration-terminal-upgrade.ts';
import { POSITION_FUEL_MIGRATION, REPORT_ENGINE_MIGRATION } from './migration-report-engine.ts';
import { TERMINAL_SEEN_MIGRATION } from '../services/report-engine/migration-seen.ts';
import { PASSENGERS_MIGRATION } from './migration-passengers.ts';
import { NOTICES_MIGRATION } from '../services/notices/migration.ts';
import { ACCIDENTS_MIGRATION } from '../services/accidents/migration.ts';
import { CAB_SUPERVISION_VEHICLE_INDEX_MIGRATION } from '../services/cab-supervision/migration.ts';
import { BOX_PERMITS_MIGRATION } from './migration-box-permits.ts';
import { OPS_CHECK_MIGRATION } from '../services/ops-check/migration.ts';
import { APP_FEEDBACK_MIGRATION } from '../services/app-feedback/migration.ts';
import { AUDIT_MIGRATION } from '../services/audit/migration.ts';
import { VOICE_MIGRATION } from './migration-voice.ts';
import { CAB_SUPERVISION_MIGRATION } from './migration-cab-supervision.ts';
import { POSITION_DEDUPE_MIGRATION } from './migration-position-dedupe.ts';
import { NODE_PRESENCE_MIGRATION } from './migration-node-presence.ts';
import { IMPORT_JOBS_MIGRATION } from './migration-import-jobs.ts';
import type { SqliteDb } from './sqlite.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /**
   * Rebuilds a table others reference (SQLite's create-copy-drop-rename procedure): foreign keys are
   * off while it runs (the pragma cannot change inside a transaction, so it is set around it) and
   * `foreign_key_check` must find no violation before it commits.
   */
  readonly foreignKeysOff?: boolean;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'foundation: companies, users, roles, permissions, sessions, vehicles, lines',
    sql: `
      CREATE TABLE company (
        id INTEGER PRIMARY KEY,
        pid INTEGER REFERENCES company(id),
        name TEXT NOT NULL,
        contact TEXT NOT NULL DEFAULT '',
        phone TEXT NOT NULL DEFAULT '',
        address TEXT NOT NULL DEFAULT '',
        remark TEXT NOT NULL DEFAULT '',
        path TEXT NOT NULL UNIQUE,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL
      );
      CREATE INDEX company_pid ON company(pid);

      CREATE TABLE line (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        company_id INTEGER NOT NULL REFERENCES company(id),
        create_time INTEGER NOT NULL
      );
      CREATE INDEX line_company ON line(company_id);

      CREATE TABLE vehicle (
        id INTEGER PRIMARY KEY,
        vehiidno TEXT NOT NULL UNIQUE,
        company_id INTEGER NOT NULL REFERENCES company(id),
        line_id INTEGER REFERENCES line(id),
        device_no TEXT NOT NULL UNIQUE CHECK (length(device_no) = 12),
        vin TEXT NOT NULL DEFAULT '',
        create_time INTEGER NOT NULL
      );
      CREATE INDEX vehicle_company ON vehicle(company_id, line_id);
      CREATE INDEX vehicle_line ON vehicle(line_id);

      CREATE TABLE user (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        real_name TEXT NOT NULL DEFAULT '',
        user_level INTEGER NOT NULL CHECK (user_level IN (0, 1, 2)),
        company_id INTEGER NOT NULL REFERENCES company(id),
        phone TEXT NOT NULL DEFAULT '',
        email TEXT NOT NULL DEFAULT '',
        status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
        expire_time INTEGER,
        allowed_ips TEXT NOT NULL DEFAULT '',
        geo_inverse INTEGER NOT NULL DEFAULT 0,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL
      );
      CREATE INDEX user_company ON user(company_id);

      CREATE TABLE role (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        company_id INTEGER NOT NULL REFERENCES company(id),
        remark TEXT NOT NULL DEFAULT '',
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL
      );
      CREATE INDEX role_company ON role(company_id);

      CREATE TABLE user_role (
        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
        role_id INTEGER NOT NULL REFERENCES role(id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, role_id)
      );
      CREATE INDEX user_role_role ON user_role(role_id);

      CREATE TABLE permission (
        id INTEGER PRIMARY KEY,
        pid INTEGER NOT NULL,
        type INTEGER NOT NULL CHECK (type IN (1, 2)),
        route_key TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        name_en TEXT NOT NULL,
        sort INTEGER NOT NULL
      );
      CREATE INDEX permission_pid ON permission(pid, sort);

      CREATE TABLE role_permission (
        role_id INTEGER NOT NULL REFERENCES role(id) ON DELETE CASCADE,
        permission_id INTEGER NOT NULL REFERENCES permission(id),
        PRIMARY KEY (role_id, permission_id)
      );

      CREATE TABLE session (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
        login_type TEXT NOT NULL DEFAULT '',
        ip TEXT NOT NULL DEFAULT '',
        create_time INTEGER NOT NULL,
        last_seen INTEGER NOT NULL,
        revoked_time INTEGER
      );
      CREATE INDEX session_user ON session(user_id);

      CREATE TABLE login_failure (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL,
        ip TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX login_failure_key ON login_failure(username, ip, at);

      CREATE TABLE login_ticket (
        ticket_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
        created_by INTEGER NOT NULL,
        create_time INTEGER NOT NULL,
        expire_time INTEGER NOT NULL,
        used_time INTEGER
      );
    `,
  },
  {
    version: 2,
    name: 'live monitoring: terminal registrations and position history',
    sql: `
      -- One row per registered terminal (device_no = the vehicle's 12-digit terminal phone).
      CREATE TABLE terminal (
        device_no TEXT PRIMARY KEY,
        vehicle_id INTEGER NOT NULL UNIQUE REFERENCES vehicle(id) ON DELETE CASCADE,
        auth_code TEXT NOT NULL,
        maker_id TEXT NOT NULL DEFAULT '',
        model TEXT NOT NULL DEFAULT '',
        terminal_id TEXT NOT NULL DEFAULT '',
        plate_color INTEGER NOT NULL DEFAULT 0,
        plate TEXT NOT NULL DEFAULT '',
        register_time INTEGER NOT NULL,
        auth_time INTEGER
      );

      -- Append-only history; no foreign key so batched inserts stay cheap (vehicle ids come from the store).
      -- Units: lng/lat degrees WGS-84, speed km/h, heading degrees, altitude m, mileage km (NULL when not reported),
      -- gps_time and received_at epoch ms.
      CREATE TABLE positions (
        vehicle_id INTEGER NOT NULL,
        gps_time INTEGER NOT NULL,
        lng REAL NOT NULL,
        lat REAL NOT NULL,
        speed REAL NOT NULL,
        heading INTEGER NOT NULL,
        altitude INTEGER NOT NULL,
        status INTEGER NOT NULL,
        alarm INTEGER NOT NULL,
        mileage REAL,
        received_at INTEGER NOT NULL
      );
      CREATE INDEX positions_vehicle_time ON positions(vehicle_id, gps_time);
    `,
  },
  // Issue 4 (track playback); self-contained in its own file.
  TRACK_BLOCKS_MIGRATION,
  // Issue 5 (safety alarms); self-contained in its own file, numbered 5 whatever comes before it.
  ALARMS_MIGRATION,
  {
    version: 4,
    name: 'positioning-quality reports: daily rollup per vehicle',
    sql: `
      -- One row per vehicle per completed China day (GMT+8), computed on first request and kept
      -- (server/services/reports). Counts are points; km and hours are REAL. online/operation are 0/1.
      CREATE TABLE report_vehicle_day (
        vehicle_id INTEGER NOT NULL,
        day TEXT NOT NULL,
        total_gps INTEGER NOT NULL,
        pass INTEGER NOT NULL,
        undetermined INTEGER NOT NULL,
        error INTEGER NOT NULL,
        drift INTEGER NOT NULL,
        loss_times INTEGER NOT NULL,
        loss_hours REAL NOT NULL,
        loss_km REAL NOT NULL,
        continuous_km REAL NOT NULL,
        mileage_km REAL NOT NULL,
        early_morning_km REAL NOT NULL,
        online INTEGER NOT NULL,
        operation INTEGER NOT NULL,
        -- 1: the vehicle's newest point fell on this day when it was computed (recomputed once a later point exists).
        open INTEGER NOT NULL,
        computed_at INTEGER NOT NULL,
        PRIMARY KEY (vehicle_id, day)
      ) WITHOUT ROWID;
    `,
  },
  // Issue 6 (live video); self-contained in its own file.
  VIDEO_MIGRATION,
  // Issue 5 (alarm statistics): driver attribution columns, covering index for aggregates.
  ALARM_STATS_MIGRATION,
  // Issue 5 (vehicle appraisal): settings per company.
  APPRAISAL_MIGRATION,
  // Issue 5 (safety board): version 7, self-contained in its own file.
  BOARD_MIGRATION,
  // Issue 6 (multimedia: photos from 0x0801): version 10, self-contained in its own file.
  MEDIA_MIGRATION,
  // Issue 6 (recordings pulled to the server over FTP): version 9, self-contained in its own file.
  RECORDING_UPLOAD_MIGRATION,
  // Media retention by arrival time: version 12.
  MEDIA_RETENTION_MIGRATION,
  // Issue 5 (linkage applied): rows made before get the default pop-up and tone: version 13.
  ALARM_LINKAGE_DEFAULTS_MIGRATION,
  // Issue 12 §2 (re-registration refused and recorded; database flags): version 14.
  TERMINAL_REGISTRATION_MIGRATION,
  // Issue 12 §4 (device channels: record and the terminal's 0x1003): version 15.
  DEVICE_CHANNELS_MIGRATION,
  // Issue 12 §5 (kept across restarts; retention indexes): versions 16 and 17.
  PERSISTENCE_MIGRATION,
  RETENTION_MIGRATION,
  // Issue 13 (device types, the first resource on server/resources/): version 18.
  DEVICE_TYPES_MIGRATION,
  // Issue 13 (the per-address login back-off reads failures by ip): version 19.
  LOGIN_FAILURE_IP_MIGRATION,
  // Issue 14 (operation dashboard): guide steps per user, driving per vehicle-day: version 20.
  DASHBOARD_MIGRATION,
  // Issue 14 (/largeScreen walls: display credentials, stored presets): version 21.
  WALLS_MIGRATION,
  // Issue 15 (machine affairs: devices apart from vehicles, drivers, installations, line stations, operator log): version 22.
  MACHINE_AFFAIRS_MIGRATION,
  // Issue 15 (installation records paged by install time across a fleet): version 25.
  INSTALLATION_TIME_MIGRATION,
  // Issue 15 (face warehouse: driver face samples enrolled per vehicle): version 27.
  FACE_WAREHOUSE_MIGRATION,
  // Issue 15 (photo walls: saved vehicle/channel sets, the grid of latest photos): version 26.
  PHOTOWALL_MIGRATION,
  // Issue 17 (terminal parameters: command records, parameter tasks, templates): version 29.
  TERMINAL_PARAMS_MIGRATION,
  // Issue 17 (fences: fence, fence_vehicle, fence send tasks): version 30.
  FENCES_MIGRATION,
  // Issue 17 (routes: route_plan, route_plan_vehicle, route send tasks): version 34.
  ROUTES_MIGRATION,
  // Issue 17 (cargo box state, disposal sites, OBD/CAN history): version 33.
  BOX_OBD_MIGRATION,
  // Issue 17 (terminal upgrades: packages, upgrade tasks): version 35.
  TERMINAL_UPGRADE_MIGRATION,
  // Issue 18 (report engine: positions.fuel; module rows, carries, events, settings): versions 36, 37.
  POSITION_FUEL_MIGRATION,
  REPORT_ENGINE_MIGRATION,
  // Issue 18 (passenger flow uploads and day rows, body temperatures): version 38.
  PASSENGERS_MIGRATION,
  // Issue 17 leftovers (route time window and key points; upgrade push cancelled): version 40.
  ROUTE_UPGRADE_EXTRAS_MIGRATION,
  // Issue 19 (notices, per-user read state, user menu favourites): version 45.
  NOTICES_MIGRATION,
  // Issue 19 (feedback threads, drivers' app accounts, app push; server/services/app-feedback): version 46.
  APP_FEEDBACK_MIGRATION,
  // Issue 19 (face recognition results, device sample state): version 49.
  FACE_RECOGNITION_MIGRATION,
  // Issue 19 (audit trail and page visits; server/services/audit): version 43.
  AUDIT_MIGRATION,
  // Issue 19 (data dictionary, system parameter tree): version 44.
  SYSTEM_CONFIG_MIGRATION,
  // Issue 19 (text templates, audio resources, batch voice tasks): version 47.
  VOICE_MIGRATION,
  // Issue 19 (ops check: KPI targets per company, monthly KPIs with corrections): version 48.
  OPS_CHECK_MIGRATION,
  // Issue 19 (cab supervision, records, sends): version 51.
  CAB_SUPERVISION_MIGRATION,
  // Issue 19 (accidents, linked alarms, publicity cases, evidence files; server/services/accidents): version 50.
  ACCIDENTS_MIGRATION,
  // Issue 19 review (cab supervision: supervised vehicles by vehicle, for suggest): version 52.
  CAB_SUPERVISION_VEHICLE_INDEX_MIGRATION,
  // Issue 18 leftovers (spans of heartbeat contact per vehicle; server/services/report-engine/seen.ts): version 54.
  TERMINAL_SEEN_MIGRATION,
  // Issue 17 leftovers (slag-truck transport permits, 70006; server/services/box-status): version 55.
  BOX_PERMITS_MIGRATION,
  // Issue 20 part B (positions unique per vehicle and GPS time: a resend after a lost ack is stored once): version 53.
  POSITION_DEDUPE_MIGRATION,
  // Issue 16 (alarm storm: one index fewer per alarm insert): version 56.
  ALARM_INDEX_TRIM_MIGRATION,
  // Issue 20 (node presence; recording uploads owned by the node holding their FTP credentials): version 57.
  NODE_PRESENCE_MIGRATION,
  // Issue 20 (import job status readable from any API node; server/resources/import-jobs.ts): version 58.
  IMPORT_JOBS_MIGRATION,
];

/**
 * Applies pending migrations (up to `upTo`: tests of one migration) in one transaction each; answers the versions applied now.
 * `migrations`: another list than the registry (the PostgreSQL schema of a given set of versions, db/pg/schema.ts).
 */
export function migrate(db: SqliteDb, upTo: number = Number.MAX_SAFE_INTEGER, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_time INTEGER NOT NULL)`);
  const done = new Set((db.prepare('SELECT version FROM schema_version').all() as { version: number }[]).map((r) => r.version));
  const applied: number[] = [];
  // By number, whatever order parallel work appended them in.
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version) || m.version > upTo) continue;
    const fkWasOn = m.foreignKeysOff ? db.pragma('foreign_keys', { simple: true }) === 1 : false;
    if (fkWasOn) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        if (m.foreignKeysOff) {
          const broken = db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0) throw new Error(`migration ${m.version} leaves ${broken.length} foreign key violations: ${JSON.stringify(broken.slice(0, 5))}`);
        }
        db.prepare('INSERT INTO schema_version (version, name, applied_time) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
      })();
    } finally {
      if (fkWasOn) db.pragma('foreign_keys = ON');
    }
    applied.push(m.version);
  }
  return applied;
}

/** The registered migrations by version (the PostgreSQL upgrade, db/pg/upgrade.ts, reads their statements). */
export function registeredMigrations(): readonly Migration[] {
  return [...MIGRATIONS].sort((a, b) => a.version - b.version);
}

/** Every migration's version, ascending (numbers may have gaps while parallel work lands). */
export function schemaVersions(): number[] {
  return MIGRATIONS.map((m) => m.version).sort((a, b) => a - b);
}

/** The highest version (numbers may have gaps while parallel work lands; migrate() applies each by number). */
export function latestSchemaVersion(): number {
  return MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
}
