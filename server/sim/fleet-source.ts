/** Where the simulated terminals come from: the provisioned vehicles of a data dir, or generated numbers. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { isPostgresUrl } from '../db/pg/open.ts';
import { PgSyncDb } from '../db/pg/sync-db.ts';
import { registerBus } from './passengers.ts';
import { generatedDeviceNo, type TerminalSpec } from './simulator.ts';

/** The server's database file inside DATA_DIR (see server/db/open.ts). */
export const DB_FILE = 'fleet.sqlite';

/**
 * The server's database, read-only: PostgreSQL when DATABASE_URL names one (as server/db/open.ts chooses;
 * issue 20), else DATA_DIR's SQLite file. Both answer the same better-sqlite3 calls.
 */
function openServerDatabase(dataDir: string): Pick<Database.Database, 'prepare' | 'close'> {
  const url = process.env.DATABASE_URL;
  if (isPostgresUrl(url)) return new PgSyncDb(url) as unknown as Database.Database;
  const file = path.join(dataDir, DB_FILE);
  if (!existsSync(file)) throw new Error(`no database at ${file}: start the server once with DATA_DIR=${dataDir}, or leave out --data-dir`);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * `limit` vehicles (by id, after skipping `offset`) of DATA_DIR's database, read-only: device number and plate,
 * so the terminals match provisioned vehicles and the gateway accepts them without autoRegister, and the
 * auth code of each one registered before. A real terminal keeps its code in flash; the gateway refuses a
 * registered terminal's 0x0100 (result 3), so a restarted fleet must authenticate with the codes it had.
 */
export function readProvisionedTerminals(dataDir: string, limit = Number.MAX_SAFE_INTEGER, offset = 0): TerminalSpec[] {
  const db = openServerDatabase(dataDir);
  try {
    // An empty code is a voided registration (migration 14); the registration is the device's (migration 22).
    // Vehicles without an installed device have no terminal to simulate.
    // Buses (vehicles on a line) count passengers at their line's stops (sim/passengers.ts).
    const rows = db.prepare(`SELECT v.device_no AS deviceNo, v.vehiidno AS plate, NULLIF(t.auth_code, '') AS authCode,
                                    v.vehicle_type = 'muck' AS slag, v.line_id AS lineId,
                                    (SELECT c.path FROM company c WHERE c.id = v.company_id) AS path,
                                    (SELECT COUNT(*) FROM line_station s WHERE s.line_id = v.line_id AND s.direction = 0) AS stops
                             FROM vehicle v LEFT JOIN terminal t ON t.device_no = v.device_no
                             WHERE v.device_no IS NOT NULL ORDER BY v.id LIMIT ? OFFSET ?`)
      .all(limit, offset) as { deviceNo: string; plate: string; authCode: string | null; slag: number; lineId: number | null; stops: number; path: string }[];
    for (const r of rows) if (r.lineId !== null) registerBus(r.deviceNo, r.stops);
    // Slag trucks (type muck) carry the cargo box item (sim/box.ts) and drive loads to the disposal
    // sites of their company or the companies above it (as the platform checks them).
    const sites = db.prepare(`SELECT s.lng, s.lat, s.radius_m AS radiusM, c.path FROM box_site s JOIN company c ON c.id = s.company_id ORDER BY s.id`)
      .all() as { lng: number; lat: number; radiusM: number; path: string }[];
    const sitesOf = (path: string) => sites.filter((s) => path.startsWith(s.path)).map(({ lng, lat, radiusM }) => ({ lng, lat, radiusM }));
    return rows.map((r) => ({ deviceNo: r.deviceNo, plate: r.plate, authCode: r.authCode, ...(r.slag === 1 ? { slagTruck: true, slagSites: sitesOf(r.path) } : {}) }));
  } finally {
    db.close();
  }
}

/** What the database knows of a chosen terminal number (cli.ts --device-no with --data-dir). */
export interface StoredTerminal {
  readonly deviceNo: string;
  /** The bound vehicle's plate and colour (null: the device is bound to no vehicle). */
  readonly plate: string | null;
  readonly plateColor: number | null;
  /** As entered on the device ('' when not entered). */
  readonly terminalId: string;
  readonly protocol: 2011 | 2013 | 2019;
  /** The code of its last registration, if it holds one. */
  readonly authCode: string | null;
}

/**
 * The devices of DATA_DIR's database among `deviceNos`, read-only, by number. Numbers the database does not
 * know are absent (such a terminal is refused at register unless auto-registration is on).
 */
export function readChosenTerminals(dataDir: string, deviceNos: readonly string[]): Map<string, StoredTerminal> {
  const db = openServerDatabase(dataDir);
  try {
    const read = db.prepare(`SELECT d.device_no AS deviceNo, v.vehiidno AS plate, v.plate_color AS plateColor, d.terminal_id AS terminalId,
                                    d.protocol AS protocol, NULLIF(t.auth_code, '') AS authCode
                             FROM device d LEFT JOIN vehicle v ON v.device_no = d.device_no LEFT JOIN terminal t ON t.device_no = d.device_no
                             WHERE d.device_no = ?`);
    const found = new Map<string, StoredTerminal>();
    for (const no of deviceNos) {
      const row = read.get(no) as StoredTerminal | undefined;
      if (row) found.set(no, row);
    }
    return found;
  } finally {
    db.close();
  }
}

/**
 * `count` terminals with generated device numbers from index `offset` (the gateway needs autoRegister
 * on for them). Processes splitting one large fleet take disjoint offsets.
 */
export function generatedTerminals(count: number, offset = 0): TerminalSpec[] {
  return Array.from({ length: count }, (_, i) => ({ deviceNo: generatedDeviceNo(offset + i) }));
}
