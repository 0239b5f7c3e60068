/**
 * Migration 50 (issue 19, /safeManagement/accidentAnalysis: manual processing and publicity; contract
 * server/services/accidents/api.md, rules domain/accidents/rules.ts).
 *
 * - `accident`: one road accident a safety officer filed for a vehicle of `company_id` (the vehicle's company
 *   when filed; scoping follows it). Plate, VIN and driver are kept as text too, so the record outlives a renamed
 *   or deleted vehicle. Time is the (estimated) accident time, epoch ms; place is a point (WGS-84) and a text.
 *   Level, responsibility and state are the domain's words; `window_minutes` is the alarm window the officer
 *   looked at (± minutes around the time).
 * - `accident_alarm`: the stored alarms the officer linked (that vehicle's, inside the window when linked).
 * - `accident_publicity`: a closed accident published as a safety-education case (title, summary), who and when;
 *   deleted on unpublish (the audit trail keeps that it was).
 * - `accident_publicity_company`: the companies (each with its sub-companies) that see the case.
 * - `accident_file`: evidence files uploaded one at a time (image, video, pdf; type read from the bytes),
 *   stored under the data dir by SHA-256.
 */
export const ACCIDENTS_MIGRATION = {
  version: 50,
  name: 'accidents: records with linked alarms, publicity cases, evidence files',
  sql: `
    CREATE TABLE accident (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      vehicle_id INTEGER REFERENCES vehicle(id) ON DELETE SET NULL,
      plate TEXT NOT NULL,
      vin TEXT NOT NULL DEFAULT '',
      frame_no TEXT NOT NULL DEFAULT '',
      source_project TEXT NOT NULL DEFAULT '',
      driver_id INTEGER REFERENCES driver(id) ON DELETE SET NULL,
      driver_name TEXT NOT NULL DEFAULT '',
      time INTEGER NOT NULL,
      lng REAL NOT NULL,
      lat REAL NOT NULL,
      place TEXT NOT NULL,
      type TEXT NOT NULL CHECK (type IN ('collision', 'rollover', 'scrape', 'pedestrian', 'other')),
      level TEXT NOT NULL CHECK (level IN ('minor', 'ordinary', 'major', 'extraSerious')),
      light_injuries INTEGER NOT NULL DEFAULT 0 CHECK (light_injuries >= 0),
      serious_injuries INTEGER NOT NULL DEFAULT 0 CHECK (serious_injuries >= 0),
      deaths INTEGER NOT NULL DEFAULT 0 CHECK (deaths >= 0),
      property_loss INTEGER NOT NULL DEFAULT 0 CHECK (property_loss >= 0),
      responsibility TEXT NOT NULL CHECK (responsibility IN ('pending', 'full', 'main', 'equal', 'secondary', 'none')),
      description TEXT NOT NULL DEFAULT '',
      state TEXT NOT NULL CHECK (state IN ('reported', 'investigating', 'closed')),
      window_minutes INTEGER NOT NULL DEFAULT 10,
      created_by_id INTEGER,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      updated_by_name TEXT NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE INDEX accident_company_time ON accident(company_id, time);
    CREATE INDEX accident_vehicle_time ON accident(vehicle_id, time);
    CREATE TABLE accident_alarm (
      accident_id INTEGER NOT NULL REFERENCES accident(id) ON DELETE CASCADE,
      alarm_id INTEGER NOT NULL REFERENCES alarm(id) ON DELETE CASCADE,
      PRIMARY KEY (accident_id, alarm_id)
    ) WITHOUT ROWID;
    CREATE TABLE accident_publicity (
      accident_id INTEGER PRIMARY KEY REFERENCES accident(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      summary TEXT NOT NULL,
      published_by_name TEXT NOT NULL,
      publish_time INTEGER NOT NULL
    );
    CREATE TABLE accident_publicity_company (
      accident_id INTEGER NOT NULL REFERENCES accident_publicity(accident_id) ON DELETE CASCADE,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      PRIMARY KEY (accident_id, company_id)
    ) WITHOUT ROWID;
    CREATE TABLE accident_file (
      id INTEGER PRIMARY KEY,
      accident_id INTEGER NOT NULL REFERENCES accident(id) ON DELETE CASCADE,
      file_name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('jpeg', 'png', 'mp4', 'pdf')),
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      uploaded_by_name TEXT NOT NULL,
      upload_time INTEGER NOT NULL
    );
    CREATE INDEX accident_file_accident ON accident_file(accident_id);
  `,
};
